#include "burstsummary.h"

#include "redis/redisconnection.h"

#include "requestlog.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QStringList>

#include <algorithm>
#include <tuple>

namespace {
struct Text
{
    Q_DECLARE_TR_FUNCTIONS(BurstSummary)
};
} // namespace

namespace {
constexpr int maxErrorMessages = 3;
}

void BurstSummary::takeCountsFrom(const RequestLog& log, bool withLatencies)
{
    requests = log.requests();
    sent = log.finished();
    errors = log.errors();
    stored = log.stored();
    overwritten = log.overwritten();
    addedUnknown = log.addedUnknown();
    lost = sent - errors - stored;
    maxCount = log.maxCount();
    limit = log.limit();
    admitted = log.admitted();
    admittedOverLimit = log.admittedOverLimit();
    errorMessages = log.errorMessages().mid(0, maxErrorMessages);
    if (withLatencies) {
        const auto percentiles = log.latencyPercentiles({50, 99});
        latencyUsP50 = percentiles[0];
        latencyUsP99 = percentiles[1];
    }
    throughputRps = durationMs > 0 ? double(sent) * 1000.0 / durationMs : 0;
    users = log.users();
    if (!withLatencies || users < 2)
        return;
    // Per user: at the end only (a row per user would weigh on every batch of a long run).
    perUser.resize(users);
    const std::vector<RequestLog::UserTotals>& totals = log.userTotals();
    for (int u = 0; u < users; ++u) {
        UserResult& result = perUser[u];
        const RequestLog::UserTotals& user = totals[size_t(u)];
        result.user = u;
        result.sent = user.finished;
        result.errors = user.errors;
        result.stored = user.stored;
        result.overwritten = user.overwritten;
        result.admitted = user.admitted;
        result.admittedOverLimit = user.admittedOverLimit;
        result.maxCount = user.maxCount;
    }
}

QVector<UserResult> BurstSummary::perNode() const
{
    QVector<UserResult> nodes;
    for (const UserResult& user : perUser) {
        auto node
            = std::find_if(nodes.begin(), nodes.end(), [&user](const UserResult& n) { return n.node == user.node; });
        if (node == nodes.end()) {
            UserResult first = user;
            first.user = -1;
            first.key.clear();
            first.users = 1;
            nodes << first;
            continue;
        }
        ++node->users;
        node->sent += user.sent;
        node->errors += user.errors;
        node->stored += user.stored;
        node->overwritten += user.overwritten;
        node->admitted += user.admitted;
        node->admittedOverLimit += user.admittedOverLimit;
        node->maxCount = std::max(node->maxCount, user.maxCount);
        node->finalCount = node->finalCount < 0 || user.finalCount < 0 ? -1 : node->finalCount + user.finalCount;
        node->membersAtEnd
            = node->membersAtEnd < 0 || user.membersAtEnd < 0 ? -1 : node->membersAtEnd + user.membersAtEnd;
    }
    std::sort(nodes.begin(), nodes.end(), [](const UserResult& a, const UserResult& b) { return a.node < b.node; });
    return nodes;
}

QJsonObject UserResult::toJson(bool addedKnown) const
{
    QJsonObject json;
    if (user >= 0) {
        json[QStringLiteral("user")] = user;
        json[QStringLiteral("key")] = QString::fromUtf8(key);
    } else {
        json[QStringLiteral("users")] = users;
    }
    json[QStringLiteral("node")] = node;
    json[QStringLiteral("sent")] = sent;
    json[QStringLiteral("errors")] = errors;
    const QJsonValue unknown(QJsonValue::Null);
    json[QStringLiteral("stored")] = addedKnown ? QJsonValue(stored) : unknown;
    json[QStringLiteral("overwritten")] = addedKnown ? QJsonValue(overwritten) : unknown;
    json[QStringLiteral("admitted")] = admitted;
    json[QStringLiteral("admitted_over_limit")] = admittedOverLimit;
    json[QStringLiteral("max_count")] = maxCount;
    json[QStringLiteral("final_count")] = finalCount >= 0 ? QJsonValue(finalCount) : unknown;
    json[QStringLiteral("members_at_end")] = membersAtEnd >= 0 ? QJsonValue(membersAtEnd) : unknown;
    return json;
}

ServerInfo BurstSummary::server() const
{
    ServerInfo info;
    info.version = serverVersion;
    info.name = serverName.isEmpty() ? QStringLiteral("redis") : serverName;
    info.nameVersion = serverOwnVersion.isEmpty() ? serverVersion : serverOwnVersion;
    return info;
}

QJsonObject BurstSummary::toJson() const
{
    QJsonObject json;
    json[QStringLiteral("schema")] = QStringLiteral("zsetlab.summary/1");
    json[QStringLiteral("server_version")] = serverVersion;
    json[QStringLiteral("server_name")] = serverName;
    // The server as its users name it, and the Redis version it is compatible with.
    json[QStringLiteral("server")]
        = QJsonObject {{QStringLiteral("flavour"), serverName.isEmpty() ? QStringLiteral("redis") : serverName},
                       {QStringLiteral("version"), serverOwnVersion.isEmpty() ? serverVersion : serverOwnVersion},
                       {QStringLiteral("redis_version"), serverVersion}};
    json[QStringLiteral("strategy")] = limiter; // the key's first name, kept for the files and scripts that read it
    json[QStringLiteral("key")] = QString::fromUtf8(key);
    json[QStringLiteral("clock")] = clock;
    json[QStringLiteral("pace")] = pacing;
    json[QStringLiteral("requests")] = requests;
    json[QStringLiteral("sent")] = sent;
    json[QStringLiteral("errors")] = errors;
    // Unknown is null, not a number that looks measured.
    const QJsonValue unknown(QJsonValue::Null);
    json[QStringLiteral("stored")] = addedKnown() ? QJsonValue(stored) : unknown;
    json[QStringLiteral("overwritten")] = addedKnown() ? QJsonValue(overwritten) : unknown;
    json[QStringLiteral("lost")] = addedKnown() ? QJsonValue(lost) : unknown;
    json[QStringLiteral("added_unknown")] = addedUnknown;
    json[QStringLiteral("members_at_end")] = membersAtEnd >= 0 ? QJsonValue(membersAtEnd) : unknown;
    json[QStringLiteral("final_count")] = finalCount;
    json[QStringLiteral("max_count")] = maxCount;
    json[QStringLiteral("limit")] = limit;
    json[QStringLiteral("admitted")] = admitted;
    json[QStringLiteral("admitted_over_limit")] = admittedOverLimit;
    json[QStringLiteral("duration_ms")] = durationMs;
    json[QStringLiteral("throughput_rps")] = throughputRps;
    json[QStringLiteral("latency_us_p50")] = latencyUsP50;
    json[QStringLiteral("latency_us_p99")] = latencyUsP99;
    json[QStringLiteral("stopped")] = stopped;
    json[QStringLiteral("reconnects")] = reconnects;
    json[QStringLiteral("error_messages")] = QJsonArray::fromStringList(errorMessages);
    json[QStringLiteral("users")] = users;
    if (!perUser.isEmpty()) {
        QJsonArray users;
        for (const UserResult& user : perUser)
            users.append(user.toJson(addedKnown()));
        json[QStringLiteral("per_user")] = users;
        QJsonArray nodes;
        for (const UserResult& node : perNode())
            nodes.append(node.toJson(addedKnown()));
        json[QStringLiteral("per_node")] = nodes;
    }
    if (!keysLeft.isEmpty()) {
        QJsonArray left;
        for (const LeftKey& key : keysLeft) {
            QJsonObject one;
            one[QStringLiteral("key")] = QString::fromUtf8(key.key);
            one[QStringLiteral("why")] = key.why;
            one[QStringLiteral("ttl_ms")] = key.ttlMs;
            one[QStringLiteral("node")] = key.node;
            left.append(one);
        }
        json[QStringLiteral("keys_left")] = left;
    }
    if (sandbox.mode != ScriptSandboxing::Mode::None)
        json[QStringLiteral("script_sandbox")] = sandbox.toJson();
    if (serverMemory.wasRead())
        json[QStringLiteral("server_memory")] = serverMemory.toJson();
    if (failure.isFailure()) {
        QJsonObject error;
        error[QStringLiteral("message")] = failure.message;
        if (failure.scriptLine > 0)
            error[QStringLiteral("line")] = failure.scriptLine;
        json[QStringLiteral("error")] = error;
    }
    return json;
}

QString BurstSummary::toText() const
{
    QStringList lines;
    lines << QStringLiteral("limiter %1 on %2, key %3").arg(limiter, server().displayName(), QString::fromUtf8(key));
    lines << QStringLiteral("  sent          %L1 of %L2%3")
                 .arg(sent)
                 .arg(requests)
                 .arg(stopped ? QStringLiteral(" (stopped)") : QString());
    lines << QStringLiteral("  errors        %L1").arg(errors);
    for (const QString& message : errorMessages)
        lines << QStringLiteral("                %1").arg(message);
    if (addedKnown()) {
        lines << QStringLiteral("  stored        %L1   (requests that got a member of their own)").arg(stored);
        lines << QStringLiteral("  overwritten   %L1   (ZADD only updated an existing member)").arg(overwritten);
        lines << QStringLiteral("  lost          %L1   (%2 % of the requests were never counted)")
                     .arg(lost)
                     .arg(lostPercent(), 0, 'f', 1);
    } else {
        lines << QStringLiteral("  stored        unknown   (%L1 replies did not say whether ZADD added: the script "
                                "answers only a count)")
                     .arg(addedUnknown);
        lines << QStringLiteral("  overwritten   unknown");
        lines << QStringLiteral("  lost          unknown");
    }
    if (membersAtEnd >= 0)
        lines << QStringLiteral("  members       %L1   (ZCARD when the burst ended)").arg(membersAtEnd);
    lines << QStringLiteral("  final count   %1   max count %L2")
                 .arg(finalCount < 0 ? QStringLiteral("?") : QString::number(finalCount))
                 .arg(maxCount);
    if (limit > 0)
        lines << QStringLiteral("  admitted      %L1 with limit %L2, %L3 of them beyond the limit")
                     .arg(admitted)
                     .arg(limit)
                     .arg(admittedOverLimit);
    else
        lines << QStringLiteral("  admitted      %L1 (no limit)").arg(admitted);
    lines << QStringLiteral("  duration      %1 ms, %2 requests/s, latency p50 %3 us, p99 %4 us")
                 .arg(durationMs, 0, 'f', 1)
                 .arg(throughputRps, 0, 'f', 0)
                 .arg(latencyUsP50)
                 .arg(latencyUsP99);
    if (!perUser.isEmpty()) {
        const QVector<UserResult> nodes = perNode();
        lines << QStringLiteral("  users         %L1 keys on %2 node(s):").arg(users).arg(nodes.size());
        for (const UserResult& node : nodes)
            lines << QStringLiteral("    %1  %L2 users, sent %L3, errors %L4, overwritten %5, beyond the limit %L6")
                         .arg(node.node)
                         .arg(node.users)
                         .arg(node.sent)
                         .arg(node.errors)
                         .arg(addedKnown() ? QStringLiteral("%L1").arg(node.overwritten) : QStringLiteral("?"))
                         .arg(node.admittedOverLimit);
        // The users the limiter failed most: admitted beyond the limit, then overwritten.
        QVector<UserResult> worst = perUser;
        std::sort(worst.begin(), worst.end(), [](const UserResult& a, const UserResult& b) {
            return std::tie(b.admittedOverLimit, b.overwritten, a.user)
                < std::tie(a.admittedOverLimit, a.overwritten, b.user);
        });
        worst.resize(std::min<int>(worst.size(), 3));
        for (const UserResult& user : worst)
            lines << QStringLiteral("    user %1 (%2): sent %L3, overwritten %4, beyond the limit %L5")
                         .arg(user.user)
                         .arg(QString::fromUtf8(user.key))
                         .arg(user.sent)
                         .arg(addedKnown() ? QStringLiteral("%L1").arg(user.overwritten) : QStringLiteral("?"))
                         .arg(user.admittedOverLimit);
    }
    if (reconnects > 0)
        lines << QStringLiteral("  reconnects    %L1   (the server dropped the connection; the run went on)")
                     .arg(reconnects);
    if (const QString sandboxText = sandbox.toText(); !sandboxText.isEmpty())
        lines << sandboxText;
    if (serverMemory.evicts() || (serverMemory.wasRead() && !serverMemory.known))
        lines << QStringLiteral("  memory        %1").arg(serverMemory.describe());
    if (failure.isFailure())
        lines << QStringLiteral("  error         %1").arg(failure.message);
    return lines.join(QLatin1Char('\n'));
}

QString BurstSummary::keysLeftText() const
{
    if (keysLeft.isEmpty())
        return QString();
    QStringList keys;
    QStringList ttls;
    constexpr int named = 10; // a run of many users may leave many: the first ones, and how many
    for (const LeftKey& left : keysLeft.mid(0, named)) {
        keys << QString::fromUtf8(left.key);
        ttls << (left.ttlMs >= 0
                     ? Text::tr("%1 expires in %L2 s").arg(QString::fromUtf8(left.key)).arg((left.ttlMs + 999) / 1000)
                     : Text::tr("%1 has no TTL").arg(QString::fromUtf8(left.key)));
    }
    const LeftKey& first = keysLeft.first();
    return Text::tr("The run could not delete %n key(s) it made on %1 (%2): %3. %4. Delete them with: redis-cli DEL %5",
                    nullptr, int(keysLeft.size()))
        .arg(first.node, first.why,
             keys.join(QStringLiteral(", "))
                 + (keysLeft.size() > named ? Text::tr(" and %L1 more").arg(keysLeft.size() - named) : QString()),
             ttls.join(QStringLiteral(", ")), keys.join(QLatin1Char(' ')));
}
