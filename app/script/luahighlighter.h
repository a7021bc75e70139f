#pragma once

#include <QSyntaxHighlighter>
#include <QTextCharFormat>

#include <vector>

// Lua as a student reads it: keywords, redis.call and the command it runs, strings, numbers and
// comments (--[[ ]] ones across lines too). The whole script is read with core's Lua tokenizer,
// the one the Script Doctor reads it with, so that colours and findings agree on what is code.
class LuaHighlighter : public QSyntaxHighlighter
{
    Q_OBJECT
public:
    explicit LuaHighlighter(QTextDocument* document);

protected:
    void highlightBlock(const QString& text) override;

private:
    enum class Role { Keyword, RedisCall, Command, Number, String, Comment };
    struct Span
    {
        int start; // characters from the start of the document
        int length;
        Role role;
    };
    void readDocument();
    const QTextCharFormat& format(Role role) const;

    std::vector<Span> m_spans; // in document order
    int m_revision = -1;
    QTextCharFormat m_keyword;
    QTextCharFormat m_redisCall;
    QTextCharFormat m_command;
    QTextCharFormat m_number;
    QTextCharFormat m_string;
    QTextCharFormat m_comment;
};
