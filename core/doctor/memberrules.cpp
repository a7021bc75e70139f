#include "doctorrules.h"

#include <algorithm>
#include <cmath>

namespace DoctorRules {
namespace {
double expectedCollisions(double values, int requests)
{
    // Birthday bound: requests drawing from `values` equally likely values collide on all but the
    // distinct ones, of which there are values * (1 - (1 - 1/values)^requests) on average.
    return requests + values * std::expm1(requests * std::log1p(-1 / values)); // exact for large values too
}
// Fewer collisions than this per 1,000 requests is no finding of its own.
constexpr double negligibleCollisions = 0.01;
} // namespace

int Doctor::idArgument() const
{
    for (int i = 1; i <= m_call.argCount(); ++i) {
        CallTemplate::Placeholder p;
        if (m_call.argIsPlaceholder(i, &p)
            && (p == CallTemplate::Placeholder::Uuid || p == CallTemplate::Placeholder::Seq))
            return i;
    }
    return 0;
}

QString Doctor::uniqueMemberSuggestion() const
{
    const int id = idArgument();
    const QString viaId = id > 0
        ? Text::tr("use the request id the call already carries: redis.call('ZADD', key, now, ARGV[%1])").arg(id)
        : Text::tr("have the caller send a request id (a UUID; add {uuid} to --args) and use it as the "
                   "member");
    return Text::tr("Give every request a member of its own: %1, or append a server-side counter: "
                    "local member = now .. '-' .. redis.call('INCR', key .. ':seq').")
        .arg(viaId);
}

void Doctor::checkCall(const RedisCall& call)
{
    const QByteArray& command = call.command;
    if (!command.isEmpty())
        checkKeys(call);
    if (command == "ZADD")
        checkAdd(call);
    else if (command == "EXPIRE" || command == "PEXPIRE" || command == "EXPIREAT" || command == "PEXPIREAT")
        checkExpire(call);
}

bool Doctor::isLog(const Value& key, const Value& score) const
{
    if (score.sources & (FromTime | FromUnknown))
        return true;
    // Scores that are no time: a log all the same when the script trims or counts the key (a
    // lexical log, its time in the member); otherwise an index or a registry, where adding the
    // same member again is the point.
    static const QList<QByteArray> logCommands {"ZREMRANGEBYSCORE", "ZREMRANGEBYLEX", "ZREMRANGEBYRANK",
                                                "ZPOPMIN",          "ZCARD",          "ZCOUNT",
                                                "ZLEXCOUNT",        "ZRANGEBYSCORE",  "ZREVRANGEBYSCORE"};
    return std::any_of(m_reading.calls.cbegin(), m_reading.calls.cend(), [&key](const RedisCall& call) {
        return logCommands.contains(call.command) && !call.args.isEmpty()
            && (call.args[0].keyName.isEmpty() || key.keyName.isEmpty() || call.args[0].keyName == key.keyName);
    });
}

void Doctor::checkAdd(const RedisCall& call)
{
    static const QList<QByteArray> options {"NX", "XX", "GT", "LT", "CH", "INCR"};
    int i = 1;
    while (i < call.args.size() && call.args[i].literalText && options.contains(call.args[i].text.toUpper()))
        ++i;
    if (i + 1 < call.args.size() && !isLog(call.args[0], call.args[i]))
        return;
    for (; i + 1 < call.args.size(); i += 2)
        checkMember(call.line, call.args[i], call.args[i + 1]);
}

void Doctor::checkMember(int line, const Value& score, const Value& member)
{
    // A member is unique when any part of it is: a lossy time beside a request id loses digits, not
    // requests.
    const bool uniquePart = member.sources & FromUnique;
    for (const int lossy : member.lossyLines)
        (uniquePart ? m_lossyUniqueMembers : m_lossyMembers).insert(lossy);
    if (member.sources & (FromUnique | FromUnknown))
        return;
    const QString builtOn = member.builtLine > 0 && member.builtLine != line
        ? Text::tr(" (The member is built on line %1.)").arg(member.builtLine)
        : QString();
    if ((member.sources & (FromRandom | FromRandomReplicated)) && member.randomValues > 0
        && expectedCollisions(member.randomValues, 1000) >= negligibleCollisions
        && m_reading.randomSeedLines.isEmpty()) {
        checkFewRandomValues(line, member, builtOn);
        return;
    }
    if (member.sources & (FromRandom | FromRandomReplicated)) {
        if (!m_reading.randomSeedLines.isEmpty()) {
            m_randomSeedExplained = true;
            add(line, Severity::Error, "member-random-reseeded",
                Text::tr("math.randomseed() makes the random member repeat"),
                Text::tr("The member depends on math.random(), and line %1 seeds the generator: every "
                         "call seeded alike draws the same numbers, so calls that carry the same time "
                         "write the same member and the count does not grow. On Redis 7 the seed also "
                         "resets the generator that every other script on the server shares.")
                        .arg(m_reading.randomSeedLines.first())
                    + builtOn,
                Text::tr("Remove math.randomseed(). ") + uniqueMemberSuggestion());
        } else if (member.sources & FromRandom) {
            add(line, Severity::Warning, "member-random-pre7",
                Text::tr("The member relies on math.random(), which repeats before Redis 7"),
                Text::tr("Redis 2.6 to 6.2 reseed Lua's generator with the same seed at the start of "
                         "every script call, so the first math.random() gives the same number "
                         "(0.17082803611217) in every call and members collide as with the bare "
                         "timestamp. Redis 7.0 and later keep one generator running: unique there.")
                    + builtOn,
                Text::tr("Prefer a request id or a server counter (INCR). To keep math.random() on "
                         "Redis 3.2 to 6.2, call redis.replicate_commands() first: it reseeds the "
                         "generator for each call."));
        }
        return;
    }
    if (member.sources & FromTime) {
        checkTimeMember(line, score, member, builtOn);
    } else {
        add(line, Severity::Error, "member-is-constant", Text::tr("The ZSET member is the same for every call"),
            Text::tr("The member does not depend on the request, so every call writes the same entry and "
                     "the count never passes 1.")
                + builtOn,
            uniqueMemberSuggestion());
    }
}

void Doctor::checkFewRandomValues(int line, const Value& member, const QString& builtOn)
{
    constexpr int requests = 1000;
    const double collisions = expectedCollisions(member.randomValues, requests);
    if (m_fewRandomValues <= 0 || member.randomValues < m_fewRandomValues)
        m_fewRandomValues = member.randomValues;
    const bool timed = member.sources & FromTime;
    add(line, collisions >= 1 ? Severity::Error : Severity::Warning, "member-random-few",
        Text::tr("The random part of the member takes only %L1 values").arg(member.randomValues, 0, 'f', 0),
        Text::tr("The member's random part has %L1 possible values, so members repeat by chance (the birthday "
                 "bound): among %L2 requests %3, about %L4 draw a value another one already drew, and each of them "
                 "overwrites an entry instead of adding one: a request not counted. Before Redis 7 it is worse: "
                 "every call draws the same first number.")
                .arg(member.randomValues, 0, 'f', 0)
                .arg(requests)
                .arg(timed ? Text::tr("that share the member's time") : Text::tr("in one window"))
                .arg(collisions, 0, 'f', collisions < 10 ? 1 : 0)
            + builtOn,
        uniqueMemberSuggestion());
}

void Doctor::checkCyclicTimeMember(int line, const Value& member, const QString& builtOn)
{
    const QString unit = unitWord(member.resolution >= 0 ? member.resolution : 1);
    add(line, Severity::Error, "member-is-time",
        Text::tr("The ZSET member takes only %L1 values: a part of the time that repeats")
            .arg(member.timeCycle, 0, 'f', 0),
        Text::tr("The member is made from the time within a longer period (such as the %1 within the second), which "
                 "takes %L2 values, and from parts that are the same in every call (an index, a constant). So every "
                 "call in the same %1 writes the same member, and so do calls a whole period apart while both are in "
                 "the window: ZADD updates an entry instead of adding one (it replies 0), and the count stays short. "
                 "A burst within one %1 passes the limit.")
                .arg(unit)
                .arg(member.timeCycle, 0, 'f', 0)
            + builtOn,
        uniqueMemberSuggestion());
}

void Doctor::checkTimeMember(int line, const Value& score, const Value& member, const QString& builtOn)
{
    if (member.timeCycle > 0) {
        checkCyclicTimeMember(line, member, builtOn);
        return;
    }
    const int unit = score.role == Role::Time ? score.unit : member.role == Role::Time ? member.unit : -1;
    const int resolution = member.resolution >= 0 ? member.resolution : unit;
    const bool lossy = !member.lossyLines.isEmpty();
    const bool server = member.sources & FromServerTime;
    if (resolution >= 2 && !lossy && server) {
        add(line, Severity::Info, "member-is-time", Text::tr("The ZSET member is the server's time in microseconds"),
            Text::tr("The member is redis.call('TIME') to the microsecond. A server runs one script at a time and "
                     "a call takes longer than a microsecond, so two calls on one server never get the same "
                     "member (the live probe's back-to-back calls are stored one each). What is left: a clock "
                     "that steps back (an NTP correction, a failover to a replica with another clock) can give "
                     "a member again, and then ZADD overwrites an entry and the count is one short.")
                + builtOn,
            Text::tr("Nothing is needed on one server. To be safe from clock steps as well, add a counter: "
                     "t[1] .. t[2] .. '-' .. redis.call('INCR', KEYS[1] .. ':seq')."));
        return;
    }
    if (resolution >= 2 && !lossy) {
        add(line, Severity::Warning, "member-is-time", Text::tr("The ZSET member is the caller's time in microseconds"),
            Text::tr("The member is the time the caller sends, to the microsecond: unique only while no two "
                     "requests carry the same microsecond. Two app servers can (their clocks are independent), "
                     "and a client whose clock has only milliseconds and multiplies by 1000 makes every "
                     "request of one millisecond collide.")
                + builtOn,
            uniqueMemberSuggestion());
        return;
    }
    const QString span = lossy ? Text::tr("100-microsecond step") : unitWord(resolution);
    add(line, Severity::Error, "member-is-time",
        server ? Text::tr("The ZSET member is the server's time in %1")
                     .arg(lossy ? Text::tr("rounded microseconds") : unitPlural(resolution))
               : Text::tr("The ZSET member is the timestamp"),
        Text::tr("The member is made from the time alone, so every call that carries the same %1 writes the same "
                 "member: ZADD only updates the existing entry (it replies 0), the count does not grow, and a "
                 "burst within one %1 passes the limit. Atomic scripts prevent races, not this.")
                .arg(span)
            + (lossy ? Text::tr(" (Lua keeps 14 digits when it writes a number as text, so a microsecond time "
                                "becomes steps of 100 microseconds.)")
                     : QString())
            + builtOn,
        uniqueMemberSuggestion());
}

void Doctor::checkExpire(const RedisCall& call)
{
    if (call.args.size() < 2)
        return;
    const Value& ttl = call.args[1];
    const QByteArray& command = call.command;
    if (command == "EXPIRE" && ttl.role == Role::Duration && ttl.unit >= 1) {
        add(call.line, Severity::Warning, "expire-in-ms", Text::tr("EXPIRE is given %1").arg(unitPlural(ttl.unit)),
            Text::tr("EXPIRE counts in seconds, and this value is in %1: an idle key lives %2 times longer "
                     "than the window (a 60000 ms window gives a 16.7 hour TTL). The count stays right "
                     "because old entries are trimmed, but the keys of clients that went quiet pile up "
                     "in memory.")
                .arg(unitPlural(ttl.unit), ttl.unit == 1 ? QStringLiteral("1000") : QStringLiteral("1000000")),
            ttl.unit == 1 ? Text::tr("Use PEXPIRE, which counts in milliseconds: "
                                     "redis.call('PEXPIRE', key, window).")
                          : Text::tr("Convert to seconds first: math.ceil(window / 1000000)."));
    } else if (command == "PEXPIRE" && ttl.role == Role::Duration && ttl.unit == 0) {
        add(call.line, Severity::Error, "pexpire-in-seconds", Text::tr("PEXPIRE is given seconds"),
            Text::tr("PEXPIRE counts in milliseconds, and this value is in seconds: the key expires 1000 "
                     "times too soon (a 60 s window gives 60 ms) and takes the requests still inside the "
                     "window with it, so the count drops and the limiter admits too many."),
            Text::tr("Use EXPIRE with seconds, or PEXPIRE with milliseconds: redis.call('PEXPIRE', key, "
                     "window * 1000)."));
    } else if (command == "EXPIREAT" && ttl.role == Role::Time && ttl.unit >= 1) {
        add(call.line, Severity::Warning, "expire-in-ms",
            Text::tr("EXPIREAT is given a time in %1").arg(unitPlural(ttl.unit)),
            Text::tr("EXPIREAT takes a Unix time in seconds; read as seconds, a time in %1 lies tens of "
                     "thousands of years ahead, so idle keys never expire.")
                .arg(unitPlural(ttl.unit)),
            Text::tr("Use PEXPIREAT with a time in milliseconds, or PEXPIRE with the window."));
    } else if (command == "PEXPIREAT" && ttl.role == Role::Time && ttl.unit == 0) {
        add(call.line, Severity::Error, "pexpire-in-seconds", Text::tr("PEXPIREAT is given a time in seconds"),
            Text::tr("PEXPIREAT takes a Unix time in milliseconds; a time in seconds read as milliseconds "
                     "is in January 1970, so Redis deletes the key at once and the count starts from "
                     "zero on every call."),
            Text::tr("Use EXPIREAT with seconds, or PEXPIREAT with now * 1000."));
    }
}

} // namespace DoctorRules
