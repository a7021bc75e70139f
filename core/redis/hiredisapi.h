#pragma once

// What zsetlab uses of hiredis that differs between the versions it builds with: 0.14 (Debian 12)
// and 1.x (Debian 13, Ubuntu 24.04). Only redisconnection.cpp and redisreply.cpp include hiredis,
// and they take the differences from here rather than from version tests of their own.
#include <hiredis/hiredis.h>

#include <cstddef>

namespace HiredisApi {

#if defined(HIREDIS_MAJOR) && HIREDIS_MAJOR >= 1
constexpr bool readsResp3 = true;
// The element count the reader hands to redisReplyObjectFunctions::createArray.
using ArrayLength = std::size_t;
// What redisFormatCommandArgv returns: the command's length, or -1.
using FormattedLength = long long;
#else
constexpr bool readsResp3 = false;
using ArrayLength = int;
using FormattedLength = int;
#endif

// RESP3's kinds of reply (hiredis 1.x parses them even on a RESP2 connection, when a server sends
// them unasked; 0.14 calls them a protocol error). zsetlab speaks RESP2, so each is read as the
// RESP2 reply a server would have sent in its place: a double, big number or verbatim string as
// its text, a boolean as the integer 1 or 0 (hiredis keeps it there), a map, set or push as an
// array (a map's keys and values in turn), an attribute as nil. RESP2's own types are unchanged.
inline int resp2Type(int type)
{
    switch (type) {
#if defined(HIREDIS_MAJOR) && HIREDIS_MAJOR >= 1
    case REDIS_REPLY_DOUBLE:
    case REDIS_REPLY_BIGNUM:
    case REDIS_REPLY_VERB:
        return REDIS_REPLY_STRING;
    case REDIS_REPLY_BOOL:
        return REDIS_REPLY_INTEGER;
    case REDIS_REPLY_MAP:
    case REDIS_REPLY_SET:
    case REDIS_REPLY_PUSH:
        return REDIS_REPLY_ARRAY;
    case REDIS_REPLY_ATTR:
        return REDIS_REPLY_NIL;
#endif
    default:
        return type;
    }
}

} // namespace HiredisApi
