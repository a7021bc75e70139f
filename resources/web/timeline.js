// The timeline of one run, drawn on a canvas as the window draws it: x is the millisecond of each
// request's `now`; above, each column stacks its requests (a filled square for one that stored a
// member, a hollow diamond for one that only overwrote, a cross for a failure, a circle when the
// reply did not say), or bars when they are too many to tell apart; below, the true count in the
// window beside the count the script returned, and the limit. What comes after the cursor is dimmed.

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
  this.cursor = run.requests - 1;
  this.hatch = null;
}

Timeline.prototype.msOf = function (i) {
  return this.run.now[i] / this.run.header.units_per_ms;
};

// Columns and their requests for the canvas's size; false while it has none (hidden).
Timeline.prototype.layout = function () {
  var w = this.canvas.clientWidth, h = this.canvas.clientHeight;
  if (w < 50 || h < 50) return false;
  var ratio = window.devicePixelRatio || 1;
  this.canvas.width = Math.round(w * ratio);
  this.canvas.height = Math.round(h * ratio);
  this.ratio = ratio;
  var left = 68, right = w - 14, top = 8, bottom = h - 30;
  var upperBottom = top + Math.round((bottom - top) * 0.56);
  this.box = { left: left, right: right, top: top, upperBottom: upperBottom, lowerTop: upperBottom + 14, bottom: bottom };
  var run = this.run, n = run.requests, plotW = right - left;
  var span = Math.max(this.range.max - this.range.min, 0);
  var width = 1 / run.header.units_per_ms; // one unit of the clock, in ms
  while ((span / width + 1) * 2 > plotW) width = niceStep(width * 1.5);
  var columns = Math.floor(span / width) + 1;
  this.width = width;
  this.columns = columns;
  this.columnPx = Math.min(plotW / columns, 40);
  this.originPx = left + (plotW - this.columnPx * columns) / 2;
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
  var upperH = upperBottom - top;
  this.markPx = Math.min(14, this.columnPx - 2, upperH / Math.max(tallest, 1));
  this.markers = this.markPx >= 5;
  this.all = null;
  this.all = this.sumColumns(n - 1);
  var counts = this.all, highest = Math.max(run.header.limit, 1);
  for (var col = 0; col < columns; ++col) highest = Math.max(highest, counts.truth[col], counts.counted[col]);
  this.countMax = niceStep(highest * 1.1);
  return true;
};

// Per column, over requests 0..last: how many of each mark, the highest true count and count
// returned, and whether one was admitted beyond the limit. A column wholly before `last` is
// taken whole and one wholly after is skipped, so a seek costs the columns and the requests of
// the column it falls in, not the requests before it.
Timeline.prototype.sumColumns = function (last) {
  var C = this.columns, run = this.run, all = this.all;
  var sums = {
    marks: new Int32Array(C * 4),
    truth: new Int32Array(C).fill(-1),
    counted: new Int32Array(C).fill(-1),
    beyond: new Uint8Array(C),
  };
  for (var c = 0; c < C; ++c) {
    var first = this.firstIn[c];
    if (first < 0 || first > last) continue;
    if (all && this.lastIn[c] <= last) {
      for (var m = 0; m < 4; ++m) sums.marks[c * 4 + m] = all.marks[c * 4 + m];
      sums.truth[c] = all.truth[c];
      sums.counted[c] = all.counted[c];
      sums.beyond[c] = all.beyond[c];
      continue;
    }
    var end = Math.min(this.lastIn[c], last);
    for (var i = first; i <= end; ++i) {
      if (this.column[i] !== c) continue;
      var f = run.flags[i];
      sums.marks[c * 4 + markOf(f)]++;
      if (run.truth[i] > sums.truth[c]) sums.truth[c] = run.truth[i];
      if (run.count[i] > sums.counted[c]) sums.counted[c] = run.count[i];
      if (f & FLAG_BEYOND && !(f & FLAG_FAILED)) sums.beyond[c] = 1;
    }
  }
  return sums;
};

Timeline.prototype.xOf = function (column) {
  return this.originPx + (column + 0.5) * this.columnPx;
};

// The request a click at x points at: the last of its column (-1: none there).
Timeline.prototype.requestAt = function (x) {
  var c = Math.floor((x - this.originPx) / this.columnPx);
  if (!(this.columns > 0) || c < 0 || c >= this.columns) return -1;
  return this.lastIn[c];
};

Timeline.prototype.draw = function (cursor) {
  if (!this.box && !this.layout()) return;
  this.cursor = cursor;
  var g = this.canvas.getContext("2d");
  g.setTransform(this.ratio, 0, 0, this.ratio, 0, 0);
  g.fillStyle = COLOURS.paper;
  g.fillRect(0, 0, this.canvas.width, this.canvas.height);
  var shown = this.sumColumns(cursor);
  this.drawAxes(g);
  if (this.markers) this.drawMarkers(g, cursor);
  else this.drawBars(g, shown);
  this.drawCounts(g, shown);
  this.drawCursor(g, cursor);
};

Timeline.prototype.drawAxes = function (g) {
  var b = this.box, width = this.canvas.width / this.ratio;
  g.strokeStyle = COLOURS.grid;
  g.lineWidth = 1;
  g.font = "12px system-ui, sans-serif";
  g.fillStyle = COLOURS.subtle;
  g.textAlign = "center";
  g.textBaseline = "top";
  var span = this.columns * this.width;
  var step = Math.max(niceStep(span / Math.max((b.right - b.left) / 90, 1)), this.width);
  for (var ms = 0; ms <= span + 1e-9; ms += step) {
    var x = this.originPx + (ms / this.width) * this.columnPx;
    g.beginPath();
    g.moveTo(x + 0.5, b.top);
    g.lineTo(x + 0.5, b.bottom);
    g.stroke();
    var label = num(Math.round(ms * 1000) / 1000), half = g.measureText(label).width / 2;
    g.fillText(label, Math.min(Math.max(x, half + 1), width - half - 1), b.bottom + 3);
  }
  g.textAlign = "right";
  g.fillText(t("axis_ms"), b.right, b.bottom + 15);
  g.textBaseline = "middle";
  g.fillText(num(this.tallest), b.left - 5, b.top + 6);
  g.fillText(num(this.countMax), b.left - 5, b.lowerTop + 6);
  g.fillText("0", b.left - 5, b.bottom - 4);
  this.sideTitle(g, t("axis_requests"), (b.top + b.upperBottom) / 2);
  this.sideTitle(g, t("axis_count"), (b.lowerTop + b.bottom) / 2);
  g.strokeStyle = COLOURS.ink;
  g.beginPath();
  g.moveTo(b.left, b.upperBottom + 0.5);
  g.lineTo(b.right, b.upperBottom + 0.5);
  g.moveTo(b.left, b.bottom + 0.5);
  g.lineTo(b.right, b.bottom + 0.5);
  g.stroke();
};

// An axis title along the left edge, read bottom to top.
Timeline.prototype.sideTitle = function (g, text, y) {
  g.save();
  g.translate(9, y);
  g.rotate(-Math.PI / 2);
  g.textAlign = "center";
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
  var b = this.box, height = b.upperBottom - b.top, scale = height / Math.max(this.tallest, 1);
  var fills = [COLOURS.blue, this.hatchPattern(g), COLOURS.grey, "#b0b0b0"];
  var barW = Math.max(this.columnPx - 1, 1);
  for (var c = 0; c < this.columns; ++c) {
    var x = this.originPx + c * this.columnPx, y = b.upperBottom;
    for (var pass = 0; pass < 2; ++pass) {
      g.globalAlpha = pass === 0 ? 1 : DIMMED;
      for (var m = 0; m < 4; ++m) {
        var count = pass === 0 ? shown.marks[c * 4 + m] : this.all.marks[c * 4 + m] - shown.marks[c * 4 + m];
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

Timeline.prototype.drawLine = function (g, values, colour, dash, alpha) {
  g.globalAlpha = alpha;
  g.strokeStyle = colour;
  g.lineWidth = 2.5;
  g.setLineDash(dash);
  g.beginPath();
  var started = false;
  for (var c = 0; c < this.columns; ++c) {
    if (values[c] < 0) continue;
    var x = this.xOf(c), y = this.countY(values[c]);
    if (started) g.lineTo(x, y);
    else g.moveTo(x, y);
    started = true;
  }
  g.stroke();
  g.setLineDash([]);
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
  this.drawLine(g, this.all.truth, COLOURS.green, [], DIMMED);
  this.drawLine(g, this.all.counted, COLOURS.blue, [7, 4], DIMMED);
  this.drawLine(g, shown.truth, COLOURS.green, [], 1);
  this.drawLine(g, shown.counted, COLOURS.blue, [7, 4], 1);
  g.fillStyle = COLOURS.purple;
  g.strokeStyle = COLOURS.ink;
  g.lineWidth = 1;
  for (var c = 0; c < this.columns; ++c) {
    if (!shown.beyond[c]) continue;
    var x = this.xOf(c), y = b.lowerTop - 1;
    g.beginPath();
    g.moveTo(x - 5, y - 9);
    g.lineTo(x + 5, y - 9);
    g.lineTo(x, y);
    g.closePath();
    g.fill();
    g.stroke();
  }
};

Timeline.prototype.drawCursor = function (g, cursor) {
  if (cursor < 0 || cursor >= this.run.requests) return;
  var b = this.box, x = this.xOf(this.column[cursor]);
  g.strokeStyle = COLOURS.ink;
  g.lineWidth = 2;
  g.beginPath();
  g.moveTo(x, b.top);
  g.lineTo(x, b.bottom);
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
