// The timeline of one run, drawn on a canvas as the window draws it. Above, x is the millisecond of
// each request's `now` and each column stacks its requests (a filled square for one that stored a
// member, a hollow diamond for one that only overwrote, a cross for a failure, a circle when the
// reply did not say), or bars when they are too many to tell apart. Below, as the window's counts
// chart, x is the request: the true count in the window beside the count the script returned, the
// limit, and a mark for each request admitted beyond it. What comes after the cursor is dimmed.

var COLOURS = {
  ink: "#1b1b1b", subtle: "#4a4a4a", blue: "#0072b2", vermillion: "#d55e00", green: "#009e73",
  purple: "#cc79a7", orange: "#e69f00", grey: "#787878", grid: "#d9d9d9", paper: "#ffffff",
};
var DIMMED = 0.22;

function niceStep(raw) {
  if (!(raw > 0)) return 1;
  var power = Math.pow(10, Math.floor(Math.log10(raw)));
  var m = raw / power;
  return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * power;
}

// kinds of request, as drawn
var MARK_STORED = 0, MARK_OVERWRITTEN = 1, MARK_FAILED = 2, MARK_UNKNOWN = 3;

function markOf(flags) {
  if (flags & FLAG_FAILED) return MARK_FAILED;
  if (!(flags & FLAG_ADDED_KNOWN)) return MARK_UNKNOWN;
  return flags & FLAG_ADDED ? MARK_STORED : MARK_OVERWRITTEN;
}

function Timeline(canvas, run, range) {
  this.canvas = canvas;
  this.run = run;
  this.range = range; // {min, max}: milliseconds shared by the sides of a page
  this.hatch = null;
  this.box = null;
}

Timeline.prototype.msOf = function (i) {
  return this.run.now[i] / this.run.header.units_per_ms;
};

// The plots' places, the time columns and the request bins for the canvas's size; false while
// it has none (hidden).
Timeline.prototype.layout = function () {
  var w = this.canvas.clientWidth, h = this.canvas.clientHeight;
  if (w < 50 || h < 120) return false;
  var ratio = window.devicePixelRatio || 1;
  this.canvas.width = Math.round(w * ratio);
  this.canvas.height = Math.round(h * ratio);
  this.ratio = ratio;
  var left = 68, right = w - 14, top = 8, bottom = h - 32;
  var upperBottom = top + Math.round((bottom - top - 40) * 0.55);
  this.box = { left: left, right: right, top: top, upperBottom: upperBottom, lowerTop: upperBottom + 46, bottom: bottom };
  this.layoutColumns(right - left);
  this.layoutBins(right - left);
  return true;
};

Timeline.prototype.layoutColumns = function (plotW) {
  var run = this.run, n = run.requests;
  var span = Math.max(this.range.max - this.range.min, 0);
  var width = 1 / run.header.units_per_ms; // one unit of the clock, in ms
  while ((span / width + 1) * 2 > plotW) width = niceStep(width * 1.5);
  var columns = Math.floor(span / width) + 1;
  this.width = width;
  this.columns = columns;
  this.columnPx = Math.min(plotW / columns, 40);
  this.originPx = this.box.left + (plotW - this.columnPx * columns) / 2;
  this.column = new Int32Array(n);
  this.stack = new Int32Array(n);
  this.firstIn = new Int32Array(columns).fill(-1);
  this.lastIn = new Int32Array(columns).fill(-1);
  var heights = new Int32Array(columns), tallest = 0;
  for (var i = 0; i < n; ++i) {
    var c = Math.min(Math.max(Math.floor((this.msOf(i) - this.range.min) / width), 0), columns - 1);
    this.column[i] = c;
    this.stack[i] = heights[c]++;
    if (heights[c] > tallest) tallest = heights[c];
    if (this.firstIn[c] < 0) this.firstIn[c] = i;
    this.lastIn[c] = i;
  }
  this.tallest = tallest;
  this.markPx = Math.min(14, this.columnPx - 2, (this.box.upperBottom - this.box.top) / Math.max(tallest, 1));
  this.markers = this.markPx >= 5;
  this.allMarks = null;
  this.allMarks = this.sumColumns(n - 1);
};

// Requests in bins of consecutive requests, at most one per two pixels.
Timeline.prototype.layoutBins = function (plotW) {
  var run = this.run, n = run.requests;
  this.bins = Math.max(Math.min(n, Math.floor(plotW / 2)), 1);
  this.perBin = n / this.bins;
  this.allBins = this.sumBins(n - 1);
  var highest = Math.max(run.header.limit, 1);
  for (var b = 0; b < this.bins; ++b) highest = Math.max(highest, this.allBins.truth[b], this.allBins.counted[b]);
  this.countMax = niceStep(highest * 1.1);
};

Timeline.prototype.binOf = function (i) {
  return Math.min(Math.floor(i / this.perBin), this.bins - 1);
};

// Per column, over requests 0..last: how many of each mark. A column wholly before `last` is
// taken whole and one wholly after is skipped, so a seek costs the columns and the requests of
// the column it falls in, not the requests before it.
Timeline.prototype.sumColumns = function (last) {
  var C = this.columns, run = this.run, all = this.allMarks, marks = new Int32Array(C * 4);
  for (var c = 0; c < C; ++c) {
    var first = this.firstIn[c];
    if (first < 0 || first > last) continue;
    if (all && this.lastIn[c] <= last) {
      for (var m = 0; m < 4; ++m) marks[c * 4 + m] = all[c * 4 + m];
      continue;
    }
    var end = Math.min(this.lastIn[c], last);
    for (var i = first; i <= end; ++i) {
      if (this.column[i] === c) marks[c * 4 + markOf(run.flags[i])]++;
    }
  }
  return marks;
};

// Per bin, over requests 0..last: the highest true count and count returned (-1: none), and
// whether one was admitted beyond the limit. Bins before the cursor's are the whole run's.
Timeline.prototype.sumBins = function (last) {
  var B = this.bins, run = this.run, all = this.allBins;
  var sums = { truth: new Int32Array(B).fill(-1), counted: new Int32Array(B).fill(-1), beyond: new Uint8Array(B) };
  if (last < 0) return sums;
  var cursorBin = this.binOf(last), from = 0;
  if (all) {
    sums.truth.set(all.truth.subarray(0, cursorBin));
    sums.counted.set(all.counted.subarray(0, cursorBin));
    sums.beyond.set(all.beyond.subarray(0, cursorBin));
    from = Math.ceil(cursorBin * this.perBin);
    while (from > 0 && this.binOf(from - 1) === cursorBin) --from;
  }
  for (var i = from; i <= last; ++i) {
    var b = this.binOf(i), f = run.flags[i];
    if (run.truth[i] > sums.truth[b]) sums.truth[b] = run.truth[i];
    if (run.count[i] > sums.counted[b]) sums.counted[b] = run.count[i];
    if (f & FLAG_BEYOND && !(f & FLAG_FAILED)) sums.beyond[b] = 1;
  }
  return sums;
};

Timeline.prototype.xOf = function (column) {
  return this.originPx + (column + 0.5) * this.columnPx;
};

Timeline.prototype.xOfBin = function (bin) {
  var b = this.box;
  return b.left + ((bin + 0.5) / this.bins) * (b.right - b.left);
};

// The request a click at (x, y) points at: in the time plot the last of its column, in the counts
// plot the last of its bin (-1: none there).
Timeline.prototype.requestAt = function (x, y) {
  if (!this.box) return -1;
  if (y > this.box.upperBottom + 20) {
    var bin = Math.floor(((x - this.box.left) / (this.box.right - this.box.left)) * this.bins);
    if (bin < 0 || bin >= this.bins) return -1;
    return Math.min(Math.ceil((bin + 1) * this.perBin) - 1, this.run.requests - 1);
  }
  var c = Math.floor((x - this.originPx) / this.columnPx);
  return c < 0 || c >= this.columns ? -1 : this.lastIn[c];
};

Timeline.prototype.draw = function (cursor) {
  if (!this.box && !this.layout()) return;
  var g = this.canvas.getContext("2d");
  g.setTransform(this.ratio, 0, 0, this.ratio, 0, 0);
  g.fillStyle = COLOURS.paper;
  g.fillRect(0, 0, this.canvas.width, this.canvas.height);
  g.font = "12px system-ui, sans-serif";
  this.drawTimeAxis(g);
  this.drawCountAxis(g);
  if (this.markers) this.drawMarkers(g, cursor);
  else this.drawBars(g, this.sumColumns(cursor));
  this.drawCounts(g, this.sumBins(cursor));
  this.drawCursor(g, cursor);
};

// Ticks along a plot's bottom, labelled below it, and the axis's title under them at the right.
Timeline.prototype.ticks = function (g, y, top, positions, title) {
  var width = this.canvas.width / this.ratio;
  g.strokeStyle = COLOURS.grid;
  g.lineWidth = 1;
  g.fillStyle = COLOURS.subtle;
  g.textAlign = "center";
  g.textBaseline = "top";
  positions.forEach(function (p) {
    g.beginPath();
    g.moveTo(p.x + 0.5, top);
    g.lineTo(p.x + 0.5, y);
    g.stroke();
    var half = g.measureText(p.label).width / 2;
    g.fillText(p.label, Math.min(Math.max(p.x, half + 1), width - half - 1), y + 3);
  });
  g.textAlign = "right";
  g.fillText(title, this.box.right, y + 17);
  g.strokeStyle = COLOURS.ink;
  g.beginPath();
  g.moveTo(this.box.left, y + 0.5);
  g.lineTo(this.box.right, y + 0.5);
  g.stroke();
};

Timeline.prototype.drawTimeAxis = function (g) {
  var b = this.box, span = this.columns * this.width, positions = [];
  var step = Math.max(niceStep(span / Math.max((b.right - b.left) / 90, 1)), this.width);
  for (var ms = 0; ms <= span + 1e-9; ms += step)
    positions.push({ x: this.originPx + (ms / this.width) * this.columnPx, label: num(Math.round(ms * 1000) / 1000) });
  this.ticks(g, b.upperBottom, b.top, positions, t("axis_ms"));
  g.textAlign = "right";
  g.textBaseline = "middle";
  g.fillText(num(this.tallest), b.left - 5, b.top + 6);
  this.sideTitle(g, t("axis_requests"), (b.top + b.upperBottom) / 2);
};

Timeline.prototype.drawCountAxis = function (g) {
  var b = this.box, n = this.run.requests, positions = [];
  var step = Math.max(niceStep(n / Math.max((b.right - b.left) / 90, 1)), 1);
  for (var r = step; r <= n; r += step) positions.push({ x: this.xOfBin(this.binOf(r - 1)), label: num(r) });
  if (positions.length === 0 || step > 1) positions.unshift({ x: this.xOfBin(0), label: "1" });
  this.ticks(g, b.bottom, b.lowerTop, positions, t("axis_request"));
  g.textAlign = "right";
  g.textBaseline = "middle";
  g.fillText(num(this.countMax), b.left - 5, b.lowerTop + 6);
  g.fillText("0", b.left - 5, b.bottom - 4);
  this.sideTitle(g, t("axis_count"), (b.lowerTop + b.bottom) / 2);
};

// An axis title along the left edge, read bottom to top.
Timeline.prototype.sideTitle = function (g, text, y) {
  g.save();
  g.translate(9, y);
  g.rotate(-Math.PI / 2);
  g.textAlign = "center";
  g.textBaseline = "middle";
  g.fillText(text, 0, 0);
  g.restore();
};

Timeline.prototype.drawMark = function (g, mark, x, y, size) {
  var r = size / 2 - 0.5;
  g.lineWidth = size >= 9 ? 2 : 1.5;
  g.beginPath();
  if (mark === MARK_STORED) {
    g.fillStyle = COLOURS.blue;
    g.strokeStyle = COLOURS.ink;
    g.lineWidth = 1;
    g.rect(x - r, y - r, 2 * r, 2 * r);
    g.fill();
    g.stroke();
  } else if (mark === MARK_OVERWRITTEN) {
    g.strokeStyle = COLOURS.vermillion;
    g.moveTo(x, y - r);
    g.lineTo(x + r, y);
    g.lineTo(x, y + r);
    g.lineTo(x - r, y);
    g.closePath();
    g.stroke();
  } else if (mark === MARK_FAILED) {
    g.strokeStyle = COLOURS.grey;
    g.moveTo(x - r, y - r);
    g.lineTo(x + r, y + r);
    g.moveTo(x + r, y - r);
    g.lineTo(x - r, y + r);
    g.stroke();
  } else {
    g.strokeStyle = COLOURS.grey;
    g.arc(x, y, r, 0, 2 * Math.PI);
    g.stroke();
  }
};

Timeline.prototype.markCentre = function (i) {
  var size = this.markPx;
  return { x: this.xOf(this.column[i]), y: this.box.upperBottom - (this.stack[i] + 0.5) * size, size: size };
};

Timeline.prototype.drawMarkers = function (g, cursor) {
  var run = this.run;
  for (var i = 0; i < run.requests; ++i) {
    var at = this.markCentre(i);
    g.globalAlpha = i <= cursor ? 1 : DIMMED;
    this.drawMark(g, markOf(run.flags[i]), at.x, at.y, at.size);
  }
  g.globalAlpha = 1;
};

Timeline.prototype.hatchPattern = function (g) {
  if (!this.hatch) {
    var tile = document.createElement("canvas");
    tile.width = tile.height = 8;
    var p = tile.getContext("2d");
    p.fillStyle = COLOURS.vermillion;
    p.fillRect(0, 0, 8, 8);
    p.strokeStyle = COLOURS.paper;
    p.lineWidth = 2;
    p.beginPath();
    p.moveTo(-2, 10);
    p.lineTo(10, -2);
    p.stroke();
    this.hatch = g.createPattern(tile, "repeat");
  }
  return this.hatch;
};

Timeline.prototype.drawBars = function (g, shown) {
  var b = this.box, scale = (b.upperBottom - b.top) / Math.max(this.tallest, 1);
  var fills = [COLOURS.blue, this.hatchPattern(g), COLOURS.grey, "#b0b0b0"];
  var barW = Math.max(this.columnPx - 1, 1);
  for (var c = 0; c < this.columns; ++c) {
    var x = this.originPx + c * this.columnPx, y = b.upperBottom;
    for (var pass = 0; pass < 2; ++pass) {
      g.globalAlpha = pass === 0 ? 1 : DIMMED;
      for (var m = 0; m < 4; ++m) {
        var count = pass === 0 ? shown[c * 4 + m] : this.allMarks[c * 4 + m] - shown[c * 4 + m];
        if (count <= 0) continue;
        var h = count * scale;
        g.fillStyle = fills[m];
        g.fillRect(x, y - h, barW, h);
        y -= h;
      }
    }
  }
  g.globalAlpha = 1;
};

Timeline.prototype.countY = function (count) {
  var b = this.box;
  return b.bottom - (count / this.countMax) * (b.bottom - b.lowerTop);
};

// One series of the counts plot: a line, and a dot at each request while there are few.
Timeline.prototype.drawLine = function (g, values, colour, dash, alpha) {
  g.globalAlpha = alpha;
  g.strokeStyle = g.fillStyle = colour;
  g.lineWidth = 2.5;
  g.setLineDash(dash);
  g.beginPath();
  var started = false, dots = this.bins <= 60;
  for (var b = 0; b < this.bins; ++b) {
    if (values[b] < 0) continue;
    var x = this.xOfBin(b), y = this.countY(values[b]);
    if (started) g.lineTo(x, y);
    else g.moveTo(x, y);
    started = true;
  }
  g.stroke();
  g.setLineDash([]);
  if (dots) {
    for (var d = 0; d < this.bins; ++d) {
      if (values[d] < 0) continue;
      g.beginPath();
      if (dash.length) g.rect(this.xOfBin(d) - 3, this.countY(values[d]) - 3, 6, 6); // counted: squares
      else g.arc(this.xOfBin(d), this.countY(values[d]), 3.5, 0, 2 * Math.PI); // truth: dots
      g.fill();
    }
  }
  g.globalAlpha = 1;
};

Timeline.prototype.drawCounts = function (g, shown) {
  var b = this.box, limit = this.run.header.limit;
  if (limit > 0) {
    g.strokeStyle = COLOURS.ink;
    g.lineWidth = 1.5;
    g.setLineDash([2, 4]);
    g.beginPath();
    g.moveTo(b.left, this.countY(limit));
    g.lineTo(b.right, this.countY(limit));
    g.stroke();
    g.setLineDash([]);
  }
  this.drawLine(g, this.allBins.truth, COLOURS.green, [], DIMMED);
  this.drawLine(g, this.allBins.counted, COLOURS.blue, [7, 4], DIMMED);
  this.drawLine(g, shown.truth, COLOURS.green, [], 1);
  this.drawLine(g, shown.counted, COLOURS.blue, [7, 4], 1);
  g.fillStyle = COLOURS.purple;
  g.strokeStyle = COLOURS.ink;
  g.lineWidth = 1;
  var y = this.countY(Math.max(limit, 0));
  for (var bin = 0; bin < this.bins; ++bin) {
    if (!shown.beyond[bin]) continue;
    var x = this.xOfBin(bin);
    g.beginPath();
    g.moveTo(x - 5, y - 10);
    g.lineTo(x + 5, y - 10);
    g.lineTo(x, y - 1);
    g.closePath();
    g.fill();
    g.stroke();
  }
};

Timeline.prototype.drawCursor = function (g, cursor) {
  if (cursor < 0 || cursor >= this.run.requests) return;
  var b = this.box, x = this.xOf(this.column[cursor]), xBin = this.xOfBin(this.binOf(cursor));
  g.strokeStyle = COLOURS.ink;
  g.lineWidth = 2;
  g.beginPath();
  g.moveTo(x, b.top);
  g.lineTo(x, b.upperBottom);
  g.moveTo(xBin, b.lowerTop);
  g.lineTo(xBin, b.bottom);
  g.stroke();
  if (!this.markers) return;
  var at = this.markCentre(cursor), r = at.size / 2 + 3;
  g.lineWidth = 3;
  g.strokeStyle = COLOURS.orange;
  g.beginPath();
  g.arc(at.x, at.y, r, 0, 2 * Math.PI);
  g.stroke();
  g.lineWidth = 1;
  g.strokeStyle = COLOURS.ink;
  g.beginPath();
  g.arc(at.x, at.y, r + 2, 0, 2 * Math.PI);
  g.stroke();
};
