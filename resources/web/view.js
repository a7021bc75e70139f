// The page: one cursor over the runs (request n of each side at once), the transport, the keys,
// each side's figures, caption, timeline and ZSET table, the language, and window.zsetlab for
// tests and pages that embed this one: seek(n) and state(), with `zsetlab-cli replay --at n --json`'s values.

var SPEEDS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000, 100000];
var TABLE_ROWS = 200;

var page = null;
var sides = [];
var position = 0; // 0-based, over the longest side
var last = 0;
var playing = null; // {from, started, speed} while playing
var frame = 0;

function byId(id) {
  return document.getElementById(id);
}

function element(tag, className, text) {
  var e = document.createElement(tag);
  if (className) e.className = className;
  if (text !== undefined) e.textContent = text;
  return e;
}

function runName(run) {
  var h = run.header;
  if (h.title) return h.title;
  var known = { now: "name_now", "request-id": "name_request_id", random: "name_random", sequence: "name_sequence", microseconds: "name_microseconds" };
  if (h.builtin && known[h.strategy]) return t(known[h.strategy]);
  return t(h.builtin ? "name_other" : "name_script", { name: h.strategy });
}

function pageTitle() {
  if (page.title) return page.title;
  var names = sides.map(function (side) { return runName(side.run); });
  return t("page_title", { title: names.length > 1 ? t("compare_title", { left: names[0], right: names[1] }) : names[0] });
}

// ---- building the page ------------------------------------------------------------------------

function buildSide(run, index, range) {
  var section = byId("side-template").content.firstElementChild.cloneNode(true);
  section.id = "side-" + index;
  var title = section.querySelector(".side-title");
  title.id = "side-title-" + index;
  section.setAttribute("aria-labelledby", title.id);
  byId("sides").appendChild(section);
  var side = {
    run: run,
    index: index,
    section: section,
    figures: section.querySelector(".figures"),
    caption: section.querySelector(".caption"),
    canvas: section.querySelector("canvas"),
    legend: section.querySelector(".legend"),
    region: section.querySelector(".zset"),
    table: section.querySelector("table"),
    note: section.querySelector(".zset-note"),
  };
  side.caption.id = "caption-" + index;
  side.timeline = new Timeline(side.canvas, run, range);
  side.canvas.addEventListener("click", function (event) {
    var rect = side.canvas.getBoundingClientRect();
    var request = side.timeline.requestAt(event.clientX - rect.left, event.clientY - rect.top);
    if (request >= 0) seekTo(request);
  });
  return side;
}

// Where each side's time axis starts and how long it is. Sides that share timestamps (compare
// mode fires the same ones at both limiters; a what-if goes on from a request of the run) share
// one axis; runs recorded apart start each at its own first request, over the longest span.
function timeRanges(runs) {
  var spans = runs.map(function (run) {
    var upm = run.header.units_per_ms, min = Infinity, max = -Infinity;
    for (var i = 0; i < run.requests; ++i) {
      var ms = run.now[i] / upm;
      if (ms < min) min = ms;
      if (ms > max) max = ms;
    }
    return { min: min, max: max };
  });
  var shared = spans.every(function (s) { return s.min <= spans[0].max && spans[0].min <= s.max; });
  var low = Math.min.apply(null, spans.map(function (s) { return s.min; }));
  var high = Math.max.apply(null, spans.map(function (s) { return s.max; }));
  var longest = Math.max.apply(null, spans.map(function (s) { return s.max - s.min; }));
  return spans.map(function (s) {
    return shared ? { min: low, max: high } : { min: s.min, max: s.min + longest };
  });
}

function fillSpeeds() {
  var select = byId("speed"), chosen = select.value ? Number(select.value) : 0;
  if (!chosen) {
    var wanted = Math.max(1, (last + 1) / 20); // about 20 s for the whole run
    chosen = SPEEDS[0];
    SPEEDS.forEach(function (s) { if (s <= wanted) chosen = s; });
  }
  select.textContent = "";
  SPEEDS.forEach(function (s) {
    var option = element("option", "", t(s === 1 ? "speed_option" : "speed_options", { n: num(s) }));
    option.value = String(s);
    option.selected = s === chosen;
    select.appendChild(option);
  });
}

// Every text of the page, in the language now chosen.
function applyLanguage() {
  document.documentElement.lang = language;
  var button = byId("language");
  button.textContent = t("language_button");
  button.lang = language === "en" ? "vi" : "en";
  button.setAttribute("aria-label", t("language_name"));
  document.querySelectorAll("[data-t]").forEach(function (e) { e.textContent = t(e.dataset.t); });
  document.querySelectorAll("[data-title]").forEach(function (e) { e.title = t(e.dataset.title); });
  if (!page) return;
  document.title = pageTitle();
  byId("page-title").textContent = pageTitle();
  byId("page-subtitle").textContent = t(sides.length > 1 ? "subtitle_two" : "subtitle_one");
  var meanings = byId("meanings");
  meanings.textContent = "";
  ["sent", "stored", "overwritten", "lost", "beyond"].forEach(function (key) {
    meanings.appendChild(element("dt", "", t(key)));
    meanings.appendChild(element("dd", "", t(key + "_meaning")));
  });
  sides.forEach(function (side) {
    var h = side.run.header, limit = h.limit > 0 ? num(h.limit) : h.limit === 0 ? t("no_limit") : t("unknown");
    side.section.querySelector(".side-title").textContent = runName(side.run);
    side.section.querySelector(".side-subtitle").textContent = t(h.users > 1 ? "side_facts_users" : "side_facts", {
      requests: num(side.run.requests), users: num(h.users), limit: limit,
      window: num(h.window / h.units_per_ms), server: h.server,
    });
    side.region.setAttribute("aria-label", t("zset_region") + " (" + runName(side.run) + ")");
    fillLegend(side);
  });
  fillSpeeds();
  byId("footer").textContent = t("footer", { made_by: page.made_by, date: page.exported.slice(0, 10) });
  render();
}

function fillLegend(side) {
  side.legend.textContent = "";
  ["stored", "overwritten", "failed", "unknown", "truth", "counted", "limit", "beyond"].forEach(function (key) {
    var item = element("li");
    item.appendChild(element("span", "mark " + key)).setAttribute("aria-hidden", "true");
    item.appendChild(element("span", "", t("legend_" + key)));
    side.legend.appendChild(item);
  });
}

// ---- what a side shows at the cursor ---------------------------------------------------------

function sideRequest(side) {
  return Math.min(position, side.run.requests - 1);
}

function renderFigures(side, i) {
  var f = side.run.figuresAt(i), h = side.run.header;
  var items = [["sent", num(f.sent)], ["stored", num(f.stored)], ["overwritten", num(f.overwritten), f.overwritten > 0],
    ["lost", f.lost === null ? t("unknown") : t("lost_percent", { n: num(f.lost), p: num(Math.round((1000 * f.lost) / f.sent) / 10) }), f.lost > 0],
    ["beyond", h.limit > 0 ? num(f.beyond) : h.limit === 0 ? t("no_limit") : t("unknown"), f.beyond > 0]];
  if (f.errors > 0) items.push(["errors", num(f.errors), true]);
  side.figures.textContent = "";
  items.forEach(function (item) {
    var group = element("div", item[2] ? "bad" : "");
    group.appendChild(element("dt", "", t(item[0])));
    group.appendChild(element("dd", "", item[1]));
    side.figures.appendChild(group);
  });
}

function renderCaption(side, i) {
  var run = side.run, s = run.stateAt(i, false), request = t("cap_request", { n: num(i + 1) });
  var parts = [];
  if (position > run.requests - 1) parts.push(t("side_ended", { requests: num(run.requests) }));
  if (run.flags[i] & FLAG_FAILED) {
    parts.push(t("cap_failed", { request: request, error: s.error !== null ? s.error : t("unknown") }));
  } else {
    if (run.header.state_from === "counts-only") parts.push(t("cap_counts_only", { request: request }));
    else if (s.added === 1) parts.push(t("cap_added", { request: request, member: s.member }));
    else if (s.added === 0) parts.push(t("cap_overwrote", { request: request, member: s.member, writes: num(run.writes[i]) }));
    else parts.push(t("cap_not_said", { request: request }));
    parts.push(s.count_returned !== null ? t("cap_count", { count: num(s.count_returned), truth: num(s.true_count) })
                                         : t("cap_count_only", { truth: num(s.true_count) }));
    if (run.flags[i] & FLAG_BEYOND) parts.push(t("cap_beyond", { limit: num(run.header.limit) }));
    else parts.push(t(s.admitted ? "cap_admitted" : "cap_refused"));
  }
  side.caption.textContent = parts.join(" ");
}

function renderTable(side, i) {
  var run = side.run, body = side.table.tBodies[0], caption = side.table.caption;
  body.textContent = "";
  side.note.textContent = "";
  var user = run.userOf(i), key = run.header.keys[user];
  if (run.header.state_from === "counts-only") {
    caption.textContent = key;
    side.note.textContent = t("table_counts_only");
    return;
  }
  var rows = run.zsetAfter(i);
  caption.textContent = t(rows.length === 1 ? "table_caption_one" : "table_caption", { key: key, n: num(i + 1), count: num(rows.length) });
  if (rows.length === 0) {
    side.note.textContent = t("table_empty");
    return;
  }
  var current = rows.indexOf(i);
  var from = 0;
  if (rows.length > TABLE_ROWS) {
    from = Math.min(Math.max((current < 0 ? rows.length - 1 : current) - TABLE_ROWS / 2, 0), rows.length - TABLE_ROWS);
    side.note.textContent = t("table_some", { from: num(from + 1), to: num(from + TABLE_ROWS), total: num(rows.length) });
  }
  var to = Math.min(rows.length, from + TABLE_ROWS);
  for (var k = from; k < to; ++k) {
    var json = run.rowJson(rows[k]), tr = element("tr", k === current ? "current" : "");
    if (k === current) tr.setAttribute("aria-current", "true");
    tr.appendChild(element("td", "", num(k + 1)));
    tr.appendChild(element("td", "member", json.member));
    tr.appendChild(element("td", "", String(json.score)));
    tr.appendChild(element("td", "", num(json.writes)));
    tr.appendChild(element("td", "", k === current ? t("just_written") : json.request === 0 ? t("seeded") : ""));
    body.appendChild(tr);
  }
  // The row just written in sight, inside the table's own scrolling (the page stays where it is).
  var written = body.querySelector("tr.current");
  if (written) side.region.scrollTop = Math.max(written.offsetTop - side.region.clientHeight / 2, 0);
}

function render() {
  if (!page) return;
  byId("scrubber").value = String(position + 1);
  var text = t("position", { n: num(position + 1), total: num(last + 1) });
  byId("position").textContent = text;
  byId("scrubber").setAttribute("aria-valuetext", text);
  var play = byId("play");
  play.textContent = t(playing ? "pause" : "play");
  play.title = t(playing ? "pause_hint" : "play_hint");
  play.setAttribute("aria-pressed", playing ? "true" : "false");
  sides.forEach(function (side) {
    var i = sideRequest(side);
    renderFigures(side, i);
    renderCaption(side, i);
    renderTable(side, i);
    side.timeline.draw(i);
    var f = side.run.figuresAt(i);
    side.canvas.setAttribute("aria-label", t("timeline_label", {
      title: runName(side.run), stored: num(f.stored), overwritten: num(f.overwritten), n: num(i + 1),
    }));
    // Read out when stepping; while playing a reader would hear a queue of stale captions.
    side.caption.setAttribute("aria-live", playing ? "off" : "polite");
  });
}

// ---- moving the cursor ----------------------------------------------------------------------

function seekTo(i) {
  position = Math.min(Math.max(Math.round(i), 0), last);
  if (playing) pause();
  render();
}

function tick(now) {
  if (!playing) return;
  var target = playing.from + Math.floor(((now - playing.started) / 1000) * playing.speed);
  if (target >= last) {
    position = last;
    playing = null;
  } else {
    position = target;
  }
  render();
  if (playing) frame = requestAnimationFrame(tick);
}

function play() {
  if (playing) return;
  if (position >= last) position = 0; // from the start when at the end
  playing = { from: position, started: performance.now(), speed: Number(byId("speed").value) };
  render();
  frame = requestAnimationFrame(tick);
}

function pause() {
  if (!playing) return;
  playing = null;
  cancelAnimationFrame(frame);
  render();
}

function togglePlaying() {
  if (playing) pause();
  else play();
}

function onKey(event) {
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  var target = event.target, tag = target.tagName;
  if (tag === "SELECT" || (tag === "INPUT" && event.key !== " ")) return; // their own keys
  if ((tag === "BUTTON" || tag === "SUMMARY") && (event.key === " " || event.key === "Enter")) return; // presses it
  var moves = { ArrowLeft: -1, ArrowRight: 1 };
  if (event.key === " ") togglePlaying();
  else if (event.key in moves) seekTo(position + moves[event.key]);
  else if (event.key === "Home") seekTo(0);
  else if (event.key === "End") seekTo(last);
  else return;
  event.preventDefault();
}

function wireControls() {
  byId("to-start").addEventListener("click", function () { seekTo(0); });
  byId("step-back").addEventListener("click", function () { seekTo(position - 1); });
  byId("play").addEventListener("click", togglePlaying);
  byId("step-forward").addEventListener("click", function () { seekTo(position + 1); });
  byId("to-end").addEventListener("click", function () { seekTo(last); });
  byId("scrubber").addEventListener("input", function (event) { seekTo(Number(event.target.value) - 1); });
  byId("speed").addEventListener("change", function () {
    if (playing) {
      pause();
      play();
    }
  });
  byId("language").addEventListener("click", function () {
    language = language === "en" ? "vi" : "en";
    applyLanguage();
  });
  document.addEventListener("keydown", onKey);
  if (typeof ResizeObserver !== "undefined") {
    var observer = new ResizeObserver(function () {
      sides.forEach(function (side) { side.timeline.box = null; });
      render();
    });
    sides.forEach(function (side) { observer.observe(side.canvas); });
  }
}

// ---- starting -------------------------------------------------------------------------------

function start(data) {
  page = data;
  var ranges = timeRanges(page.runs);
  sides = page.runs.map(function (run, index) { return buildSide(run, index, ranges[index]); });
  last = Math.max.apply(null, page.runs.map(function (run) { return run.requests; })) - 1;
  // Opened at the state the run ended with, as the window opens a replay, or at the request a
  // link names: page.html#request=3.
  var named = /^#request=(\d+)$/.exec(window.location.hash);
  position = named ? Math.min(Math.max(Number(named[1]) - 1, 0), last) : last;
  var scrubber = byId("scrubber");
  scrubber.max = String(last + 1);
  byId("main").hidden = false;
  byId("notice").textContent = "";
  wireControls();
  applyLanguage();
}

function fail(error) {
  var why = error && error.message === "no-decompression" ? t("no_decompression") : t("bad_data", { why: error && error.message });
  byId("notice").textContent = why;
  document.documentElement.dataset.ready = "error";
  throw error;
}

function sideState(side, withMembers) {
  return side.run.stateAt(sideRequest(side), withMembers);
}

var resolveReady;
window.zsetlab = {
  ready: new Promise(function (resolve) { resolveReady = resolve; }),
  // Moves every side to request n (1-based, as --at n), clamped to the run; returns state().
  seek: function (n) {
    if (!page) return null;
    seekTo(Number(n) - 1);
    return window.zsetlab.state();
  },
  // The first side's state at the cursor, with `sides` (each side's) and `position`; members
  // listed with `withMembers`, as --members lists them.
  state: function (withMembers) {
    if (!page) return null;
    var all = sides.map(function (side) { return sideState(side, !!withMembers); });
    var first = Object.assign({}, all[0]);
    first.sides = all;
    first.position = position + 1;
    first.playing = !!playing;
    return first;
  },
  play: function () { play(); },
  pause: function () { pause(); },
};

(function boot() {
  var header = document.documentElement.lang === "vi" ? "vi" : "en";
  language = header;
  applyLanguage();
  byId("notice").textContent = t("loading");
  var text = byId("zsetlab-data").textContent.trim();
  unpack(text)
    .then(readPage)
    .then(function (data) {
      language = data.lang === "vi" ? "vi" : "en";
      start(data);
      performance.mark("zsetlab-ready");
      document.documentElement.dataset.ready = "yes";
      resolveReady(true);
    })
    .catch(fail);
})();
