#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

#include <vector>

struct redisReply;

// A reply from Redis as a plain value (safe to copy across threads), or the reason no reply came.
class RedisReply
{
public:
    enum class Type {
        Nil,
        Status,
        Error, // the server answered with an error (-ERR, -NOSCRIPT, -WRONGTYPE...)
        Integer,
        String,
        Array,
        ConnectionLost, // no answer: the connection failed or timed out (text says why)
    };

    RedisReply() = default;
    static RedisReply fromHiredis(const redisReply* reply);
    static RedisReply connectionLost(const QString& why);
    static RedisReply integer(long long value);

    Type type() const { return m_type; }
    bool isError() const { return m_type == Type::Error || m_type == Type::ConnectionLost; }
    bool isServerError() const { return m_type == Type::Error; }
    bool isConnectionLost() const { return m_type == Type::ConnectionLost; }
    bool isNil() const { return m_type == Type::Nil; }

    long long toInteger() const { return m_integer; }
    // The bulk string, status or error text, as the server sent it.
    const QByteArray& bytes() const { return m_text; }
    // The same as text; an error's text (a server's words, shown to people) is made printable:
    // control characters escaped, cut after 1,000 characters (printabletext.h).
    QString text() const;
    // The first word of an error reply: "ERR", "NOSCRIPT", "WRONGTYPE", "NOAUTH"...
    QByteArray errorCode() const;
    const std::vector<RedisReply>& elements() const { return m_elements; }

    // Human-readable form for logs and the debugger view.
    QString toDisplayString() const;

private:
    Type m_type = Type::Nil;
    long long m_integer = 0;
    QByteArray m_text;
    std::vector<RedisReply> m_elements;
};

using RedisArgs = QList<QByteArray>;
