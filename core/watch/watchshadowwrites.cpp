#include "watchshadow.h"

#include "watchshadowkey.h"

#include <QVarLengthArray>

#include <cmath>

// What a write command does to a watched key's copy: ZADD, ZINCRBY, the removals, the deadlines,
// a rename, a delete; and the bounds a copy may reach.

namespace {
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
    ZaddOptions options;
    qsizetype i = 2;
    for (; i < args.size(); ++i) {
        const QByteArray& option = args.at(i);
        if (option.size() != 2 && option.size() != 4) // a score, or a member
            break;
        if (isZaddOption(option, "NX"))
            options.nx = true;
        else if (isZaddOption(option, "XX"))
            options.xx = true;
        else if (isZaddOption(option, "GT"))
            options.gt = true;
        else if (isZaddOption(option, "LT"))
            options.lt = true;
        else if (isZaddOption(option, "INCR"))
            options.incr = true;
        else if (!isZaddOption(option, "CH"))
            break;
    }
    const qsizetype pairs = (args.size() - i) / 2;
    // The combinations Redis refuses change nothing (the command fails before writing).
    if (pairs == 0 || (args.size() - i) % 2 != 0 || (options.nx && options.xx)
        || (options.nx && (options.gt || options.lt)) || (options.gt && options.lt) || (options.incr && pairs != 1))
        return;
    QVarLengthArray<double, 8> scores(pairs);
    for (qsizetype p = 0; p < pairs; ++p) {
        if (!parseScore(args.at(i + 2 * p), &scores[p]))
            return;
    }
    if (!line.fromScript())
        countRequest(key, line);
    if (!key->recordsBegun)
        beginRecords(key);
    key->figures.exists = true;
    for (qsizetype p = 0; p < pairs; ++p)
        zaddMember(key, line, args.at(i + 2 * p + 1), scores[p], options);
}

void WatchShadow::beginRecords(Key* key)
{
    // What the key's recording starts from.
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

void WatchShadow::zaddMember(Key* key, const MonitorLine& line, const QByteArray& member, double given,
                             const ZaddOptions& options)
{
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
        const double updated = options.incr ? old + given : given;
        const bool write
            = !options.nx && !std::isnan(updated) && !(options.gt && updated <= old) && !(options.lt && updated >= old);
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
    } else if (options.xx) {
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
        key->expiresAtMs = Key::noDeadline;
    }
}

void WatchShadow::applyExpire(Key* key, const MonitorLine& line, Command command)
{
    const QList<QByteArray>& args = line.arguments;
    if (key->figures.stateKnown && key->members.size() == 0)
        return; // no key, nothing to expire
    if (command == Command::Persist) {
        if (args.size() == 2)
            key->expiresAtMs = Key::noDeadline;
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
        const bool hasDeadline = key->expiresAtMs != Key::noDeadline;
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
    key->expiresAtMs = Key::noDeadline;
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
