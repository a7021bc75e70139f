// The Script Doctor's notes on managed and serverless services: what a script does that runs on a
// server of one's own but is refused, or run differently, by a service. Sources: AWS ElastiCache's
// "Lua scripts" best practices, Dragonfly's scripting docs, Upstash's EVAL docs, Redis's
// eval-intro (replication of scripts' effects).

#include "commandkeys.h"
#include "doctorrules.h"

namespace DoctorRules {

namespace {
bool isWrite(const QByteArray& command)
{
    static const QList<QByteArray> reads {"GET",           "MGET",      "HGET",    "HMGET",  "HGETALL", "ZCARD",
                                          "ZCOUNT",        "ZRANGE",    "ZSCORE",  "EXISTS", "TTL",     "PTTL",
                                          "TIME",          "TYPE",      "ZRANK",   "LLEN",   "LRANGE",  "SCARD",
                                          "ZRANGEBYSCORE", "ZREVRANGE", "HEXISTS", "STRLEN", "PING"};
    return !command.isEmpty() && !reads.contains(command);
}
} // namespace

QString managedServicesNote()
{
    return Text::tr(" Some services refuse it on a single server too: Dragonfly by default (\"script tried accessing "
                    "undeclared key\", unless the script is flagged allow-undeclared-keys), Upstash when the script "
                    "asks for key locking (allow-key-locking), and Redis Cloud's clustered databases want every key "
                    "of a script in KEYS, in one slot.");
}

void Doctor::checkServices()
{
    bool readsKeys = false;
    for (const QByteArray& line : std::as_const(m_lines))
        readsKeys = readsKeys || line.contains("KEYS[") || line.contains("KEYS [");
    const RedisCall* firstKeyed = nullptr;
    const RedisCall* time = nullptr;
    const RedisCall* writeAfterTime = nullptr;
    for (const RedisCall& call : std::as_const(m_reading.calls)) {
        if (!firstKeyed && !call.args.isEmpty() && CommandKeys::reach(call.command) == CommandKeys::Reach::Keys)
            firstKeyed = &call;
        if (!time && call.command == "TIME")
            time = &call;
        else if (time && !writeAfterTime && isWrite(call.command))
            writeAfterTime = &call;
    }
    // A script that reads its keys from ARGV while the call passes them in KEYS as well
    // (StackExchange.Redis) is called with numkeys above 0, and its keys are declared.
    if (firstKeyed && ((!readsKeys && m_mirroredKeyUses == 0) || m_call.keyCount() == 0)) {
        add(firstKeyed->line, Severity::Info, "no-keys", Text::tr("The script is called without KEYS"),
            Text::tr("It touches keys but receives none in KEYS, so it is called with numkeys 0. Redis runs it on "
                     "one server; AWS ElastiCache Serverless refuses every such call (\"Lua scripts without any "
                     "input keys are not supported\"), Dragonfly refuses the keys (\"script tried accessing "
                     "undeclared key\"), Upstash runs it under a lock of the whole database, and a cluster client "
                     "sends it to any node, where the key is usually not."),
            Text::tr("Pass the keys the script touches in KEYS and read them as KEYS[1], KEYS[2], ..."));
    }
    bool replicates = false;
    for (const QByteArray& line : std::as_const(m_lines))
        replicates = replicates || line.contains("replicate_commands");
    if (time && writeAfterTime && !replicates) {
        add(writeAfterTime->line, Severity::Info, "write-after-time",
            Text::tr("%1 writes after TIME").arg(QString::fromUtf8(writeAfterTime->command)),
            Text::tr("Redis before 5.0 replicated a script by sending its text to replicas, and refused a write "
                     "after TIME (\"Write commands not allowed after non deterministic commands\"): always before "
                     "3.2, and from 3.2 to 4.0 unless the script first called redis.replicate_commands(). Redis 5 "
                     "and later replicate what the script does instead, and run it; so do the managed services "
                     "built on them (none known to zsetlab refuses TIME itself)."),
            Text::tr("For Redis 3.2 to 4.0, call redis.replicate_commands() on the script's first line; or pass "
                     "the time in ARGV."));
    }
}

} // namespace DoctorRules
