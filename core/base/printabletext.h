#pragma once

// printableText(): text that came from outside (a server's error, a field of INFO) made safe to
// show: control characters and bidirectional overrides as escapes (\e, \r, \x07, \u202e), so that
// it cannot clear a terminal, retitle a window or reorder what a reader sees, and cut to a length
// that a message can hold, saying how much was cut.

#include <QByteArray>
#include <QString>

QString printableText(const QByteArray& raw, qsizetype maxChars = 1000);
// The escaping alone, for text of any length (a script's lines, members, Lua's messages).
QString escapeControls(const QString& text);
