#include "terminaltext.h"

#include "printabletext.h"

QString terminalSafe(const QString& text)
{
    return escapeControls(text);
}
