#include "printabletext.h"

#include <QCoreApplication>

#include <algorithm>

namespace {
struct Text
{
    Q_DECLARE_TR_FUNCTIONS(PrintableText)
};

bool isBidiControl(char16_t c)
{
    return (c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069) || c == 0x200E || c == 0x200F || c == 0x061C;
}
} // namespace

QString escapeControls(const QString& text)
{
    QString safe;
    safe.reserve(text.size());
    for (const QChar qc : text) {
        const char16_t c = qc.unicode();
        if (c >= 0x20 && c != 0x7F && !(c >= 0x80 && c <= 0x9F) && !isBidiControl(c)) {
            safe += qc;
            continue;
        }
        switch (c) {
        case 0x1B:
            safe += QStringLiteral("\\e");
            break;
        case '\t':
            safe += QStringLiteral("\\t");
            break;
        case '\r':
            safe += QStringLiteral("\\r");
            break;
        case '\n':
            safe += QStringLiteral("\\n");
            break;
        default:
            safe += c < 0x100 ? QStringLiteral("\\x%1").arg(int(c), 2, 16, QLatin1Char('0'))
                              : QStringLiteral("\\u%1").arg(int(c), 4, 16, QLatin1Char('0'));
        }
    }
    return safe;
}

QString printableText(const QByteArray& raw, qsizetype maxChars)
{
    const QString text = QString::fromUtf8(raw.left(maxChars * 4)); // a character takes at most 4 bytes
    QString safe = escapeControls(text.left(maxChars));
    if (text.size() > maxChars || raw.size() > maxChars * 4)
        safe += Text::tr("… (cut: %L1 bytes in all)").arg(raw.size());
    return safe;
}
