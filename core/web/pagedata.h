#pragma once

// PageData: the runs a web page plays, packed for the page's script (resources/web/data.js).
//
// One zlib stream (the page unpacks it with the browser's DecompressionStream("deflate")) holding a
// varint length and the page's header (JSON, UTF-8), then, per side, a varint request count and
// columns, each a varint byte length and its bytes. Varints are unsigned LEB128, signed ones
// zigzag-coded first, as in the replay file (docs/replay-format.md). Per request, in this order:
//
//   flags     one byte: 1 failed, 2 ZADD's reply known, 4 ZADD added, 16 admitted, 32 admitted
//             beyond the limit
//   kinds     one byte: 0 text, 1 `now` in decimal, 2 the request id, 3 not named
//   now       signed varint, the difference from the previous request's now
//   count     signed varint, the difference from the previous value of `count_returned` (-1: none)
//   truth     the same for `true_count` (-1: unknown)
//   members   the same for `members`, the ZSET's size after the request (-1: unknown)
//   ends      varint: 0 the request's write was still there at the end; else end - i + 1, where
//             end is the request that trimmed or wrote it again (i itself: it wrote nothing)
//   writes    varint: requests that wrote this member up to this one (0: none)
//   texts     for each request of kind 0: varint length, then the member's bytes
//   errors    varint e, then e pairs: the request (a difference from the previous pair's) and
//             the index of its text in the side's header `errors`
//   scores    only when the side's header says `has_scores`: 8 bytes per request, the score its
//             ZADD wrote (an IEEE 754 double, little-endian)
//
// Each value is what Recording::stateAt() says of that request (`zsetlab-cli replay --at`), so
// the page shows the numbers the CLI prints; only sums over requests are added up in the page.

#include <QByteArray>
#include <QJsonObject>
#include <QString>

#include <vector>

class Recording;

namespace PageData {
// What the page's header says of one side: its run, its keys, errors and seeded members.
QJsonObject sideHeader(const Recording& recording, const QString& title);
// One side's request count and columns, as described above.
QByteArray sideColumns(const Recording& recording);
// The header and every side's columns, compressed.
QByteArray pack(const QJsonObject& header, const std::vector<const Recording*>& sides);
} // namespace PageData
