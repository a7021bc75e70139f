// The runs the page plays: the data block unpacked and read into columns (the layout is written
// down in core/web/pagedata.h), and the state after any request, as `zsetlab-cli replay FILE
// --at n --json` prints it.

var FLAG_FAILED = 1, FLAG_ADDED_KNOWN = 2, FLAG_ADDED = 4, FLAG_ADMITTED = 16, FLAG_BEYOND = 32;
var KIND_TEXT = 0, KIND_NOW = 1, KIND_REQUEST_ID = 2, KIND_UNKNOWN = 3;
var ALIVE = 2147483647;
var BLOCK = 1024;

function Reader(bytes) {
  this.bytes = bytes;
  this.at = 0;
}
Reader.prototype.varint = function () {
  var value = 0, scale = 1, byte;
  do {
    if (this.at >= this.bytes.length) throw new Error("the data ends early");
    byte = this.bytes[this.at++];
    value += (byte & 127) * scale;
    scale *= 128;
  } while (byte & 128);
  return value;
};
Reader.prototype.signed = function () {
  var v = this.varint();
  return v % 2 ? -(v + 1) / 2 : v / 2;
};
Reader.prototype.block = function () {
  var length = this.varint();
  if (this.at + length > this.bytes.length) throw new Error("a column ends early");
  var part = this.bytes.subarray(this.at, this.at + length);
  this.at += length;
  return new Reader(part);
};
Reader.prototype.done = function () {
  return this.at === this.bytes.length;
};

function deltaColumn(reader, n, Type) {
  var out = new Type(n), value = 0;
  for (var i = 0; i < n; ++i) {
    value += reader.signed();
    out[i] = value;
  }
  return out;
}

var utf8 = new TextDecoder("utf-8");
var asciiBytes = new TextEncoder();

function base64Bytes(text) {
  var binary = atob(text), out = new Uint8Array(binary.length);
  for (var i = 0; i < binary.length; ++i) out[i] = binary.charCodeAt(i);
  return out;
}

// The data block's bytes, unpacked by the browser ("deflate" is the zlib stream qCompress writes).
function unpack(text) {
  if (typeof DecompressionStream === "undefined") return Promise.reject(new Error("no-decompression"));
  var stream = new Blob([base64Bytes(text)]).stream().pipeThrough(new DecompressionStream("deflate"));
  return new Response(stream).arrayBuffer().then(function (buffer) {
    return new Uint8Array(buffer);
  });
}

function compareBytes(a, b) {
  var n = Math.min(a.length, b.length);
  for (var i = 0; i < n; ++i) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}

// One recorded run: its header and columns, the sums over its requests and its ZSET at any request.
function Run(header, reader) {
  this.header = header;
  var n = (this.requests = reader.varint());
  this.users = Math.max(header.users || 1, 1);
  this.flags = reader.block().bytes;
  this.kinds = reader.block().bytes;
  if (this.flags.length !== n || this.kinds.length !== n) throw new Error("a column has the wrong length");
  this.now = deltaColumn(reader.block(), n, Float64Array);
  this.count = deltaColumn(reader.block(), n, Int32Array);
  this.truth = deltaColumn(reader.block(), n, Int32Array);
  this.members = deltaColumn(reader.block(), n, Int32Array);
  this.readEnds(reader.block(), n);
  var writes = reader.block();
  this.writes = new Int32Array(n);
  for (var i = 0; i < n; ++i) this.writes[i] = writes.varint();
  this.readTexts(reader.block(), n);
  this.readErrors(reader.block());
  if (header.has_scores) {
    var scores = reader.block();
    var view = new DataView(scores.bytes.buffer, scores.bytes.byteOffset, scores.bytes.length);
    this.scores = new Float64Array(n);
    for (var s = 0; s < n; ++s) this.scores[s] = view.getFloat64(s * 8, true);
  }
  this.sumUp();
  this.readSeeded();
}

Run.prototype.readEnds = function (reader, n) {
  this.ends = new Int32Array(n);
  this.blockLastEnd = new Int32Array(Math.ceil(n / BLOCK)).fill(-1);
  for (var i = 0; i < n; ++i) {
    var code = reader.varint();
    var end = code === 0 ? ALIVE : i + code - 1;
    this.ends[i] = end;
    var b = (i / BLOCK) | 0;
    if (end !== i && end > this.blockLastEnd[b]) this.blockLastEnd[b] = end;
  }
};

Run.prototype.readTexts = function (reader, n) {
  this.textAt = new Int32Array(n).fill(-1);
  this.textLength = new Int32Array(n);
  this.texts = reader.bytes;
  for (var i = 0; i < n; ++i) {
    if (this.kinds[i] !== KIND_TEXT) continue;
    var length = reader.varint();
    this.textAt[i] = reader.at;
    this.textLength[i] = length;
    reader.at += length;
  }
  if (reader.at > reader.bytes.length) throw new Error("the members end early");
};

Run.prototype.readErrors = function (reader) {
  this.errorOf = new Map();
  var count = reader.varint(), request = 0;
  for (var e = 0; e < count; ++e) {
    request += reader.varint();
    this.errorOf.set(request, reader.varint());
  }
};

Run.prototype.readSeeded = function () {
  this.seeded = (this.header.seeded || []).map(function (s) {
    return { user: s.user, member: base64Bytes(s.member), score: s.score, end: s.end === null ? ALIVE : s.end };
  });
};

// The figures through each request, summed as zsetlab's ReplayTotals: a failed request counts
// as sent and as an error only.
Run.prototype.sumUp = function () {
  var n = this.requests;
  var names = ["errors", "stored", "overwritten", "unknown", "admitted", "beyond"];
  var sums = {};
  names.forEach(function (name) { sums[name] = new Int32Array(n); });
  var errors = 0, stored = 0, overwritten = 0, unknown = 0, admitted = 0, beyond = 0;
  for (var i = 0; i < n; ++i) {
    var f = this.flags[i];
    if (f & FLAG_FAILED) {
      ++errors;
    } else {
      if (f & FLAG_ADDED_KNOWN) {
        if (f & FLAG_ADDED) ++stored;
        else ++overwritten;
      } else {
        ++unknown;
      }
      if (f & FLAG_ADMITTED) ++admitted;
      if (f & FLAG_BEYOND) ++beyond;
    }
    sums.errors[i] = errors;
    sums.stored[i] = stored;
    sums.overwritten[i] = overwritten;
    sums.unknown[i] = unknown;
    sums.admitted[i] = admitted;
    sums.beyond[i] = beyond;
  }
  this.sums = sums;
};

Run.prototype.userOf = function (i) {
  return this.users > 1 ? i % this.users : 0;
};

Run.prototype.memberBytes = function (i) {
  switch (this.kinds[i]) {
    case KIND_TEXT:
      return this.texts.subarray(this.textAt[i], this.textAt[i] + this.textLength[i]);
    case KIND_NOW:
      return asciiBytes.encode(String(this.now[i]));
    case KIND_REQUEST_ID:
      return asciiBytes.encode(this.header.run_tag + ":" + i);
  }
  return null;
};

Run.prototype.memberText = function (i) {
  var bytes = this.memberBytes(i);
  return bytes === null ? null : utf8.decode(bytes);
};

Run.prototype.scoreOf = function (i) {
  return this.scores ? this.scores[i] : this.now[i];
};

// The figures through request i, as the window's figures panel shows them.
Run.prototype.figuresAt = function (i) {
  var s = this.sums;
  var sent = i + 1, errors = s.errors[i], stored = s.stored[i];
  return {
    sent: sent,
    errors: errors,
    stored: stored,
    overwritten: s.overwritten[i],
    lost: s.unknown[i] > 0 ? null : sent - errors - stored,
    beyond: s.beyond[i],
  };
};

// A member of a ZSET at the cursor is a write (its request, 0 or more) or a seeded member k
// (-k - 1, there before the first request).
Run.prototype.rowScore = function (row) {
  return row >= 0 ? this.scoreOf(row) : this.seeded[-row - 1].score;
};

Run.prototype.rowBytes = function (row) {
  return row >= 0 ? this.memberBytes(row) : this.seeded[-row - 1].member;
};

// Members with equal scores in ZRANGE's order: by their bytes. Request ids share the run tag,
// so theirs compare as their numbers' decimal text (ASCII: the same order as the bytes).
Run.prototype.sortTies = function (rows, from, to) {
  var self = this, ids = true;
  for (var k = from; k < to; ++k) if (rows[k] < 0 || this.kinds[rows[k]] !== KIND_REQUEST_ID) ids = false;
  var keyed = rows.slice(from, to).map(function (row) {
    return { row: row, key: ids ? String(row) : self.rowBytes(row) };
  });
  keyed.sort(ids ? function (a, b) { return a.key < b.key ? -1 : a.key > b.key ? 1 : 0; }
                 : function (a, b) { return compareBytes(a.key, b.key); });
  for (var j = 0; j < keyed.length; ++j) rows[from + j] = keyed[j].row;
};

// The members of the ZSET of request i's user right after it, sorted as ZRANGE WITHSCORES: by
// score, then by the member's bytes. The writes alive are found block by block (a block whose
// writes all ended before i is skipped); as they come in request order, a run whose scores
// never go back only sorts its ties.
Run.prototype.zsetAfter = function (i) {
  var user = this.userOf(i), rows = [];
  var blocks = ((i / BLOCK) | 0) + 1;
  for (var b = 0; b < blocks; ++b) {
    if (this.blockLastEnd[b] <= i) continue;
    var last = Math.min((b + 1) * BLOCK, i + 1);
    for (var w = b * BLOCK; w < last; ++w) {
      if (this.ends[w] > i && this.ends[w] !== w && this.userOf(w) === user) rows.push(w);
    }
  }
  for (var k = 0; k < this.seeded.length; ++k) {
    if (this.seeded[k].user === user && this.seeded[k].end > i) rows.push(-k - 1);
  }
  var self = this, scores = rows.map(function (row) { return self.rowScore(row); }), ordered = true;
  for (var r = 1; r < rows.length && ordered; ++r) ordered = scores[r - 1] <= scores[r];
  if (!ordered) {
    var order = rows.map(function (row, at) { return at; });
    order.sort(function (a, b) { return scores[a] - scores[b]; });
    rows = order.map(function (at) { return rows[at]; });
    scores = order.map(function (at) { return scores[at]; });
  }
  for (var from = 0; from < rows.length; ) {
    var to = from + 1;
    while (to < rows.length && scores[to] === scores[from]) ++to;
    if (to - from > 1) this.sortTies(rows, from, to);
    from = to;
  }
  return rows;
};

Run.prototype.rowJson = function (row) {
  return {
    member: utf8.decode(this.rowBytes(row)),
    score: this.rowScore(row),
    request: row >= 0 ? row + 1 : 0,
    writes: row >= 0 ? this.writes[row] : 0,
  };
};

// The state right after request i (0-based), with the fields and values of
// `zsetlab-cli replay FILE --at i+1 --json` (and --members for the member list).
Run.prototype.stateAt = function (i, withMembers) {
  var h = this.header, f = this.flags[i], failed = (f & FLAG_FAILED) !== 0, user = this.userOf(i);
  var error = this.errorOf.has(i) ? h.errors[this.errorOf.get(i)] : null;
  var state = {
    request: i + 1,
    requests: this.requests,
    now: this.now[i],
    user: user,
    key: h.keys[user],
    state_from: h.state_from,
    members: this.members[i] < 0 ? null : this.members[i],
    count_returned: this.count[i] < 0 ? null : this.count[i],
    true_count: this.truth[i] < 0 ? null : this.truth[i],
    added: f & FLAG_ADDED_KNOWN ? (f & FLAG_ADDED ? 1 : 0) : null,
    member: this.kinds[i] !== KIND_UNKNOWN && !failed ? this.memberText(i) : null,
    admitted: (f & FLAG_ADMITTED) !== 0,
    error: error === undefined || error === "" ? null : error,
    overwritten: this.sums.overwritten[i],
    admitted_beyond_limit: this.sums.beyond[i],
  };
  if (withMembers) {
    var self = this;
    var rows = h.state_from === "counts-only" ? [] : this.zsetAfter(i);
    state.member_list = rows.map(function (row) { return self.rowJson(row); });
  }
  return state;
};

// The page's data: its header and one Run per side.
function readPage(bytes) {
  var reader = new Reader(bytes);
  var headerBlock = reader.block();
  var page = JSON.parse(utf8.decode(headerBlock.bytes));
  if (page.schema !== "zsetlab.page/1") throw new Error("a page of another version: " + page.schema);
  page.runs = page.sides.map(function (side) { return new Run(side, reader); });
  if (!reader.done()) throw new Error("bytes after the last column");
  return page;
}
