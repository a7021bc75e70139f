// BurstRun with several users (plan.users): their keys, and on a cluster the routing of each
// request to the master of its user's key (see BurstRun::UserGroup).
#include "burstrun.h"

#include "limiters/limiterstore.h"
#include "redis/keyslot.h"

#include <QCoreApplication>

namespace {
struct Text
{
    Q_DECLARE_TR_FUNCTIONS(BurstRun)
};

// A call that nodes keep sending elsewhere fails after this many redirects (a resharding left
// half way).
constexpr int maxRedirectsPerCall = 16;
} // namespace

bool BurstRun::prepareUsers(RedisConnection& control)
{
    const int users = m_plan.users;
    // One user on a cluster stays on the lanes that follow its key (BurstLanes::reroute()).
    if (m_cluster && users > 1) {
        if (!m_plan.clients.isEmpty()) {
            fail(BurstFailure::Kind::Plan,
                 Text::tr("On a cluster, give either several users or several app servers (clients), not both."));
            return false;
        }
        QString error;
        if (!m_nodeControls.open(m_endpoint, m_options, &error)) {
            fail(BurstFailure::Kind::Connection, error);
            return false;
        }
        m_routed = true;
        for (const auto& connection : m_nodeControls.all()) {
            auto group = std::make_unique<UserGroup>();
            group->node = connection->endpoint();
            m_groups.push_back(std::move(group));
        }
        m_groupOfUser.reset(new std::atomic<int>[size_t(users)]);
        m_userNodes.resize(size_t(users));
        for (int u = 0; u < users; ++u) {
            const int g = m_nodeControls.indexOfKey(m_userKeys[size_t(u)]);
            if (g < 0) {
                fail(BurstFailure::Kind::Connection,
                     Text::tr("No master of the cluster serves the key %1 (slot %2): redis-cli --cluster fix "
                              "repairs the slot map.")
                         .arg(QString::fromUtf8(m_userKeys[size_t(u)]))
                         .arg(KeySlot::of(m_userKeys[size_t(u)])));
                return false;
            }
            m_groupOfUser[size_t(u)] = g;
            m_userNodes[size_t(u)] = m_groups[size_t(g)]->node.address();
        }
        for (int id = 0; id < m_plan.requests; ++id)
            m_groups[size_t(m_groupOfUser[size_t(m_plan.userOf(id))].load())]->ids.push_back(id);
    } else {
        m_userNodes.assign(size_t(users), control.endpoint().address());
    }
    for (int u = 0; u < users && !m_stop; ++u) {
        RedisConnection* connection = controlOfUser(u, control);
        // A key the user named is claimed first, so that no other run finds it free meanwhile.
        if (!m_plan.key.isEmpty()) {
            QString held;
            if (!m_plan.limiter->store.claimKeys(*connection, m_userKeys[size_t(u)], m_runTag, claimTtlMs, &held)) {
                fail(BurstFailure::Kind::Script, held);
                return false;
            }
            m_claimedUsers.push_back(u);
        }
        if (const QString taken = m_plan.limiter->store.checkKeys(*connection, m_userKeys[size_t(u)], m_plan.reuseKey);
            !taken.isEmpty()) {
            fail(BurstFailure::Kind::Script, taken);
            return false;
        }
    }
    if (!m_routed)
        return loadScript(control);
    for (const auto& connection : m_nodeControls.all()) {
        if (!loadScript(*connection))
            return false;
    }
    return true;
}

RedisConnection* BurstRun::controlOfUser(int user, RedisConnection& control)
{
    return m_routed ? m_nodeControls.all()[size_t(m_groupOfUser[size_t(user)].load())].get() : &control;
}

void BurstRun::finishUsers(RedisConnection& control)
{
    const auto users = size_t(m_plan.users);
    m_userFinalCounts.assign(users, -1);
    m_userMembers.assign(users, -1);
    if (m_stop) {
        for (const auto& connection : m_nodeControls.all())
            connection->setCommandTimeout(std::chrono::milliseconds(50));
    }
    RedisConnection cleanup; // made once, when a user's keys could not be deleted on its own
    bool cleanupTried = false;
    qint64 count = 0;
    qint64 members = 0;
    bool countKnown = m_nextId > 0; // each: every user's answered
    bool membersKnown = countKnown;
    for (size_t u = 0; u < users; ++u) {
        RedisConnection* connection = controlOfUser(int(u), control);
        if (m_routed) // a MOVED may have sent the user elsewhere
            m_userNodes[u] = m_groups[size_t(m_groupOfUser[u].load())]->node.address();
        const QByteArray& key = m_userKeys[u];
        if (!connection->isOpen()) {
            countKnown = membersKnown = false;
        } else if (m_nextId > 0) {
            m_userFinalCounts[u] = m_plan.limiter->store.countInWindow(*connection, key, m_plan.windowInNowUnits());
            m_userMembers[u] = m_plan.limiter->store.size(*connection, key);
            countKnown = countKnown && m_userFinalCounts[u] >= 0;
            membersKnown = membersKnown && m_userMembers[u] >= 0;
            count += std::max<qint64>(m_userFinalCounts[u], 0);
            members += std::max<qint64>(m_userMembers[u], 0);
        }
        // A reused key held data before the run: it stays, whatever keepKey says.
        if ((m_plan.keepKey && !m_memoryStopped) || m_plan.reuseKey)
            continue;
        QString refused;
        if (connection->isOpen() && deleteUserKeys(*connection, key, &refused))
            continue;
        // A failed run may have lost this connection too (CLIENT KILL, a dropped link) while the
        // server still answers: try once more on a new one, briefly, rather than leave the keys
        // to their TTL (about 1,000 s for `now`, whose EXPIRE takes seconds).
        if (!cleanupTried) {
            cleanupTried = true;
            QString why;
            if (m_routed)
                cleanup.open(m_groups[size_t(m_groupOfUser[u].load())]->node, quickOptions());
            else
                openOnKeyNode(cleanup, quickOptions(), &why);
        }
        RedisConnection* other
            = cleanup.isOpen() && (!m_routed || cleanup.endpoint().address() == m_userNodes[u]) ? &cleanup : nullptr;
        if (other && deleteUserKeys(*other, key, &refused))
            continue;
        // Not deleted: the keys get a TTL if they have none, and the run says what is left.
        RedisConnection* any = other ? other : (connection->isOpen() ? connection : nullptr);
        const qint64 ttlMs = any ? m_plan.limiter->store.expireKeys(*any, key, leftoverTtlMs()) : -1;
        if (ttlMs == -2)
            continue; // gone after all
        LeftKey left;
        left.key = key;
        left.why = refused.isEmpty() ? Text::tr("the connection to the server was lost") : refused;
        left.ttlMs = ttlMs;
        left.node = m_userNodes[u];
        m_keysLeft.push_back(left);
    }
    m_finalCount = countKnown ? count : -1;
    m_membersAtEnd = membersKnown ? members : -1;
    releaseClaims(control);
}

bool BurstRun::deleteUserKeys(RedisConnection& connection, const QByteArray& key, QString* why)
{
    // A server busy with another client's script refuses DEL until that script ends: ask again
    // for a while (the run's own scripts are done by now), then leave it to the TTL. The while is
    // the whole cleanup's, from its first BUSY: a run of many users does not wait it per user.
    for (;;) {
        bool busy = false;
        if (m_plan.limiter->store.deleteKeys(connection, key, why, &busy))
            return true;
        if (!busy)
            return false;
        if (!m_busyGiveUpAt)
            m_busyGiveUpAt = Clock::now() + deleteWhileBusyFor;
        if (Clock::now() >= *m_busyGiveUpAt)
            return false;
        std::this_thread::sleep_for(deleteRetryEvery);
    }
}

qint64 BurstRun::leftoverTtlMs() const
{
    return std::max<qint64>(2 * m_plan.windowMs, minimumLeftoverTtlMs);
}

void BurstRun::releaseClaims(RedisConnection& control)
{
    for (const int user : m_claimedUsers) {
        RedisConnection* connection = controlOfUser(user, control);
        if (connection->isOpen())
            m_plan.limiter->store.releaseKeys(*connection, m_userKeys[size_t(user)], m_runTag);
    }
    m_claimedUsers.clear();
}

bool BurstRun::takeFromGroup(BurstLane& lane, std::vector<RequestRecord>* batch)
{
    while (lane.held < 0) {
        const size_t next = lane.group->next.fetch_add(1);
        if (next >= lane.group->ids.size())
            return false;
        const int id = lane.group->ids[next];
        const int g = m_groupOfUser[size_t(m_plan.userOf(id))].load(std::memory_order_relaxed);
        if (m_groups[size_t(g)].get() == lane.group) {
            lane.held = id;
        } else { // a MOVED sent this user to another master during the run
            m_nextId.fetch_add(1);
            deliver(g, {id, nowFor(id, lane.planConnection), Clock::now()}, batch);
        }
    }
    return true;
}

void BurstRun::redirectCall(BurstLane& lane, InFlightCall call, const ClusterRedirect& redirect,
                            const RedisReply& reply, std::vector<RequestRecord>* batch)
{
    if (call.id < 0)
        return;
    if (++call.redirects > maxRedirectsPerCall) {
        failCall(call, lane.planConnection,
                 Text::tr("The cluster sent the call elsewhere %1 times (the last answer: %2). A resharding may have "
                          "stopped half way: redis-cli --cluster fix repairs it.")
                     .arg(maxRedirectsPerCall)
                     .arg(reply.text()),
                 batch);
        return;
    }
    ClusterMap::Node node = redirect.node;
    if (node.host.isEmpty() || node.host == QLatin1String("?")) // "MOVED 3999 :6381": the host this lane reached
        node.host = lane.connection->endpoint().host;
    int g = -1;
    for (size_t i = 0; i < m_groups.size() && g < 0; ++i) {
        if (m_groups[i]->node.host == node.host && m_groups[i]->node.port == node.port)
            g = int(i);
    }
    if (g < 0) {
        failCall(call, lane.planConnection,
                 Text::tr("The cluster sent the key %1 to %2:%3, which was not one of its masters when the run "
                          "started: run again to follow the new slot map.")
                     .arg(QString::fromUtf8(keyOf(call.id)), node.host)
                     .arg(node.port),
                 batch);
        return;
    }
    call.ask = redirect.kind == ClusterRedirect::Kind::Ask;
    if (!call.ask) // the slot has moved for good: the user's next requests go there at once
        m_groupOfUser[size_t(m_plan.userOf(call.id))] = g;
    if (m_groups[size_t(g)].get() == lane.group)
        lane.resend.push_back(call);
    else
        deliver(g, call, batch);
}

bool BurstRun::deliver(int g, const InFlightCall& call, std::vector<RequestRecord>* batch)
{
    UserGroup& group = *m_groups[size_t(g)];
    QString why;
    {
        std::lock_guard<std::mutex> lock(group.mutex);
        if (!group.dead) {
            group.inbox.push_back(call);
            ++group.inboxSize;
            return true;
        }
        why = group.deadWhy;
    }
    failCall(call, 0, why, batch);
    return false;
}

void BurstRun::retireLane(BurstLane& lane, const QString& why, std::vector<RequestRecord>* batch)
{
    const QString error = Text::tr("Not sent: %1").arg(why);
    if (lane.held >= 0) {
        failCall({lane.held, nowFor(lane.held, lane.planConnection), Clock::now()}, lane.planConnection, error, batch);
        m_nextId.fetch_add(1);
        lane.held = -1;
    }
    for (const InFlightCall& call : lane.resend)
        failCall(call, lane.planConnection, error, batch);
    lane.resend.clear();
    if (--lane.group->lanesOpen == 0)
        abandonGroup(*lane.group, why, batch);
    handOver(batch);
}

void BurstRun::abandonGroup(UserGroup& group, const QString& why, std::vector<RequestRecord>* batch)
{
    std::deque<InFlightCall> inbox;
    QString error;
    {
        std::lock_guard<std::mutex> lock(group.mutex);
        if (group.dead)
            return;
        group.dead = true;
        group.deadWhy = error = Text::tr("Not sent: %1").arg(why);
        inbox.swap(group.inbox);
        group.inboxSize = 0;
    }
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_outage = why;
    }
    if (++m_groupsLost == int(m_groups.size())) { // no master left: nothing to go on with
        fail(BurstFailure::Kind::Connection, why);
        return;
    }
    for (const InFlightCall& call : inbox)
        failCall(call, 0, error, batch);
    // The requests this master's users had left: errors with the reason, the other masters'
    // users go on.
    for (size_t next = group.next.fetch_add(1); next < group.ids.size(); next = group.next.fetch_add(1)) {
        const int id = group.ids[next];
        m_nextId.fetch_add(1);
        const int g = m_groupOfUser[size_t(m_plan.userOf(id))].load();
        if (m_groups[size_t(g)].get() != &group)
            deliver(g, {id, nowFor(id, 0), Clock::now()}, batch);
        else
            failCall({id, nowFor(id, 0), Clock::now()}, 0, error, batch);
    }
}
