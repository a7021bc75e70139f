#include "burstreplies.h"

#include "limiters/limiterscript.h"

#include <algorithm>
#include <iterator>

namespace BurstReplies {

bool isServerStateError(const RedisReply& reply)
{
    static const QByteArray codes[]
        = {"OOM", "BUSY", "LOADING", "MISCONF", "READONLY", "MASTERDOWN", "NOREPLICAS", "TRYAGAIN"};
    const QByteArray code = reply.errorCode();
    return std::find(std::begin(codes), std::end(codes), code) != std::end(codes)
        || reply.bytes().contains("OOM command not allowed");
}

bool isPermissionError(const RedisReply& reply)
{
    const QByteArray code = reply.errorCode();
    return code == "NOPERM" || code == "NOAUTH" || code == "WRONGPASS";
}

BurstFailure::Kind permissionFailureKind(const RedisReply& reply)
{
    return reply.errorCode() == "NOPERM" ? BurstFailure::Kind::Script : BurstFailure::Kind::Connection;
}

bool isScriptFault(const RedisReply& reply)
{
    if (isServerStateError(reply))
        return false;
    const QByteArray code = reply.errorCode();
    return code == "WRONGTYPE" || code == "NOSCRIPT" || code == "NOPERM" || code == "CROSSSLOT"
        || reply.bytes().contains("non local key") || reply.bytes().contains("user_script")
        || reply.bytes().contains("Error running script") || ScriptError::fromReply(reply.text()).line > 0;
}

} // namespace BurstReplies
