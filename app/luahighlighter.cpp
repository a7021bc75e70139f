#include "luahighlighter.h"

LuaHighlighter::LuaHighlighter(QTextDocument* document)
    : QSyntaxHighlighter(document)
{
    // Okabe-Ito colours with weight and style, so the roles stay apart in grey and on a projector.
    QTextCharFormat keyword;
    keyword.setForeground(QColor(0, 114, 178));
    keyword.setFontWeight(QFont::Bold);
    QTextCharFormat redisCall;
    redisCall.setForeground(QColor(204, 121, 167));
    redisCall.setFontWeight(QFont::Bold);
    QTextCharFormat number;
    number.setForeground(QColor(0, 158, 115));
    QTextCharFormat command;
    command.setForeground(QColor(213, 94, 0));
    command.setFontWeight(QFont::Bold);
    m_string.setForeground(QColor(213, 94, 0));
    m_comment.setForeground(QColor(120, 120, 120));
    m_comment.setFontItalic(true);

    const QStringList keywords {QStringLiteral("and"),    QStringLiteral("break"),  QStringLiteral("do"),
                                QStringLiteral("else"),   QStringLiteral("elseif"), QStringLiteral("end"),
                                QStringLiteral("false"),  QStringLiteral("for"),    QStringLiteral("function"),
                                QStringLiteral("if"),     QStringLiteral("in"),     QStringLiteral("local"),
                                QStringLiteral("nil"),    QStringLiteral("not"),    QStringLiteral("or"),
                                QStringLiteral("repeat"), QStringLiteral("return"), QStringLiteral("then"),
                                QStringLiteral("true"),   QStringLiteral("until"),  QStringLiteral("while")};
    m_rules.push_back({QRegularExpression(QStringLiteral("\\b(%1)\\b").arg(keywords.join(QLatin1Char('|')))), keyword});
    m_rules.push_back({QRegularExpression(QStringLiteral(
                           "\\bredis\\.(p?call|replicate_commands|log|error_reply|status_reply)\\b|\\b(KEYS|ARGV)\\b")),
                       redisCall});
    m_rules.push_back({QRegularExpression(QStringLiteral("\\b\\d+(\\.\\d+)?([eE][-+]?\\d+)?\\b")), number});
    m_rules.push_back(
        {QRegularExpression(QStringLiteral("['\"](ZADD|ZCARD|ZCOUNT|ZREMRANGEBYSCORE|ZRANGE|EXPIRE|PEXPIRE|INCR|TIME|"
                                           "DEL|zadd|zcard|zcount|zremrangebyscore|expire|pexpire|incr|time)['\"]")),
         command});
}

void LuaHighlighter::highlightBlock(const QString& text)
{
    for (const Rule& rule : m_rules) {
        auto matches = rule.pattern.globalMatch(text);
        while (matches.hasNext()) {
            const auto match = matches.next();
            setFormat(int(match.capturedStart()), int(match.capturedLength()), rule.format);
        }
    }
    // Strings and comments last: what is inside them is not code. A quote inside a comment
    // does not open a string; "--" inside a string does not open a comment.
    int i = 0;
    while (i < text.size()) {
        const QChar c = text.at(i);
        if (c == QLatin1Char('-') && i + 1 < text.size() && text.at(i + 1) == QLatin1Char('-')) {
            setFormat(i, int(text.size()) - i, m_comment);
            return;
        }
        if (c == QLatin1Char('\'') || c == QLatin1Char('"')) {
            int end = i + 1;
            while (end < text.size() && text.at(end) != c)
                end += text.at(end) == QLatin1Char('\\') ? 2 : 1;
            const int length = std::min(int(text.size()), end + 1) - i;
            const QTextCharFormat existing = format(i + 1);
            if (existing.fontWeight() != QFont::Bold) // keep the command colour of 'ZADD'
                setFormat(i, length, m_string);
            i += length;
            continue;
        }
        ++i;
    }
}
