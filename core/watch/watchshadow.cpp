#include "watchshadow.h"

#include "watchshadowkey.h"

#include <QCryptographicHash>

#include <cmath>
#include <limits>

// The stream: which command a MONITOR line is, the keys and script calls it reaches, the scripts
// it shows, and the figures read off the copies (what a write does to a copy: watchshadowwrites.cpp).

namespace {
QByteArray sha1Hex(const QByteArray& body)
{
    return QCryptographicHash::hash(body, QCryptographicHash::Sha1).toHex();
}

} // namespace

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
    if (!followScriptCall(line, command))
        return;
    if (!applyToKeys(line, command))
        applyToKey(line, command, commandName);
}

bool WatchShadow::followScriptCall(const MonitorLine& line, Command command)
{
    if (!line.fromScript()) {
        m_call.active = command == Command::Eval || command == Command::EvalSha || command == Command::Fcall;
        if (m_call.active) {
            beginScriptCall(command, line.arguments.value(1));
            return false;
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
    return true;
}

bool WatchShadow::applyToKeys(const MonitorLine& line, Command command)
{
    switch (command) {
    case Command::FlushAll:
    case Command::FlushDb:
        for (const auto& key : std::as_const(m_keys)) {
            if (command == Command::FlushAll || key->figures.db == line.db)
                deleteKey(key.get(), true);
        }
        return true;
    case Command::SwapDb:
        for (const auto& key : std::as_const(m_keys)) {
            key->figures.stateKnown = false;
            key->truthKnown = false;
            key->lowestWritten = std::numeric_limits<double>::infinity();
        }
        return true;
    case Command::Delete:
        for (qsizetype i = 1; i < line.arguments.size(); ++i) {
            if (Key* key = keyFor(line.db, line.arguments.at(i), false)) {
                touch(key, line);
                deleteKey(key, true);
            }
        }
        return true;
    case Command::Rename:
    case Command::RenameNx:
        applyRename(line, command == Command::RenameNx);
        return true;
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
        return true;
    }
    default:
        return false;
    }
}

void WatchShadow::applyToKey(const MonitorLine& line, Command command, const QByteArray& commandName)
{
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
    if (key->expiresAtMs != Key::noDeadline && m_nowUs / 1000 > key->expiresAtMs)
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
        key->expiresAtMs = Key::noDeadline;
    capIfPastBounds(key);
}

WatchedKey WatchShadow::figuresOf(Key& key, bool takeRecords, bool last)
{
    WatchedKey figures = key.figures;
    figures.size = key.capped ? key.sizeAtCap : key.members.size();
    figures.trueCount = key.truthKnown ? qint64(key.truth.size()) : -1;
    figures.expiresAtUs = key.expiresAtMs == Key::noDeadline ? -1 : key.expiresAtMs * 1000;
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
        if (key->expiresAtMs != Key::noDeadline && m_nowUs / 1000 > key->expiresAtMs)
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
    figures.expiresAtUs = (*found)->expiresAtMs == Key::noDeadline ? -1 : (*found)->expiresAtMs * 1000;
    return figures;
}

const ZsetShadow* WatchShadow::members(int db, const QByteArray& key) const
{
    const auto found = m_keys.constFind(KeyId {db, key});
    return found == m_keys.constEnd() ? nullptr : &(*found)->members;
}
