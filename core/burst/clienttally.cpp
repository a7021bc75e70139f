#include "clienttally.h"

#include "burstplan.h"
#include "clientprofile.h"
#include "results/requestlog.h"

#include <QHash>

QVector<ClientTally> ClientTally::fromLog(const RequestLog& log, const BurstPlan& plan)
{
    QVector<ClientTally> tallies(plan.clients.size());
    for (int c = 0; c < tallies.size(); ++c) {
        tallies[c].client = c;
        tallies[c].profile = clientProfileToString(plan.clients[c]);
    }
    // Who created each member: the request whose ZADD replied 1, whatever order the replies
    // came back in (each client sends on its own connection, so the log order is not Redis's).
    QHash<QByteArray, int> creator;
    for (int i = 0; i < log.size(); ++i) {
        if (log.isDone(i) && !log.isFailed(i) && log.added(i) == 1)
            creator.insert(log.member(i), log.connection(i));
    }
    for (int i = 0; i < log.size(); ++i) {
        if (!log.isDone(i) || log.connection(i) >= tallies.size())
            continue;
        ClientTally& tally = tallies[log.connection(i)];
        ++tally.sent;
        if (log.isFailed(i)) {
            ++tally.errors;
            continue;
        }
        if (log.added(i) == 1) {
            ++tally.stored;
        } else if (log.added(i) == 0) {
            ++tally.overwritten;
            const QByteArray member = log.member(i); // empty when the script did not name it
            const int owner = member.isEmpty() ? -1 : creator.value(member, -1);
            if (owner >= 0 && owner != log.connection(i))
                ++tally.overwroteOtherClient;
        }
        if (log.isAdmitted(i))
            ++tally.admitted;
        if (log.isAdmittedOverLimit(i))
            ++tally.admittedOverLimit;
    }
    return tallies;
}

QJsonObject ClientTally::toJson() const
{
    QJsonObject json;
    json[QStringLiteral("client")] = client + 1;
    json[QStringLiteral("profile")] = profile;
    json[QStringLiteral("sent")] = sent;
    json[QStringLiteral("errors")] = errors;
    json[QStringLiteral("stored")] = stored;
    json[QStringLiteral("overwritten")] = overwritten;
    json[QStringLiteral("overwrote_other_client")] = overwroteOtherClient;
    json[QStringLiteral("admitted")] = admitted;
    json[QStringLiteral("admitted_over_limit")] = admittedOverLimit;
    return json;
}
