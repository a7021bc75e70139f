#include "scriptdoctor.h"

#include "commandkeys.h"
#include "keyslot.h"
#include "luaflow.h"
#include "luasyntax.h"

#include <QCoreApplication>
#include <QHash>
#include <QSet>

#include <algorithm>

namespace {
struct Text
{
    Q_DECLARE_TR_FUNCTIONS(ScriptDoctor)
};

} // namespace

using namespace LuaFlow;

namespace {
using Severity = ScriptFinding::Severity;
constexpr int maxExcerpt = 160; // characters of a line quoted with a finding

QString unitWord(int unit)
{
    switch (unit) {
    case 0:
        return Text::tr("second");
    case 1:
        return Text::tr("millisecond");
    case 2:
        return Text::tr("microsecond");
    case 3:
        return Text::tr("nanosecond");
    }
    return Text::tr("timestamp");
}

QString unitPlural(int unit)
{
    switch (unit) {
    case 0:
        return Text::tr("seconds");
    case 1:
        return Text::tr("milliseconds");
    case 2:
        return Text::tr("microseconds");
    case 3:
        return Text::tr("nanoseconds");
    }
    return Text::tr("unknown units");
}

// Where the ZSET of one key is added to, trimmed, counted and expired, in call order.
struct KeyStory
{
    int firstAdd = -1, addLine = 0;
    int firstTrim = -1;
    int firstCount = -1, countLine = 0; // ZCARD, or ZCOUNT over every score
    QVector<int> expires; // call indexes
    int expireLine = 0;
    int scoreUnit = -1;
    int boundUnit = -1, boundLine = 0;
};

class Doctor
{
    // A key the script builds from KEYS[n] and the call does not pass.
    struct BuiltKey
    {
        QByteArray id; // its name (KEYS[1]:seq), or where it was built when the name is not known
        QString command; // where it is first touched
        int line = 0;
        Value key;
        QVector<int> otherLines; // where it is touched again
    };

public:
    Doctor(const QByteArray& source, const CallTemplate& call, const Reading& reading, const QByteArray& appKey)
        : m_lines(source.split('\n'))
        , m_call(call)
        , m_reading(reading)
        , m_appKey(appKey)
    {
        for (const CallTemplate::Token& token : call.keys())
            m_keyShapes << keyShape(token);
        if (!appKey.isEmpty()) {
            CallValues values;
            values.key = appKey;
            values.nowMicros = 1710000000123456;
            values.windowMs = 60000;
            values.limit = 100;
            values.seq = 1;
            values.uuid = "0b5e2c6a-request";
            m_appKeys = call.expandKeys(values);
        }
    }

    QVector<ScriptFinding> findings(const LuaSyntax& syntax)
    {
        if (!syntax.compiles)
            checkSyntax(syntax);
        for (const RedisCall& call : m_reading.calls)
            checkCall(call);
        reportBuiltKeys();
        checkSlots();
        checkKeyStories();
        checkFacts(!syntax.compiles);
        std::stable_sort(m_findings.begin(), m_findings.end(),
                         [](const ScriptFinding& a, const ScriptFinding& b) { return a.line < b.line; });
        return m_findings;
    }

private:
    void add(int line, Severity severity, const char* code, const QString& title, const QString& explanation,
             const QString& suggestion)
    {
        const QString id = QLatin1String(code);
        for (const ScriptFinding& finding : std::as_const(m_findings)) {
            if (finding.code == id && finding.line == line)
                return;
        }
        ScriptFinding finding;
        finding.line = line;
        finding.severity = severity;
        finding.code = id;
        finding.title = title;
        finding.explanation = explanation;
        finding.suggestion = suggestion;
        finding.excerpt = QString::fromUtf8(m_lines.value(line - 1).trimmed());
        if (finding.excerpt.size() > maxExcerpt)
            finding.excerpt = finding.excerpt.left(maxExcerpt) + QStringLiteral("…");
        m_findings.append(finding);
    }

    // ARGV index of a per-request id the call already carries ({uuid} or {seq}), 0 if none.
    int idArgument() const
    {
        for (int i = 1; i <= m_call.argCount(); ++i) {
            CallTemplate::Placeholder p;
            if (m_call.argIsPlaceholder(i, &p)
                && (p == CallTemplate::Placeholder::Uuid || p == CallTemplate::Placeholder::Seq))
                return i;
        }
        return 0;
    }

    QString uniqueMemberSuggestion() const
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

    // A key of the call template as text that keeps placeholders apart from literal text, so that
    // keys are compared by how they are made, not by the values of one call.
    static QByteArray keyShape(const CallTemplate::Token& token)
    {
        QByteArray shape;
        for (const CallTemplate::Piece& piece : token) {
            if (!piece.isPlaceholder) {
                shape += piece.literal.toUtf8();
                continue;
            }
            shape.append('\0');
            shape += CallTemplate::placeholderName(piece.placeholder).toUtf8();
            for (const CallTemplate::Term& term : piece.terms) {
                shape.append(term.sign < 0 ? '-' : '+');
                shape += term.isPlaceholder ? CallTemplate::placeholderName(term.placeholder).toUtf8()
                                            : QByteArray::number(term.number);
            }
            shape.append('\0');
        }
        return shape;
    }

    // n of "KEYS[n]", 0 when the name is not one.
    static int keysIndex(const QByteArray& root)
    {
        if (!root.startsWith("KEYS[") || !root.endsWith(']'))
            return 0;
        return root.mid(5, root.size() - 6).toInt();
    }

    // KEYS[n] .. ':seq' is the template's KEYS[m] when both are made alike ({key}:seq): the key is
    // passed, under another index. Returns m (1-based), or 0 when no key of the call is this one.
    int passedAs(const Value& key) const
    {
        const int root = keysIndex(key.keyRoot);
        if (root < 1 || root > m_keyShapes.size() || key.keyName.isEmpty())
            return 0;
        const QByteArray shape = m_keyShapes.at(root - 1) + key.keyName.mid(key.keyRoot.size());
        return int(m_keyShapes.indexOf(shape)) + 1;
    }

    // "KEYS[1] .. ':seq'", as the script could write it.
    static QString builtKeyText(const Value& key)
    {
        if (key.keyName.isEmpty())
            return Text::tr("a key built from %1").arg(QString::fromUtf8(key.keyRoot));
        return QStringLiteral("%1 .. '%2'")
            .arg(QString::fromUtf8(key.keyRoot), QString::fromUtf8(key.keyName.mid(key.keyRoot.size()).left(80)));
    }

    // A key that does not start with one the caller passed: known text, ARGV, or literal text in
    // front of KEYS[n]. Values the reading could not follow are left alone.
    static QString keyDescription(const Value& key)
    {
        if (key.literalText)
            return Text::tr("the fixed name '%1'").arg(QString::fromUtf8(key.text.left(80)));
        if (key.argIndex > 0)
            return Text::tr("ARGV[%1], an argument, not a key").arg(key.argIndex);
        if (key.leadingText)
            return Text::tr("built with text in front of it ('prefix:' .. KEYS[1] is another key than KEYS[1])");
        return Text::tr("built from arguments or constants, not from KEYS");
    }

    void checkKeys(const RedisCall& call)
    {
        const QString command = QString::fromUtf8(call.command);
        const CommandKeys::Reach reach = CommandKeys::reach(call.command);
        if (reach == CommandKeys::Reach::Server) {
            add(call.line, Severity::Warning, "foreign-key",
                Text::tr("%1 reaches beyond the script's keys").arg(command),
                Text::tr("%1 works on the whole database or server, not on a key the caller passes: it can read or "
                         "change other clients' data, Redis Cluster cannot route it, and zsetlab's live probe runs "
                         "such a script only on a private redis-server of its own, never on the given one.")
                    .arg(command),
                Text::tr("A limiter needs only its own keys: remove the %1 call.").arg(command));
            return;
        }
        if (reach != CommandKeys::Reach::Keys)
            return;
        const auto numberAt = [&call](int i) -> qint64 {
            if (i >= call.args.size())
                return -1;
            const Value& v = call.args[i];
            if (v.hasLiteral)
                return qint64(v.literal);
            bool ok = false;
            const qint64 n = v.literalText ? v.text.toLongLong(&ok) : -1;
            return ok ? n : -1;
        };
        for (const int index : CommandKeys::keyArguments(call.command, int(call.args.size()), numberAt)) {
            if (index >= call.args.size())
                continue;
            const Value& key = call.args[index];
            if (!key.keyRoot.isEmpty()) {
                if (key.keyName == key.keyRoot)
                    m_passedKeyUses.append({call.line, keysIndex(key.keyRoot)});
                else if (const int passed = passedAs(key))
                    m_passedKeyUses.append({call.line, passed}); // built, and passed as well: declared
                else
                    noteBuiltKey(call, key);
                continue;
            }
            if (!key.literalText && !key.leadingText && (key.sources & FromUnknown))
                continue;
            add(call.line, Severity::Warning, "foreign-key",
                Text::tr("%1 uses a key the caller does not pass in KEYS").arg(command),
                Text::tr("The key of this %1 is %2. Redis expects every key a script touches in KEYS: on Redis "
                         "Cluster the call goes to the node that serves the slot of its KEYS, this key usually "
                         "lies on another node, and the call fails there (\"Script attempted to access a non local "
                         "key in a cluster node\"). A key that is the same for every caller is shared by all of "
                         "them, and nobody can tell whose data it is. zsetlab's live probe runs such a script on a "
                         "private redis-server of its own first, and on the given server only when that run "
                         "touched no other key.")
                    .arg(command, keyDescription(key)),
                Text::tr("Pass the key in KEYS (--keys \"{key} {key}:other\", then KEYS[2]) and give all of a "
                         "call's keys one hash tag so that they share a slot, e.g. rl:{user42} and "
                         "rl:{user42}:other."));
        }
    }

    // One finding per built key, where the script first touches it: the other lines need the same
    // change and are named in it.
    void noteBuiltKey(const RedisCall& call, const Value& key)
    {
        const QByteArray id
            = key.keyName.isEmpty() ? key.keyRoot + '@' + QByteArray::number(key.builtLine) : key.keyName;
        for (BuiltKey& built : m_builtKeys) {
            if (built.id == id) {
                if (built.line != call.line && !built.otherLines.contains(call.line))
                    built.otherLines << call.line;
                return;
            }
        }
        m_builtKeys.append({id, QString::fromUtf8(call.command), call.line, key, {}});
    }

    void reportBuiltKeys()
    {
        for (const BuiltKey& built : std::as_const(m_builtKeys))
            reportBuiltKey(built);
    }

    // A key the script makes from KEYS[n] (KEYS[1] .. ':seq') that the call does not pass: fine on
    // one server, a failure on a cluster unless it shares the hash tag of the keys passed.
    void reportBuiltKey(const BuiltKey& built)
    {
        const Value& key = built.key;
        const int root = keysIndex(key.keyRoot);
        const QString shown = builtKeyText(key);
        QString slotNote;
        if (root >= 1 && root <= m_appKeys.size() && !key.keyName.isEmpty()) {
            const QByteArray rootName = m_appKeys.at(root - 1);
            const QByteArray name = rootName + key.keyName.mid(key.keyRoot.size());
            const int slot = KeySlot::of(name);
            const int rootSlot = KeySlot::of(rootName);
            slotNote = slot == rootSlot
                ? Text::tr(" With the key %1 it is %2: the same hash tag, so the same slot (%3), and the call works "
                           "on a cluster as long as the caller's key carries a hash tag.")
                      .arg(QString::fromUtf8(rootName), QString::fromUtf8(name), QString::number(slot))
                : Text::tr(" With the key %1 it is %2, in slot %3, while %1 is in slot %4: on a cluster this "
                           "call fails unless one node happens to serve both slots.")
                      .arg(QString::fromUtf8(rootName), QString::fromUtf8(name), QString::number(slot),
                           QString::number(rootSlot));
        }
        QString suggestion;
        if (!key.keyName.isEmpty() && root >= 1 && root <= m_call.keyCount()) {
            QByteArray suffix = key.keyName.mid(key.keyRoot.size());
            const QString shownSuffix = QString::fromUtf8(suffix);
            suffix.replace("{", "{{").replace("}", "}}"); // literal braces, as --keys writes them
            const QString token = m_call.keysText().split(QLatin1Char(' ')).value(root - 1) + QString::fromUtf8(suffix);
            suggestion = Text::tr("Pass the key in KEYS (--keys \"%1 %2\", then read KEYS[%3] instead of building "
                                  "it) and give all of a call's keys one hash tag so that they share a slot, e.g. "
                                  "rl:{user42} and rl:{user42}%4: a hash tag in the caller's key keeps %5 .. '%4' "
                                  "in the same slot.")
                             .arg(m_call.keysText(), token, QString::number(m_call.keyCount() + 1), shownSuffix,
                                  QString::fromUtf8(key.keyRoot));
        } else {
            suggestion = Text::tr("Pass the key in KEYS (add it to --keys and read it from KEYS) and give all of a "
                                  "call's keys one hash tag so that they share a slot, e.g. rl:{user42} and "
                                  "rl:{user42}:seq: a hash tag in the caller's key keeps every key made by adding "
                                  "text after it in the same slot.");
        }
        QString again;
        if (!built.otherLines.isEmpty()) {
            QStringList lines;
            for (const int line : built.otherLines)
                lines << QString::number(line);
            again = Text::tr(" Other lines that touch it: %1.").arg(lines.join(QStringLiteral(", ")));
        }
        add(built.line, Severity::Warning, "undeclared-key",
            Text::tr("%1 uses %2, a key the caller does not pass in KEYS").arg(built.command, shown),
            Text::tr("The script builds this key from %1 instead of receiving it. Redis asks for every key a "
                     "script touches in KEYS, and Redis Cluster depends on it: the call goes to the node that "
                     "serves the slot of its KEYS, and a built key hashes to a slot of its own unless it shares "
                     "their hash tag. Such a key usually lies on another node, and the call stops at this line with "
                     "\"Script attempted to access a non local key in a cluster node\" (on Redis 7, a script that "
                     "starts with #!lua stops at any other slot); what the lines before it wrote stays written. On "
                     "a single server it works.")
                    .arg(QString::fromUtf8(key.keyRoot))
                + slotNote + again,
            suggestion);
    }

    // With the name of an application's key, the keys of one call as that application would pass
    // them: Redis Cluster refuses a call whose KEYS hash to more than one slot (CROSSSLOT).
    void checkSlots()
    {
        if (m_appKeys.size() < 2)
            return;
        QVector<int> keySlots;
        QStringList named;
        for (int i = 0; i < m_appKeys.size(); ++i) {
            keySlots << KeySlot::of(m_appKeys.at(i));
            named << Text::tr("KEYS[%1] = %2 (slot %3)")
                         .arg(QString::number(i + 1), QString::fromUtf8(m_appKeys.at(i)),
                              QString::number(keySlots.last()));
        }
        if (std::all_of(keySlots.cbegin(), keySlots.cend(), [&keySlots](int slot) { return slot == keySlots.first(); }))
            return;
        // Where the script first reaches a second slot; the call fails before it runs at all, so
        // without such a line, where it first touches a key.
        int line = m_passedKeyUses.isEmpty() ? 1 : m_passedKeyUses.first().line;
        int firstSlot = -1;
        for (const KeyUse& use : std::as_const(m_passedKeyUses)) {
            if (use.index < 1 || use.index > keySlots.size())
                continue;
            const int slot = keySlots.at(use.index - 1);
            if (firstSlot < 0) {
                firstSlot = slot;
            } else if (slot != firstSlot) {
                line = use.line;
                break;
            }
        }
        add(line, Severity::Warning, "cross-slot",
            Text::tr("The keys of one call lie in different Redis Cluster slots"),
            Text::tr("With the key %1 the call passes %2. Redis Cluster runs a script only when all its KEYS hash "
                     "to one slot, so every call fails with \"CROSSSLOT Keys in request don't hash to the same "
                     "slot\" before the script runs. On a single server it works.")
                .arg(QString::fromUtf8(m_appKey), named.join(QStringLiteral(", "))),
            Text::tr("Give all of a call's keys one hash tag: only the text between { and } is hashed, so "
                     "rl:{user42} and rl:{user42}:seq share the slot of user42. Every key here starts with {key}, "
                     "so a hash tag in the key the application passes is enough."));
    }

    void checkCall(const RedisCall& call)
    {
        const QByteArray& command = call.command;
        if (!command.isEmpty())
            checkKeys(call);
        if (command == "ZADD")
            checkAdd(call);
        else if (command == "EXPIRE" || command == "PEXPIRE" || command == "EXPIREAT" || command == "PEXPIREAT")
            checkExpire(call);
    }

    void checkAdd(const RedisCall& call)
    {
        static const QList<QByteArray> options {"NX", "XX", "GT", "LT", "CH", "INCR"};
        int i = 1;
        while (i < call.args.size() && call.args[i].literalText && options.contains(call.args[i].text.toUpper()))
            ++i;
        for (; i + 1 < call.args.size(); i += 2)
            checkMember(call.line, call.args[i], call.args[i + 1]);
    }

    void checkMember(int line, const Value& score, const Value& member)
    {
        for (const int lossy : member.lossyLines)
            m_lossyMembers.insert(lossy);
        if (member.sources & (FromUnique | FromUnknown))
            return;
        const QString builtOn = member.builtLine > 0 && member.builtLine != line
            ? Text::tr(" (The member is built on line %1.)").arg(member.builtLine)
            : QString();
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

    // A member made from the time is graded by how fine that time is and whose clock it is: a
    // millisecond (or a second) repeats within a burst; the server's microseconds do not repeat
    // on one server, which runs one script at a time; a client's microseconds repeat between
    // app servers.
    void checkTimeMember(int line, const Value& score, const Value& member, const QString& builtOn)
    {
        const int unit = score.role == Role::Time ? score.unit : member.role == Role::Time ? member.unit : -1;
        const int resolution = member.resolution >= 0 ? member.resolution : unit;
        const bool lossy = !member.lossyLines.isEmpty();
        const bool server = member.sources & FromServerTime;
        if (resolution >= 2 && !lossy && server) {
            add(line, Severity::Info, "member-is-time",
                Text::tr("The ZSET member is the server's time in microseconds"),
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
            add(line, Severity::Warning, "member-is-time",
                Text::tr("The ZSET member is the caller's time in microseconds"),
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

    void checkExpire(const RedisCall& call)
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

    void checkKeyStories()
    {
        QHash<QByteArray, KeyStory> stories;
        QList<QByteArray> order;
        for (int i = 0; i < m_reading.calls.size(); ++i) {
            const RedisCall& call = m_reading.calls[i];
            if (call.args.isEmpty())
                continue;
            const QByteArray key = call.args[0].keyName;
            if (!stories.contains(key))
                order << key;
            KeyStory& story = stories[key];
            const QByteArray& command = call.command;
            if (command == "ZADD" && story.firstAdd < 0) {
                story.firstAdd = i;
                story.addLine = call.line;
                for (int a = 1; a < call.args.size(); ++a) {
                    if (call.args[a].role == Role::Time) {
                        story.scoreUnit = call.args[a].unit;
                        break;
                    }
                }
            } else if (command == "ZREMRANGEBYSCORE" || command == "ZREMRANGEBYRANK" || command == "ZPOPMIN") {
                if (story.firstTrim < 0)
                    story.firstTrim = i;
                if (command == "ZREMRANGEBYSCORE" && call.args.size() > 2 && call.args[2].role == Role::Time
                    && story.boundUnit < 0) {
                    story.boundUnit = call.args[2].unit;
                    story.boundLine = call.line;
                }
            } else if (command == "ZCARD"
                       || (command == "ZCOUNT" && call.args.size() > 1 && !(call.args[1].sources & FromTime))) {
                if (story.firstCount < 0) {
                    story.firstCount = i;
                    story.countLine = call.line;
                }
            } else if (command == "ZCOUNT" && call.args.size() > 1 && call.args[1].role == Role::Time
                       && story.boundUnit < 0) {
                story.boundUnit = call.args[1].unit;
                story.boundLine = call.line;
            } else if (command == "EXPIRE" || command == "PEXPIRE" || command == "EXPIREAT" || command == "PEXPIREAT") {
                story.expires << i;
                if (!story.expireLine)
                    story.expireLine = call.line;
            }
        }
        for (const QByteArray& key : std::as_const(order))
            checkKeyStory(stories.value(key));
    }

    void checkKeyStory(const KeyStory& story)
    {
        if (story.firstAdd < 0)
            return; // not a ZSET this script writes
        if (story.firstCount >= 0 && story.firstTrim < 0) {
            add(story.countLine, Severity::Error, "never-trims",
                Text::tr("Nothing removes the entries older than the window"),
                Text::tr("The count covers every entry the key holds, and no ZREMRANGEBYSCORE removes the old "
                         "ones: the count keeps growing until the key expires, so clients are refused long "
                         "after their requests left the window. This is not a sliding window."),
                Text::tr("Before counting: redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window); or "
                         "count only the window: redis.call('ZCOUNT', key, '(' .. (now - window), '+inf')."));
        } else if (story.firstCount >= 0 && story.firstCount < story.firstTrim) {
            add(story.countLine, Severity::Error, "count-before-trim",
                Text::tr("The script counts before removing expired entries"),
                Text::tr("The count runs before ZREMRANGEBYSCORE, so it includes requests that have already "
                         "left the window: the limiter refuses requests it should admit. If the script returns "
                         "early on a refusal, nothing trims while the client is refused, so it stays refused "
                         "until %1.")
                    .arg(story.expires.isEmpty()
                             ? Text::tr("someone deletes the key: nothing expires it")
                             : Text::tr("the key expires, a TTL after its last admitted request, rather than when "
                                        "its oldest request leaves the window")),
                Text::tr("Remove the expired entries first, then count; or count only the window with "
                         "ZCOUNT key (now - window) +inf."));
        }
        if (story.expires.isEmpty()) {
            add(story.addLine, Severity::Warning, "no-expiry", Text::tr("The ZSET never expires"),
                Text::tr("Nothing sets a TTL on the key, so the sorted set of a client that stops sending "
                         "requests stays in memory for ever."),
                Text::tr("After ZADD: redis.call('PEXPIRE', key, window) (window in milliseconds)."));
        } else if (std::all_of(story.expires.begin(), story.expires.end(),
                               [&](int index) { return index < story.firstAdd; })) {
            add(story.expireLine, Severity::Warning, "expire-before-add", Text::tr("The expiry is set before ZADD"),
                Text::tr("On a client's first request the key does not exist yet, so the expiry does nothing "
                         "and ZADD then creates the key without a TTL: a client that sends one request and "
                         "never returns leaves a key that never expires."),
                Text::tr("Set the expiry after ZADD."));
        }
        if (story.scoreUnit >= 0 && story.boundUnit >= 0 && story.scoreUnit != story.boundUnit) {
            add(story.boundLine, Severity::Error, "unit-mismatch",
                Text::tr("The scores and the window's bound are in different units"),
                Text::tr("ZADD writes scores in %1, but this bound is in %2, so the window covers the wrong "
                         "entries: either nothing leaves it or everything does.")
                    .arg(unitPlural(story.scoreUnit), unitPlural(story.boundUnit)),
                Text::tr("Use one unit for the scores, now and the window (convert with * 1000 or / 1000)."));
        }
    }

    // What the script does with ARGV[index]: its use says more than its name (EXPIRE takes
    // seconds, ZADD's score is a time, ZREMRANGEBYSCORE's upper bound is the window's start).
    struct ArgUse
    {
        Meaning meaning = Meaning::None;
        int unit = -1;
        bool conflicting = false;
    };
    QHash<int, ArgUse> argUses() const
    {
        QHash<int, ArgUse> uses;
        auto note = [&uses](const Value& value, Meaning meaning, int unit) {
            if (value.argIndex <= 0)
                return;
            ArgUse& use = uses[value.argIndex];
            if (use.meaning != Meaning::None && use.meaning != meaning)
                use.conflicting = true;
            use.meaning = meaning;
            if (unit >= 0)
                use.unit = unit;
        };
        for (const RedisCall& call : m_reading.calls) {
            const QByteArray& c = call.command;
            if ((c == "EXPIRE" || c == "SETEX") && call.args.size() > 1)
                note(call.args[1], Meaning::Duration, 0);
            else if ((c == "PEXPIRE" || c == "PSETEX") && call.args.size() > 1)
                note(call.args[1], Meaning::Duration, 1);
            else if (c == "ZADD" && call.args.size() > 2)
                note(call.args[call.args.size() - 2], Meaning::Time, -1);
            else if (c == "ZREMRANGEBYSCORE" && call.args.size() > 2)
                note(call.args[2], Meaning::Boundary, -1);
        }
        QHash<int, ArgUse> named;
        for (const ArgBinding& binding : m_reading.argBindings) {
            ArgUse& use = named[binding.index];
            if (use.meaning != Meaning::None && use.meaning != binding.meaning)
                use.conflicting = true;
            use.meaning = binding.meaning;
        }
        for (auto it = named.cbegin(); it != named.cend(); ++it) {
            if (!uses.contains(it.key()))
                uses.insert(it.key(), it.value());
        }
        return uses;
    }

    // The --args the script reads, as far as it shows them; "?" where it does not say.
    QString suggestedArgs() const
    {
        QStringList tokens;
        int count = m_call.argCount();
        for (const ArgBinding& binding : m_reading.argBindings)
            count = std::max(count, binding.index);
        const QHash<int, ArgUse> uses = argUses();
        for (auto it = uses.cbegin(); it != uses.cend(); ++it)
            count = std::max(count, it.key());
        const bool seconds = m_call.uses(CallTemplate::Placeholder::NowS)
            && !m_call.uses(CallTemplate::Placeholder::Now) && !m_call.uses(CallTemplate::Placeholder::NowUs);
        const bool micro = m_call.uses(CallTemplate::Placeholder::NowUs);
        // A script keeps one unit: a window it gives EXPIRE in seconds means its now is in seconds.
        int shownUnit = -1;
        for (const ArgUse& use : uses) {
            if (use.meaning == Meaning::Duration && use.unit >= 0 && !use.conflicting)
                shownUnit = use.unit;
        }
        const QStringList words = m_call.argsText().split(QLatin1Char(' '));
        for (int i = 1; i <= count; ++i) {
            QString token = i <= m_call.argCount() ? words.value(i - 1, QStringLiteral("?")) : QStringLiteral("?");
            const ArgUse use = uses.value(i);
            const bool inSeconds = use.unit >= 0 ? use.unit == 0 : shownUnit >= 0 ? shownUnit == 0 : seconds;
            if (use.conflicting) {
                token = QStringLiteral("?");
            } else {
                switch (use.meaning) {
                case Meaning::Time:
                    token = micro && shownUnit < 0 ? QStringLiteral("{now_us}")
                        : inSeconds                ? QStringLiteral("{now_s}")
                                                   : QStringLiteral("{now}");
                    break;
                case Meaning::Duration:
                    token = inSeconds ? QStringLiteral("{window_s}") : QStringLiteral("{window}");
                    break;
                case Meaning::Boundary:
                    token = inSeconds ? QStringLiteral("{now_s-window_s}") : QStringLiteral("{now-window}");
                    break;
                case Meaning::Limit:
                    token = QStringLiteral("{limit}");
                    break;
                case Meaning::Id:
                    token = QStringLiteral("{uuid}");
                    break;
                case Meaning::None:
                    break;
                }
            }
            tokens << token;
        }
        return tokens.join(QLatin1Char(' '));
    }

    // Said after a suggestion when some argument's meaning is not known.
    static QString unknownArgsNote(const QString& args)
    {
        return args.contains(QLatin1Char('?'))
            ? Text::tr(" (? marks an argument whose meaning the script does not show: fill it in yourself)")
            : QString();
    }

    void checkSyntax(const LuaSyntax& syntax)
    {
        const int line = std::max(1, syntax.line);
        if (syntax.bytecode)
            add(line, Severity::Error, "syntax-error", Text::tr("The file is compiled Lua, not a script"),
                Text::tr("The file starts with the mark of precompiled Lua bytecode. Redis loads only Lua source "
                         "text, so EVAL and SCRIPT LOAD refuse it, and the doctor cannot read it either."),
                Text::tr("Give the .lua source the bytecode was compiled from."));
        else if (syntax.binary)
            add(line, Severity::Error, "syntax-error", Text::tr("The file is not a Lua script"),
                Text::tr("The file holds binary data (NUL or other control bytes), not Lua source; Lua 5.1 stops "
                         "at line %1: %2. Redis would refuse it as well.")
                    .arg(line)
                    .arg(syntax.message),
                Text::tr("Check the file name: give the limiter's .lua source file."));
        else
            add(line, Severity::Error, "syntax-error", Text::tr("Lua cannot compile the script"),
                Text::tr("Lua 5.1 (the Lua that Redis runs) stops at line %1: %2. Redis refuses the whole script "
                         "(SCRIPT LOAD and EVAL fail), so no request is ever counted, and the findings about "
                         "the rest of the script may be incomplete.")
                    .arg(line)
                    .arg(syntax.message),
                Text::tr("Fix the line the compiler names; a file that is not a Lua script (a binary, a wrong "
                         "file) cannot be checked at all."));
    }

    void checkFacts(bool syntaxFound)
    {
        QSet<int> missingArgs, missingKeys;
        for (const Fact& fact : m_reading.facts) {
            switch (fact.kind) {
            case Fact::Kind::Lossy: {
                const bool inMember = m_lossyMembers.contains(fact.line);
                add(fact.line, inMember ? Severity::Error : Severity::Warning, "lossy-time",
                    Text::tr("A %1 timestamp is turned into text with 14 digits").arg(unitWord(fact.a)),
                    Text::tr("Lua writes numbers as text with 14 significant digits (%.14g): a microsecond "
                             "timestamp such as 1710000000000123 becomes 1.7100000000001e+15, so timestamps "
                             "up to 100 microseconds apart give the same text%1.")
                        .arg(inMember ? Text::tr(", and here the same ZSET member") : QString()),
                    Text::tr("Keep the text exact: use the string the caller sent (ARGV[n], without "
                             "tonumber), or string.format('%d', now); for a unique member, add a request id."));
                break;
            }
            case Fact::Kind::UnitMismatch:
                add(fact.line, Severity::Error, "unit-mismatch", Text::tr("Seconds and milliseconds are mixed"),
                    Text::tr("This line combines a value in %1 with a value in %2, so the result is off by a "
                             "factor of 1000 and the window covers the wrong entries.")
                        .arg(unitPlural(fact.a), unitPlural(fact.b)),
                    Text::tr("Convert one side first (* 1000 or / 1000) so both are in the same unit, and "
                             "check --args: {now}/{window} are milliseconds, {now_s}/{window_s} seconds."));
                break;
            case Fact::Kind::MissingArg:
                if (!missingArgs.contains(fact.a)) {
                    missingArgs.insert(fact.a);
                    add(fact.line, Severity::Warning, "argv-missing",
                        Text::tr("ARGV[%1] is not in the call template").arg(fact.a),
                        Text::tr("The script reads ARGV[%1], but the call template passes %2 argument(s), so "
                                 "ARGV[%1] is nil in every call.")
                            .arg(fact.a)
                            .arg(m_call.argCount()),
                        Text::tr("Describe every argument the script reads with --args, in its order, e.g. "
                                 "--args \"%1\".")
                                .arg(suggestedArgs())
                            + unknownArgsNote(suggestedArgs()));
                }
                break;
            case Fact::Kind::MissingKey:
                if (!missingKeys.contains(fact.a)) {
                    missingKeys.insert(fact.a);
                    add(fact.line, Severity::Warning, "keys-missing",
                        Text::tr("KEYS[%1] is not in the call template").arg(fact.a),
                        Text::tr("The script reads KEYS[%1], but the call template passes %2 key(s), so "
                                 "KEYS[%1] is nil in every call.")
                            .arg(fact.a)
                            .arg(m_call.keyCount()),
                        Text::tr("Name every key the script reads with --keys, e.g. --keys \"{key} "
                                 "{key}:other\"."));
                }
                break;
            case Fact::Kind::TemplateMismatch:
                // The name said one thing, the script's use of the argument says what the call passes.
                if (suggestedArgs().simplified() == m_call.argsText().simplified())
                    break;
                add(fact.line, Severity::Warning, "template-mismatch",
                    Text::tr("ARGV[%1] is read as \"%2\" but the call passes %3")
                        .arg(fact.a)
                        .arg(fact.text, fact.detail),
                    Text::tr("The script keeps ARGV[%1] in \"%2\", but the call template puts %3 there: the "
                             "findings and the live probe would describe calls the script never gets.")
                        .arg(fact.a)
                        .arg(fact.text, fact.detail),
                    Text::tr("Give --args in the order the script reads ARGV, e.g. --args \"%1\".").arg(suggestedArgs())
                        + unknownArgsNote(suggestedArgs()));
                break;
            case Fact::Kind::RandomSeed:
                if (!m_randomSeedExplained)
                    add(fact.line, Severity::Warning, "randomseed",
                        Text::tr("math.randomseed() resets the server's generator"),
                        Text::tr("On Redis 7 every script shares one generator: this call resets it, so "
                                 "scripts that rely on math.random() for unique members repeat the same "
                                 "numbers."),
                        Text::tr("Remove the math.randomseed() call."));
                break;
            case Fact::Kind::Unread:
                if (syntaxFound)
                    break; // the compiler's message says more
                add(fact.line, Severity::Info, "unread", Text::tr("zsetlab could not follow the script here"),
                    Text::tr("This line uses a form the doctor does not read (or a syntax error): findings "
                             "about the lines after it may be missing. The live probe still runs the script."),
                    Text::tr("Run with --live for evidence from Redis itself."));
                break;
            }
        }
    }

    // A key of the call that a Redis call touches: KEYS[index], read directly or built alike.
    struct KeyUse
    {
        int line = 0;
        int index = 0;
    };

    QList<QByteArray> m_lines;
    const CallTemplate& m_call;
    const Reading& m_reading;
    const QByteArray m_appKey;
    QList<QByteArray> m_keyShapes; // per key of the template
    QList<QByteArray> m_appKeys; // the template's keys named from m_appKey; empty without one
    QVector<KeyUse> m_passedKeyUses; // in call order
    QVector<BuiltKey> m_builtKeys; // built from KEYS[n], not passed; in the order first touched
    QVector<ScriptFinding> m_findings;
    QSet<int> m_lossyMembers;
    bool m_randomSeedExplained = false;
};
} // namespace

bool ScriptExamination::hasProblem() const
{
    return count(ScriptFinding::Severity::Warning) + count(ScriptFinding::Severity::Error) > 0;
}

int ScriptExamination::count(ScriptFinding::Severity severity) const
{
    return int(std::count_if(findings.begin(), findings.end(),
                             [severity](const ScriptFinding& finding) { return finding.severity == severity; }));
}

namespace ScriptDoctor {

ScriptExamination examine(const QByteArray& source, const CallTemplate& call, const QByteArray& appKey)
{
    const Reading reading = LuaFlow::read(source, call);
    ScriptExamination examination;
    const LuaSyntax syntax = LuaSyntax::check(source);
    examination.compiles = syntax.compiles;
    examination.findings = Doctor(source, call, reading, appKey).findings(syntax);
    examination.keySuffixes = reading.keySuffixes;
    examination.readsLimit = reading.readsLimit;
    return examination;
}

QString severityName(ScriptFinding::Severity severity)
{
    switch (severity) {
    case ScriptFinding::Severity::Info:
        return QStringLiteral("info");
    case ScriptFinding::Severity::Warning:
        return QStringLiteral("warning");
    case ScriptFinding::Severity::Error:
        return QStringLiteral("error");
    }
    return {};
}

} // namespace ScriptDoctor
