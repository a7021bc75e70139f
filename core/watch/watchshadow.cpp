#include "watchshadow.h"

#include <QCryptographicHash>
#include <QVarLengthArray>

#include <cmath>
#include <limits>

struct WatchShadow::Key
{
    WatchedKey figures; // counters and sources; records are kept below
    ZsetShadow members;
    // One score per request still inside the set's trims, as if each request had kept a member of
    // its own: the count a limiter with unique members would see.
    std::multiset<double> truth;
    bool truthKnown = false;
    double lowestWritten = std::numeric_limits<double>::infinity(); // since the state became unknown
    qint64 expiresAtMs = -1;
    qint64 lastCallId = -1;
    int currentSource = -1; // the source of the request being replayed, in figures.sources
    QByteArray currentSourceKey; // its key in sourceIndex
    QVector<WatchRecord> records;
    QHash<QByteArray, int> sourceIndex;
    bool recordsBegun = false; // a ZADD of the key was recorded
    qint64 lastRecordCall = -1; // the script call that made the last record (-1: a plain command)
    std::vector<WatchMember> removed; // since the key's previous ZADD record (members' sink)
    std::vector<WatchMember> preexisting; // not handed on yet
    bool capped = false; // its copy reached a bound (WatchLimits): followed no further
    qint64 sizeAtCap = 0;
};

namespace {
const qint64 noDeadline = -1;

QByteArray sha1Hex(const QByteArray& body)
{
    return QCryptographicHash::hash(body, QCryptographicHash::Sha1).toHex();
}

bool readInteger(const QByteArray& text, qint64* value)
{
    bool ok = false;
    *value = text.toLongLong(&ok);
    return ok;
}

// A number as QByteArray::toDouble() reads it, digits alone without its detour.
bool readNumber(const QByteArray& text, double* value)
{
    if (readPlainInteger(text, value))
        return true;
    bool ok = false;
    *value = text.toDouble(&ok);
    return ok;
}

// A ZADD option: NX, XX, GT, LT, INCR or CH in any case.
bool isZaddOption(const QByteArray& text, const char* option)
{
    return text.compare(option, Qt::CaseInsensitive) == 0;
}
} // namespace

// The commands the shadow replays, found once per line by name instead of comparing the name with
// each in turn.
enum class WatchShadow::Command : quint8 {
    Other,
    Eval, // EVAL, EVAL_RO
    EvalSha, // EVALSHA, EVALSHA_RO
    Fcall, // FCALL, FCALL_RO
    Script,
    FlushAll,
    FlushDb,
    SwapDb,
    Delete, // DEL, UNLINK
    Rename,
    RenameNx,
    // Commands that leave a key's content to something the shadow does not replay: its state is
    // unknown afterwards. The key is the first argument, the second, or any (ZMPOP, BZPOPMIN:
    // which key they popped from is not in the line).
    UnknownFirst,
    UnknownSecond,
    UnknownAny,
    Zadd,
    Zincrby,
    Zrem,
    ZremRangeByScore,
    ZremRangeByRank,
    ZremRangeByLex,
    ZpopMin,
    ZpopMax,
    Expire,
    Pexpire,
    ExpireAt,
    PexpireAt,
    Persist,
};

WatchShadow::Command WatchShadow::commandNamed(const QByteArray& upperCaseName)
{
    // Compared, not listed: zsetlab's sources never hold these names where a command is built.
    if (upperCaseName == "FLUSHALL")
        return Command::FlushAll;
    if (upperCaseName == "FLUSHDB")
        return Command::FlushDb;
    static const QHash<QByteArray, Command> byName {
        {"EVAL", Command::Eval},
        {"EVAL_RO", Command::Eval},
        {"EVALSHA", Command::EvalSha},
        {"EVALSHA_RO", Command::EvalSha},
        {"FCALL", Command::Fcall},
        {"FCALL_RO", Command::Fcall},
        {"SCRIPT", Command::Script},
        {"SWAPDB", Command::SwapDb},
        {"DEL", Command::Delete},
        {"UNLINK", Command::Delete},
        {"RENAME", Command::Rename},
        {"RENAMENX", Command::RenameNx},
        {"ZUNIONSTORE", Command::UnknownFirst},
        {"ZINTERSTORE", Command::UnknownFirst},
        {"ZDIFFSTORE", Command::UnknownFirst},
        {"ZRANGESTORE", Command::UnknownFirst},
        {"RESTORE", Command::UnknownFirst},
        {"SET", Command::UnknownFirst},
        {"GETSET", Command::UnknownFirst},
        {"MOVE", Command::UnknownFirst},
        {"COPY", Command::UnknownSecond},
        {"ZMPOP", Command::UnknownAny},
        {"BZMPOP", Command::UnknownAny},
        {"BZPOPMIN", Command::UnknownAny},
        {"BZPOPMAX", Command::UnknownAny},
        {"ZADD", Command::Zadd},
        {"ZINCRBY", Command::Zincrby},
        {"ZREM", Command::Zrem},
        {"ZREMRANGEBYSCORE", Command::ZremRangeByScore},
        {"ZREMRANGEBYRANK", Command::ZremRangeByRank},
        {"ZREMRANGEBYLEX", Command::ZremRangeByLex},
        {"ZPOPMIN", Command::ZpopMin},
        {"ZPOPMAX", Command::ZpopMax},
        {"EXPIRE", Command::Expire},
        {"PEXPIRE", Command::Pexpire},
        {"EXPIREAT", Command::ExpireAt},
        {"PEXPIREAT", Command::PexpireAt},
        {"PERSIST", Command::Persist},
    };
    return byName.value(upperCaseName, Command::Other);
}

WatchShadow::WatchShadow(QList<KeyPattern> patterns, int db, Limits limits)
    : m_patterns(std::move(patterns))
    , m_db(db)
    , m_limits(limits)
{ }

WatchShadow::~WatchShadow() = default;

bool WatchShadow::watches(int db, const QByteArray& key) const
{
    return (m_db < 0 || db == m_db) && KeyPattern::anyMatches(m_patterns, key);
}

bool WatchShadow::feed(const QByteArray& rawLine)
{
    if (!MonitorLine::parse(rawLine, &m_line, nullptr, m_quotesMayBeUnescaped)) {
        ++m_droppedLines;
        return false;
    }
    feed(m_line);
    return true;
}

WatchShadow::Key* WatchShadow::keyFor(int db, const QByteArray& key, bool create)
{
    if (m_lastKey && m_lastKey->figures.db == db && m_lastKey->figures.key == key)
        return m_lastKey->capped ? nullptr : m_lastKey;
    if (!watches(db, key))
        return nullptr;
    const KeyId id {db, key};
    const auto found = m_keys.constFind(id);
    if (found != m_keys.constEnd()) {
        m_lastKey = found->get();
        return m_lastKey->capped ? nullptr : m_lastKey;
    }
    if (!create)
        return nullptr;
    if (m_keys.size() >= m_limits.keys) {
        ++m_droppedKeys;
        return nullptr;
    }
    auto made = std::make_shared<Key>();
    made->members.setRemovalSink(&made->removed);
    made->members.setByteTotal(&m_memberBytes);
    made->figures.db = db;
    made->figures.key = key;
    made->figures.stateKnown = false;
    m_keys.insert(id, made);
    m_toRead.append({db, key});
    m_lastKey = made.get();
    return m_lastKey;
}

void WatchShadow::beginScriptCall(Command command, const QByteArray& target)
{
    ++m_scriptCalls;
    ++m_call.id;
    m_call.kind = WatchSource::Kind::Script;
    QByteArray sourceId;
    if (command == Command::Fcall) {
        sourceId = "function " + target;
    } else if (command == Command::EvalSha) {
        sourceId = target.toLower();
        if (!m_askNoMore && !m_scripts.contains(sourceId) && !m_scriptsAsked.contains(sourceId)
            && m_scriptsAsked.size() < m_limits.scripts) {
            m_scriptsAsked.insert(sourceId);
            m_scriptsToRead.append(sourceId);
        }
    } else {
        sourceId = sha1Hex(target);
        noteScript(target, sourceId);
    }
    if (sourceId != m_call.sourceId) { // an app calls the same script again and again
        m_call.sourceKey = 's' + sourceId;
        m_call.sourceId = std::move(sourceId);
    }
}

void WatchShadow::feed(const MonitorLine& line)
{
    apply(line);
    if (m_lastKey && !m_lastKey->capped)
        capIfPastBounds(m_lastKey);
    if (m_lastKey && m_lastKey->capped)
        return;
    // What a script removed after its ZADD (a trim, its own member when refused) is part of that
    // request; the record is still here (snapshot() keeps it back while its call may go on).
    Key* key = m_lastKey;
    if (key && line.fromScript() && !key->removed.empty() && m_call.active && key->lastRecordCall == m_call.id
        && !key->records.isEmpty()) {
        std::vector<WatchMember>& after = key->records.last().removedAfter;
        after.insert(after.end(), key->removed.begin(), key->removed.end());
        key->removed.clear();
    }
}

void WatchShadow::apply(const MonitorLine& line)
{
    ++m_commandsSeen;
    m_nowUs = line.timeUs;
    const QByteArray commandName = line.command();
    const Command command = commandNamed(commandName);
    if (!line.fromScript()) {
        m_call.active = command == Command::Eval || command == Command::EvalSha || command == Command::Fcall;
        if (m_call.active) {
            beginScriptCall(command, line.arguments.value(1));
            return;
        }
        if (command == Command::Script && line.arguments.value(1).toUpper() == "LOAD")
            noteScript(line.arguments.value(2), {});
    } else if (!m_call.active) { // the watch began inside a script's run
        m_call.active = true;
        ++m_call.id;
        m_call.kind = WatchSource::Kind::Script;
        m_call.sourceId = "?";
        m_call.sourceKey = "s?";
    }

    switch (command) {
    case Command::FlushAll:
    case Command::FlushDb:
        for (const auto& key : std::as_const(m_keys)) {
            if (command == Command::FlushAll || key->figures.db == line.db)
                deleteKey(key.get(), true);
        }
        return;
    case Command::SwapDb:
        for (const auto& key : std::as_const(m_keys)) {
            key->figures.stateKnown = false;
            key->truthKnown = false;
            key->lowestWritten = std::numeric_limits<double>::infinity();
        }
        return;
    case Command::Delete:
        for (qsizetype i = 1; i < line.arguments.size(); ++i) {
            if (Key* key = keyFor(line.db, line.arguments.at(i), false)) {
                touch(key, line);
                deleteKey(key, true);
            }
        }
        return;
    case Command::Rename:
    case Command::RenameNx:
        applyRename(line, command == Command::RenameNx);
        return;
    case Command::UnknownFirst:
    case Command::UnknownSecond:
    case Command::UnknownAny: {
        const qsizetype from = command == Command::UnknownSecond ? 2 : 1;
        const qsizetype to = command == Command::UnknownAny ? line.arguments.size() : from + 1;
        for (qsizetype i = from; i < to && i < line.arguments.size(); ++i) {
            if (Key* key = keyFor(line.db, line.arguments.at(i), false)) {
                key->figures.stateKnown = false;
                key->truthKnown = false;
                key->lowestWritten = std::numeric_limits<double>::infinity();
                m_toRead.append({line.db, key->figures.key});
            }
        }
        return;
    }
    default:
        break;
    }

    const QByteArray keyName = line.arguments.value(1);
    const bool sortedSetCommand = commandName.startsWith('Z') && line.arguments.size() >= 2;
    Key* key = keyFor(line.db, keyName, sortedSetCommand);
    if (!key)
        return;
    touch(key, line);
    switch (command) {
    case Command::Zadd:
        applyZadd(key, line);
        break;
    case Command::Zincrby:
        applyZincrby(key, line);
        break;
    case Command::Zrem:
    case Command::ZremRangeByScore:
    case Command::ZremRangeByRank:
    case Command::ZremRangeByLex:
    case Command::ZpopMin:
    case Command::ZpopMax:
        applyRemove(key, line, command);
        break;
    case Command::Expire:
    case Command::Pexpire:
    case Command::ExpireAt:
    case Command::PexpireAt:
    case Command::Persist:
        applyExpire(key, line, command);
        break;
    default:
        break;
    }
}

void WatchShadow::touch(Key* key, const MonitorLine& line)
{
    // A key past its deadline is gone when a command next reaches it, as Redis expires it then.
    if (key->expiresAtMs != noDeadline && m_nowUs / 1000 > key->expiresAtMs)
        deleteKey(key, true);
    if (line.fromScript())
        countRequest(key, line);
}

void WatchShadow::countRequest(Key* key, const MonitorLine& line)
{
    WatchSource::Kind kind = WatchSource::Kind::Client;
    QByteArray sourceId = line.source;
    QByteArray sourceKey;
    if (line.fromScript()) {
        if (key->lastCallId == m_call.id) // one request per script call, however many commands it ran
            return;
        key->lastCallId = m_call.id;
        kind = m_call.kind;
        sourceId = m_call.sourceId;
        sourceKey = m_call.sourceKey;
    } else {
        sourceKey = 'c' + sourceId;
    }
    ++key->figures.requests;
    if (key->currentSource >= 0 && sourceKey == key->currentSourceKey) { // the same source as last time
        ++key->figures.sources[key->currentSource].requests;
        return;
    }
    const auto found = key->sourceIndex.constFind(sourceKey);
    if (found != key->sourceIndex.constEnd()) {
        key->currentSource = *found;
        key->currentSourceKey = sourceKey;
        ++key->figures.sources[*found].requests;
    } else if (key->figures.sources.size() < m_limits.sourcesPerKey) {
        key->currentSource = int(key->figures.sources.size());
        key->currentSourceKey = sourceKey;
        key->sourceIndex.insert(sourceKey, key->currentSource);
        key->figures.sources.append({kind, sourceId, 1, 0});
    } else {
        key->currentSource = -1;
        ++key->figures.otherSources;
    }
}

void WatchShadow::record(Key* key, const WatchRecord& record)
{
    if (key->records.size() >= m_limits.recordsPerKey) {
        ++key->figures.droppedRecords;
        return;
    }
    key->records.append(record);
}

void WatchShadow::applyZadd(Key* key, const MonitorLine& line)
{
    const QList<QByteArray>& args = line.arguments;
    bool nx = false, xx = false, gt = false, lt = false, incr = false;
    qsizetype i = 2;
    for (; i < args.size(); ++i) {
        const QByteArray& option = args.at(i);
        if (option.size() != 2 && option.size() != 4) // a score, or a member
            break;
        if (isZaddOption(option, "NX"))
            nx = true;
        else if (isZaddOption(option, "XX"))
            xx = true;
        else if (isZaddOption(option, "GT"))
            gt = true;
        else if (isZaddOption(option, "LT"))
            lt = true;
        else if (isZaddOption(option, "INCR"))
            incr = true;
        else if (!isZaddOption(option, "CH"))
            break;
    }
    const qsizetype pairs = (args.size() - i) / 2;
    // The combinations Redis refuses change nothing (the command fails before writing).
    if (pairs == 0 || (args.size() - i) % 2 != 0 || (nx && xx) || (nx && (gt || lt)) || (gt && lt)
        || (incr && pairs != 1))
        return;
    QVarLengthArray<double, 8> scores(pairs);
    for (qsizetype p = 0; p < pairs; ++p) {
        if (!parseScore(args.at(i + 2 * p), &scores[p]))
            return;
    }
    if (!line.fromScript())
        countRequest(key, line);
    if (!key->recordsBegun) { // what the key's recording starts from
        key->recordsBegun = true;
        // Removed before this ZADD (a trim of its own call): there before the first request, gone
        // at it (its removedBefore). Unknown state: the read brings them (setKnownState).
        if (key->figures.stateKnown) {
            key->preexisting = key->removed;
            const std::vector<WatchMember> now = key->members.members();
            key->preexisting.insert(key->preexisting.end(), now.begin(), now.end());
        } else {
            key->removed.clear();
        }
    }
    key->figures.exists = true;
    for (qsizetype p = 0; p < pairs; ++p) {
        const QByteArray& member = args.at(i + 2 * p + 1);
        const double given = scores[p];
        ++key->figures.zadds;
        WatchRecord made;
        made.timeUs = line.timeUs;
        made.score = given;
        made.member = member;
        made.removedBefore = std::exchange(key->removed, {});
        double old = 0;
        if (key->members.find(member, &old)) {
            // The request found its member there already: whatever ZADD does to the score, the
            // set did not grow, and the limiter counts this request with an earlier one.
            const double updated = incr ? old + given : given;
            const bool write = !nx && !std::isnan(updated) && !(gt && updated <= old) && !(lt && updated >= old);
            if (write)
                key->members.set(member, updated);
            made.outcome = WatchRecord::Outcome::Overwrote;
            made.score = write ? updated : old;
            ++key->figures.overwrites;
            double asNumber = 0;
            if (readNumber(member, &asNumber) && asNumber == given)
                ++key->figures.overwritesOfTime;
            if (key->currentSource >= 0)
                ++key->figures.sources[key->currentSource].overwrites;
        } else if (xx) {
            made.outcome = WatchRecord::Outcome::Skipped;
        } else {
            key->members.set(member, given);
            ++key->figures.distinctMembers;
        }
        if (made.outcome != WatchRecord::Outcome::Skipped) {
            key->lowestWritten = std::min(key->lowestWritten, made.score);
            // Kept while the state is unknown too: a trim that makes it known keeps what it held.
            key->truth.insert(given);
            if (qint64(key->truth.size()) > m_limits.truthPerKey) {
                key->truthKnown = false;
                key->truth.clear();
            }
        }
        made.sizeAfter = key->members.size();
        made.truthAfter = key->truthKnown ? qint64(key->truth.size()) : -1;
        record(key, made);
        key->lastRecordCall = line.fromScript() ? m_call.id : -1;
    }
}

void WatchShadow::applyZincrby(Key* key, const MonitorLine& line)
{
    double increment = 0;
    if (line.arguments.size() != 4 || !parseScore(line.arguments.at(2), &increment))
        return;
    const QByteArray& member = line.arguments.at(3);
    const double score = key->members.contains(member) ? key->members.score(member) + increment : increment;
    if (std::isnan(score))
        return;
    key->members.set(member, score);
    key->figures.exists = true;
}

void WatchShadow::applyRemove(Key* key, const MonitorLine& line, Command command)
{
    const QList<QByteArray>& args = line.arguments;
    if (command == Command::Zrem) {
        for (qsizetype i = 2; i < args.size(); ++i) {
            const QByteArray& member = args.at(i);
            if (!key->members.contains(member))
                continue;
            const auto one = key->truth.find(key->members.score(member));
            if (one != key->truth.end())
                key->truth.erase(one);
            key->members.remove(member);
        }
    } else if (command == Command::ZremRangeByScore) {
        ScoreBound min, max;
        if (args.size() != 4 || !ScoreBound::parse(args.at(2), &min) || !ScoreBound::parse(args.at(3), &max))
            return;
        key->members.removeByScore(min, max);
        if (min.value < max.value || (min.value == max.value && !min.exclusive && !max.exclusive)) {
            const auto from = min.exclusive ? key->truth.upper_bound(min.value) : key->truth.lower_bound(min.value);
            const auto to = max.exclusive ? key->truth.lower_bound(max.value) : key->truth.upper_bound(max.value);
            key->truth.erase(from, to);
        }
        // A trim from the lowest scores past every score written since the watch began removes all
        // that the key held before it, when scores are times (as a limiter's are): known from here.
        if (!key->figures.stateKnown && min.value <= 0 && max.value >= key->lowestWritten) {
            key->figures.stateKnown = true;
            key->truthKnown = true;
        }
    } else if (command == Command::ZremRangeByRank || command == Command::ZremRangeByLex) {
        qint64 removed = 0;
        if (command == Command::ZremRangeByRank) {
            qint64 start = 0, stop = 0;
            if (args.size() != 4 || !readInteger(args.at(2), &start) || !readInteger(args.at(3), &stop))
                return;
            removed = key->members.removeByRank(start, stop);
            if (start == 0 && stop == -1) { // everything: empty, whatever it held
                deleteKey(key, true);
                removed = 0;
            }
        } else {
            LexBound min, max;
            if (args.size() != 4 || !LexBound::parse(args.at(2), &min) || !LexBound::parse(args.at(3), &max))
                return;
            removed = key->members.removeByLex(min, max);
        }
        if (removed > 0) // which requests' entries went is not known for ranks and names
            key->truthKnown = false;
    } else { // ZPOPMIN, ZPOPMAX
        qint64 count = 1;
        if (args.size() > 3 || (args.size() == 3 && (!readInteger(args.at(2), &count) || count < 0)))
            return;
        const bool highest = command == Command::ZpopMax;
        key->members.pop(count, highest);
        for (qint64 n = 0; n < count && !key->truth.empty(); ++n)
            key->truth.erase(highest ? std::prev(key->truth.end()) : key->truth.begin());
    }
    if (key->figures.stateKnown && key->members.size() == 0) { // Redis deletes an empty set
        key->figures.exists = false;
        key->expiresAtMs = noDeadline;
    }
}

void WatchShadow::applyExpire(Key* key, const MonitorLine& line, Command command)
{
    const QList<QByteArray>& args = line.arguments;
    if (key->figures.stateKnown && key->members.size() == 0)
        return; // no key, nothing to expire
    if (command == Command::Persist) {
        if (args.size() == 2)
            key->expiresAtMs = noDeadline;
        return;
    }
    qint64 amount = 0;
    if (args.size() < 3 || args.size() > 4 || !readInteger(args.at(2), &amount))
        return;
    const qint64 nowMs = m_nowUs / 1000;
    qint64 when = 0;
    if (command == Command::Expire)
        when = nowMs + amount * 1000;
    else if (command == Command::Pexpire)
        when = nowMs + amount;
    else if (command == Command::ExpireAt)
        when = amount * 1000;
    else
        when = amount;
    if (args.size() == 4) {
        const QByteArray flag = args.at(3).toUpper();
        const bool hasDeadline = key->expiresAtMs != noDeadline;
        if ((flag == "NX" && hasDeadline) || (flag == "XX" && !hasDeadline)
            || (flag == "GT" && (!hasDeadline || when <= key->expiresAtMs))
            || (flag == "LT" && hasDeadline && when >= key->expiresAtMs))
            return;
        if (flag != "NX" && flag != "XX" && flag != "GT" && flag != "LT")
            return;
    }
    if (when <= nowMs) { // a deadline in the past deletes the key at once
        deleteKey(key, true);
        return;
    }
    key->expiresAtMs = when;
}

void WatchShadow::deleteKey(Key* key, bool known)
{
    key->members.clear();
    key->truth.clear();
    key->truthKnown = known;
    key->figures.stateKnown = known;
    key->figures.exists = false;
    key->expiresAtMs = noDeadline;
    key->lowestWritten = std::numeric_limits<double>::infinity();
}

void WatchShadow::capIfPastBounds(Key* key)
{
    if (key->members.size() > m_limits.membersPerKey || key->members.bytes() > m_limits.memberBytes)
        cap(key);
    // Past the bound of all copies: the largest goes (one key, most often the one growing).
    while (m_memberBytes > m_limits.memberBytes) {
        Key* largest = nullptr;
        for (const auto& each : std::as_const(m_keys)) {
            if (!each->capped && (!largest || each->members.bytes() > largest->members.bytes()))
                largest = each.get();
        }
        if (!largest || largest->members.bytes() == 0)
            break;
        cap(largest);
    }
}

void WatchShadow::cap(Key* key)
{
    key->capped = true;
    key->sizeAtCap = key->members.size();
    ++m_cappedKeys;
    key->members.setRemovalSink(nullptr);
    key->members.clear(); // its memory back; the figures stay as they were
    key->truth.clear();
    key->truthKnown = false;
    key->removed.clear();
    key->figures.capped = true;
}

void WatchShadow::applyRename(const MonitorLine& line, bool onlyIfAbsent)
{
    if (line.arguments.size() != 3)
        return;
    const QByteArray& from = line.arguments.at(1);
    const QByteArray& to = line.arguments.at(2);
    if (from == to)
        return;
    Key* source = keyFor(line.db, from, false);
    Key* target = keyFor(line.db, to, source != nullptr);
    if (source)
        touch(source, line);
    if (target) {
        touch(target, line);
        if (onlyIfAbsent && (target->figures.exists || !target->figures.stateKnown))
            return; // RENAMENX did nothing, or (unknown target) may have done nothing: read again below
    }
    if (target) {
        if (source) {
            target->members.clear(); // what it held leaves it
            target->members = source->members;
            target->members.setRemovalSink(&target->removed); // not the source's
            target->members.setByteTotal(&m_memberBytes);
            m_memberBytes += target->members.bytes(); // a copy more, until the source's is cleared
            target->truth = source->truth;
            target->truthKnown = source->truthKnown;
            target->figures.stateKnown = source->figures.stateKnown;
            target->figures.exists = source->figures.exists;
            target->expiresAtMs = source->expiresAtMs; // RENAME keeps the time to live
            target->lowestWritten = source->lowestWritten;
        } else { // the content comes from a key the watch does not follow
            deleteKey(target, false);
            m_toRead.append({line.db, to});
        }
    }
    if (source)
        deleteKey(source, true);
}

void WatchShadow::noteScript(const QByteArray& body, const QByteArray& sha)
{
    if (body.isEmpty())
        return;
    const QByteArray id = sha.isEmpty() ? sha1Hex(body) : sha;
    if (m_scripts.contains(id))
        return;
    if (m_scripts.size() >= m_limits.scripts || body.size() > m_limits.scriptBytes
        || m_scriptBytes + body.size() > m_limits.scriptBytesInAll) {
        ++m_scriptsNotKept;
        return;
    }
    m_scriptBytes += body.size();
    m_scripts.insert(id, body);
}

QList<QByteArray> WatchShadow::takeScriptsToRead()
{
    QList<QByteArray> toRead;
    for (const QByteArray& sha : std::exchange(m_scriptsToRead, {})) {
        if (!m_scripts.contains(sha)) // a SCRIPT LOAD may have shown it since
            toRead.append(sha);
    }
    return toRead;
}

void WatchShadow::setScriptBody(const QByteArray& sha, const QByteArray& body)
{
    if (body.size() > m_limits.scriptBytes) { // not hashed, not kept: no limiter is that long
        ++m_scriptsNotKept;
        m_scriptsToRead.clear(); // a server that sends such bodies is asked no more
        m_askNoMore = true;
    } else if (!body.isEmpty() && sha1Hex(body) == sha.toLower())
        noteScript(body, sha.toLower());
}

QList<WatchShadow::KeyName> WatchShadow::takeKeysToRead()
{
    return std::exchange(m_toRead, {});
}

void WatchShadow::setKnownState(int db, const QByteArray& keyName, const std::vector<ZsetShadow::Member>& members)
{
    Key* key = keyFor(db, keyName, true);
    if (!key)
        return;
    // The requests seen since the key was first seen stay counted; a member the watch did not
    // write was written before it: one request more (and, once the key's ZADDs are recorded, a
    // member its recording starts with).
    QHash<QByteArray, double> read;
    read.reserve(qsizetype(members.size()));
    for (const auto& [member, score] : members) {
        read.insert(member, score);
        if (!key->members.contains(member)) {
            key->truth.insert(score);
            if (key->recordsBegun)
                key->preexisting.emplace_back(member, score);
        }
    }
    // What the shadow held and the read did not: gone before the read, unseen.
    for (const auto& [member, score] : key->members.members()) {
        if (!read.contains(member))
            key->removed.emplace_back(member, score);
    }
    key->members.setRemovalSink(nullptr);
    key->members.clear();
    for (const auto& [member, score] : members)
        key->members.set(member, score);
    key->members.setRemovalSink(&key->removed);
    key->truthKnown = true;
    key->figures.stateKnown = true;
    key->figures.exists = !members.empty();
    if (members.empty())
        key->expiresAtMs = noDeadline;
    capIfPastBounds(key);
}

WatchedKey WatchShadow::figuresOf(Key& key, bool takeRecords, bool last)
{
    WatchedKey figures = key.figures;
    figures.size = key.capped ? key.sizeAtCap : key.members.size();
    figures.trueCount = key.truthKnown ? qint64(key.truth.size()) : -1;
    figures.expiresAtUs = key.expiresAtMs == noDeadline ? -1 : key.expiresAtMs * 1000;
    if (takeRecords) {
        const bool callGoesOn = !last && m_call.active && key.lastRecordCall >= 0 && key.lastRecordCall == m_call.id
            && !key.records.isEmpty();
        if (callGoesOn) { // all but the last record, which its call may still add to
            WatchRecord open = std::move(key.records.last());
            key.records.removeLast();
            figures.records = std::exchange(key.records, {});
            key.records.append(std::move(open));
        } else {
            figures.records = std::exchange(key.records, {});
        }
        figures.preexisting = std::exchange(key.preexisting, {});
    }
    return figures;
}

WatchSnapshot WatchShadow::snapshot(bool takeRecords, bool last)
{
    WatchSnapshot result;
    result.commandsSeen = m_commandsSeen;
    result.droppedLines = m_droppedLines;
    result.droppedKeys = m_droppedKeys;
    result.cappedKeys = m_cappedKeys;
    result.scriptsNotKept = m_scriptsNotKept;
    result.scriptCalls = m_scriptCalls;
    result.scripts = m_scripts;
    result.keys.reserve(m_keys.size());
    for (const auto& key : std::as_const(m_keys)) {
        if (key->expiresAtMs != noDeadline && m_nowUs / 1000 > key->expiresAtMs)
            deleteKey(key.get(), true);
        result.keys.append(figuresOf(*key, takeRecords, last));
    }
    std::sort(result.keys.begin(), result.keys.end(),
              [](const WatchedKey& a, const WatchedKey& b) { return a.db != b.db ? a.db < b.db : a.key < b.key; });
    return result;
}

WatchedKey WatchShadow::figures(int db, const QByteArray& key) const
{
    const auto found = m_keys.constFind(KeyId {db, key});
    if (found == m_keys.constEnd())
        return {};
    WatchedKey figures = (*found)->figures;
    figures.size = (*found)->members.size();
    figures.trueCount = (*found)->truthKnown ? qint64((*found)->truth.size()) : -1;
    figures.expiresAtUs = (*found)->expiresAtMs == noDeadline ? -1 : (*found)->expiresAtMs * 1000;
    return figures;
}

const ZsetShadow* WatchShadow::members(int db, const QByteArray& key) const
{
    const auto found = m_keys.constFind(KeyId {db, key});
    return found == m_keys.constEnd() ? nullptr : &(*found)->members;
}
