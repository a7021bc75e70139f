#pragma once

#include <QRegularExpression>
#include <QSyntaxHighlighter>

// Lua as a student reads it: keywords, redis.call and its command, strings, numbers, comments.
class LuaHighlighter : public QSyntaxHighlighter
{
    Q_OBJECT
public:
    explicit LuaHighlighter(QTextDocument* document);

protected:
    void highlightBlock(const QString& text) override;

private:
    struct Rule
    {
        QRegularExpression pattern;
        QTextCharFormat format;
    };
    QVector<Rule> m_rules;
    QTextCharFormat m_comment;
    QTextCharFormat m_string;
};
