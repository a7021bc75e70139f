#include "redisreply.h"

#include "base/printabletext.h"

#include "hiredisapi.h"

#include <QCoreApplication>
#include <QStringList>

namespace {
struct Text
{
    Q_DECLARE_TR_FUNCTIONS(RedisReply)
};

} // namespace

RedisReply RedisReply::fromHiredis(const redisReply* reply)
{
    RedisReply result;
    if (!reply)
        return connectionLost(Text::tr("no reply"));
    switch (HiredisApi::resp2Type(reply->type)) {
    case REDIS_REPLY_STATUS:
        result.m_type = Type::Status;
        result.m_text = QByteArray(reply->str, static_cast<int>(reply->len));
        break;
    case REDIS_REPLY_ERROR:
        result.m_type = Type::Error;
        result.m_text = QByteArray(reply->str, static_cast<int>(reply->len));
        break;
    case REDIS_REPLY_STRING:
        result.m_type = Type::String;
        result.m_text = QByteArray(reply->str, static_cast<int>(reply->len));
        break;
    case REDIS_REPLY_INTEGER:
        result.m_type = Type::Integer;
        result.m_integer = reply->integer;
        break;
    case REDIS_REPLY_ARRAY:
        result.m_type = Type::Array;
        result.m_elements.reserve(reply->elements);
        for (size_t i = 0; i < reply->elements; ++i)
            result.m_elements.push_back(fromHiredis(reply->element[i]));
        break;
    case REDIS_REPLY_NIL:
    default:
        result.m_type = Type::Nil;
        break;
    }
    return result;
}

RedisReply RedisReply::connectionLost(const QString& why)
{
    RedisReply result;
    result.m_type = Type::ConnectionLost;
    result.m_text = why.toUtf8();
    return result;
}

RedisReply RedisReply::integer(long long value)
{
    RedisReply result;
    result.m_type = Type::Integer;
    result.m_integer = value;
    return result;
}

QByteArray RedisReply::errorCode() const
{
    if (m_type != Type::Error)
        return {};
    const int space = m_text.indexOf(' ');
    return space < 0 ? m_text : m_text.left(space);
}

QString RedisReply::toDisplayString() const
{
    switch (m_type) {
    case Type::Nil:
        return QStringLiteral("(nil)");
    case Type::Status:
        return text();
    case Type::Error:
        return QStringLiteral("(error) ") + text();
    case Type::ConnectionLost:
        return QStringLiteral("(no reply) ") + text();
    case Type::Integer:
        return QStringLiteral("(integer) %1").arg(m_integer);
    case Type::String:
        return QLatin1Char('"') + text() + QLatin1Char('"');
    case Type::Array: {
        QStringList parts;
        for (const auto& element : m_elements)
            parts << element.toDisplayString();
        return QLatin1Char('[') + parts.join(QStringLiteral(", ")) + QLatin1Char(']');
    }
    }
    return {};
}

QString RedisReply::text() const
{
    return m_type == Type::Error ? printableText(m_text) : QString::fromUtf8(m_text);
}
