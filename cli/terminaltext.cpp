#include "terminaltext.h"

#include "base/printabletext.h"

QString terminalSafe(const QString& text)
{
    return escapeControls(text);
}
