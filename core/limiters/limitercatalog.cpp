#include "limitercatalog.h"

#include "limiterreply.h"

#include <QCoreApplication>

#include <algorithm>

namespace {
struct Text
{
    Q_DECLARE_TR_FUNCTIONS(LimiterCatalog)
};

LimiterRef entry(const char* id, LimiterEntry::Role role, const char* name, const char* summary,
                 LimiterStore store = LimiterStore::sortedSet())
{
    auto limiter = std::make_shared<LimiterEntry>();
    limiter->id = QString::fromLatin1(id);
    limiter->role = role;
    limiter->name = name;
    limiter->summary = summary;
    limiter->script = LimiterScript::fromResource(limiter->id);
    limiter->store = std::move(store);
    return limiter;
}

// An algorithm that decides itself: called with the keys and arguments it reads (each key under
// the run key), answering {allowed, count}.
LimiterRef algorithm(const char* id, const char* name, const char* summary, LimiterStore store, const char* keys,
                     const char* args)
{
    auto limiter = std::const_pointer_cast<LimiterEntry>(entry(id, LimiterEntry::Role::Algorithm, name, summary));
    limiter->store = std::move(store);
    CallTemplate call;
    QString error;
    const bool parsed = CallTemplate::parse(QString::fromLatin1(keys), QString::fromLatin1(args), &call, &error);
    Q_ASSERT_X(parsed, id, "a built-in call template does not parse");
    Q_UNUSED(parsed);
    limiter->call = std::make_shared<const CallTemplate>(call);
    limiter->replyStyle = ReplyStyle::AdmittedWithCount;
    return limiter;
}

// The built-in limiters: lua/<id>.lua each, called by zsetlab's convention, replying
// {count, added, member}.
QVector<LimiterRef> makeCatalog()
{
    using Role = LimiterEntry::Role;
    return {
        entry("now", Role::Bug, QT_TRANSLATE_NOOP("LimiterCatalog", "now"),
              QT_TRANSLATE_NOOP("LimiterCatalog",
                                "ZADD key now now: the timestamp is the member, so requests in the same millisecond "
                                "overwrite one entry.")),
        entry("request-id", Role::Fix, QT_TRANSLATE_NOOP("LimiterCatalog", "request id"),
              QT_TRANSLATE_NOOP("LimiterCatalog", "An id the caller sends with each request is the member.")),
        entry("random", Role::Fix, QT_TRANSLATE_NOOP("LimiterCatalog", "random"),
              QT_TRANSLATE_NOOP("LimiterCatalog",
                                "now .. '-' .. math.random(): unique on Redis 7, colliding on 2.6 to 6.2, which "
                                "reseed Lua's generator at every call.")),
        entry(
            "sequence", Role::Fix, QT_TRANSLATE_NOOP("LimiterCatalog", "sequence"),
            QT_TRANSLATE_NOOP("LimiterCatalog",
                              "now .. '-' .. a counter that Redis increments (INCR of a second key beside the ZSET)."),
            LimiterStore::sortedSet({{QByteArrayLiteral(":seq"), QByteArrayLiteral("string")}})),
        entry("microseconds", Role::Trap, QT_TRANSLATE_NOOP("LimiterCatalog", "microseconds in text"),
              QT_TRANSLATE_NOOP("LimiterCatalog",
                                "'req:' .. now in microseconds: Lua writes the number with 14 digits, so every "
                                "request in the same 100 µs gets the same member.")),
        algorithm("fixed-window", QT_TRANSLATE_NOOP("LimiterCatalog", "fixed window"),
                  QT_TRANSLATE_NOOP("LimiterCatalog",
                                    "INCR of one counter per window, PEXPIRE: one integer, but twice the limit gets "
                                    "through across a window's boundary."),
                  LimiterStore::counter({{QByteArrayLiteral(":window"), QByteArrayLiteral("string")}}),
                  "{key} {key}:window", "{now} {window} {limit}"),
        algorithm("sliding-log", QT_TRANSLATE_NOOP("LimiterCatalog", "sliding log"),
                  QT_TRANSLATE_NOOP("LimiterCatalog",
                                    "A ZSET member per admitted request, unique by its request id: exact, and one "
                                    "member per request in the window."),
                  LimiterStore::sortedSet(), "{key}", "{now} {window} {limit} {uuid}"),
        algorithm("sliding-log-now", QT_TRANSLATE_NOOP("LimiterCatalog", "sliding log, member = now"),
                  QT_TRANSLATE_NOOP("LimiterCatalog",
                                    "The sliding log with the timestamp as the member: requests in one millisecond "
                                    "share a member and all get through."),
                  LimiterStore::sortedSet(), "{key}", "{now} {window} {limit}"),
        algorithm("sliding-counter", QT_TRANSLATE_NOOP("LimiterCatalog", "sliding window counter"),
                  QT_TRANSLATE_NOOP("LimiterCatalog",
                                    "Two fixed-window counts in a hash, the previous one weighted by how much of it "
                                    "the window still covers: an estimate."),
                  LimiterStore::hash(QByteArrayLiteral("current")), "{key}", "{now} {window} {limit}"),
        algorithm("token-bucket", QT_TRANSLATE_NOOP("LimiterCatalog", "token bucket"),
                  QT_TRANSLATE_NOOP("LimiterCatalog",
                                    "A bucket of limit tokens in a hash, refilled at limit per window: a burst of "
                                    "limit, then the refill rate."),
                  LimiterStore::hash(), "{key}", "{now} {window} {limit}"),
        algorithm("gcra", QT_TRANSLATE_NOOP("LimiterCatalog", "GCRA"),
                  QT_TRANSLATE_NOOP("LimiterCatalog",
                                    "One theoretical arrival time per client: requests window / limit apart, with "
                                    "a burst of limit allowed."),
                  LimiterStore::arrivalTime(), "{key}", "{now} {window} {limit}"),
        algorithm("list-log", QT_TRANSLATE_NOOP("LimiterCatalog", "list log"),
                  QT_TRANSLATE_NOOP("LimiterCatalog",
                                    "LPUSH + LTRIM of the newest limit admitted times in a LIST: exact, with memory "
                                    "bounded by the limit."),
                  LimiterStore::list(), "{key}", "{now} {window} {limit}"),
    };
}
} // namespace

QString LimiterEntry::displayName() const
{
    return name ? QCoreApplication::translate("LimiterCatalog", name) : script.name();
}

QString LimiterEntry::displaySummary() const
{
    if (summary)
        return QCoreApplication::translate("LimiterCatalog", summary);
    return call ? Text::tr("Your script, called as KEYS %1 ARGV %2.").arg(call->keysText(), call->argsText())
                : Text::tr("Your script, called as zsetlab's scripts are.");
}

CallTemplate LimiterEntry::callTemplate() const
{
    if (call)
        return *call;
    QStringList keys;
    for (const LimiterStore::Key& key : store.keys()) {
        QString suffix = QString::fromUtf8(key.suffix);
        suffix.replace(QLatin1Char('{'), QStringLiteral("{{")).replace(QLatin1Char('}'), QStringLiteral("}}"));
        keys << CallTemplate::defaultKeys() + suffix;
    }
    CallTemplate convention;
    QString error;
    const bool parsed
        = CallTemplate::parse(keys.join(QLatin1Char(' ')), CallTemplate::defaultArgs(), &convention, &error);
    Q_ASSERT_X(parsed, "LimiterEntry::callTemplate", qPrintable(error));
    Q_UNUSED(parsed);
    return convention;
}

RedisArgs LimiterEntry::evalsha(const CallValues& values) const
{
    RedisArgs keys;
    RedisArgs args;
    if (call) {
        keys = call->expandKeys(values);
        args = call->expandArgs(values);
    } else {
        keys = store.keysFor(values.key);
        const qint64 now = values.unitsPerMs >= 1000 ? values.nowMicros : values.nowMicros / 1000;
        args = {QByteArray::number(now), QByteArray::number(values.windowMs * values.unitsPerMs),
                QByteArray::number(values.limit), values.uuid};
    }
    RedisArgs command;
    command.reserve(3 + keys.size() + args.size());
    command << QByteArrayLiteral("EVALSHA") << script.sha1() << QByteArray::number(keys.size());
    command << keys << args;
    return command;
}

void LimiterEntry::readReply(const RedisReply& reply, const QByteArray& requestId, RequestRecord* record) const
{
    if (replyStyle == ReplyStyle::CountWithCall) {
        readLimiterReply(reply, record->now, requestId, record);
        return;
    }
    if (replyStyle == ReplyStyle::AdmittedWithCount) {
        readDecisionReply(reply, record);
        return;
    }
    // A user's script that answers in another style (learned by the script doctor's probe, or given).
    const ReplyReading reading = ReplyReading::read(reply);
    const std::optional<bool> admitted = readAdmission(replyStyle, reading);
    const bool counts = replyStyle == ReplyStyle::CountBeforeCall && reading.readable;
    if (!counts && !admitted) {
        record->error = Text::tr("Cannot read the script's reply %1 as %2.")
                            .arg(reply.toDisplayString().left(200), replyStyleDescription(replyStyle));
        return;
    }
    record->added = static_cast<qint8>(reading.added < 0 ? -1 : (reading.added > 0 ? 1 : 0));
    if (counts)
        record->count = reading.value + 1;
    else
        record->verdict = static_cast<qint8>(*admitted ? 1 : 0);
}

LimiterStore LimiterEntry::storeOf(const CallTemplate* call)
{
    // A user's script may keep a counter beside its ZSET named from KEYS[1] the way the built-in
    // ones do: those companions are deleted with the run too.
    QVector<LimiterStore::Key> companions;
    for (const LimiterRef& limiter : LimiterCatalog::all()) {
        for (const LimiterStore::Key& key : limiter->store.keys()) {
            if (!key.suffix.isEmpty())
                companions.append({key.suffix, QByteArray()});
        }
    }
    if (call) {
        // Every key of a template starts with {key}; the rest of a key is its companion's suffix,
        // as long as it is literal text (a key that changes per call cannot be deleted by name).
        for (int i = 1; i < call->keys().size(); ++i) {
            const CallTemplate::Token& token = call->keys().at(i);
            QByteArray suffix;
            bool literal = true;
            for (int p = 1; p < token.size(); ++p) {
                literal = literal && !token.at(p).isPlaceholder;
                suffix += token.at(p).literal.toUtf8();
            }
            const bool known = std::any_of(companions.cbegin(), companions.cend(),
                                           [&suffix](const LimiterStore::Key& key) { return key.suffix == suffix; });
            if (literal && !suffix.isEmpty() && !known)
                companions.append({suffix, QByteArray()});
        }
    }
    LimiterStore store = LimiterStore::sortedSet(companions);
    return store;
}

namespace LimiterCatalog {

const QVector<LimiterRef>& all()
{
    static const QVector<LimiterRef> catalog = makeCatalog();
    return catalog;
}

LimiterRef find(const QString& id)
{
    for (const LimiterRef& limiter : all()) {
        if (limiter->id == id)
            return limiter;
    }
    return nullptr;
}

LimiterRef builtin(const QString& id)
{
    LimiterRef limiter = find(id);
    Q_ASSERT_X(limiter, "LimiterCatalog::builtin", "no such limiter in the catalog");
    return limiter;
}

LimiterRef builtin(const char* id)
{
    return builtin(QString::fromLatin1(id));
}

QStringList ids()
{
    QStringList list;
    for (const LimiterRef& limiter : all())
        list << limiter->id;
    return list;
}

QStringList algorithmIds()
{
    QStringList list;
    for (const LimiterRef& limiter : withRole(LimiterEntry::Role::Algorithm))
        list << limiter->id;
    return list;
}

QVector<LimiterRef> withRole(LimiterEntry::Role role)
{
    QVector<LimiterRef> list;
    for (const LimiterRef& limiter : all()) {
        if (limiter->role == role)
            list << limiter;
    }
    return list;
}

LimiterRef custom(const LimiterScript& script, std::shared_ptr<const CallTemplate> call, ReplyStyle style)
{
    auto limiter = std::make_shared<LimiterEntry>();
    limiter->id = script.name();
    limiter->role = LimiterEntry::Role::Custom;
    limiter->script = script;
    limiter->store = LimiterEntry::storeOf(call.get());
    limiter->call = std::move(call);
    limiter->replyStyle = style;
    return limiter;
}

} // namespace LimiterCatalog
