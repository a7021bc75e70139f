#pragma once

#include <QString>

// Text from a script (its lines, members, replies, Lua's messages) made safe to print on a
// terminal: control characters are shown as escapes (\e, \r, \x07, \u009b) instead of being
// sent, so a script cannot clear the screen, set the window title or hide text behind a
// carriage return. Bidirectional overrides are escaped too: they reorder what a reader sees.
// The same escaping as a server's errors get (escapeControls(), core/base/printabletext.h).
QString terminalSafe(const QString& text);
