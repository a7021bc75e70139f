#include "doctorrules.h"

#include "commandkeys.h"
#include "redis/keyslot.h"

#include <algorithm>

namespace DoctorRules {

QByteArray Doctor::keyShape(const CallTemplate::Token& token)
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

int Doctor::keysIndex(const QByteArray& root)
{
    if (!root.startsWith("KEYS[") || !root.endsWith(']'))
        return 0;
    return root.mid(5, root.size() - 6).toInt();
}

int Doctor::passedAs(const Value& key) const
{
    const int root = keysIndex(key.keyRoot);
    if (root < 1 || root > m_keyShapes.size() || key.keyName.isEmpty())
        return 0;
    const QByteArray shape = m_keyShapes.at(root - 1) + key.keyName.mid(key.keyRoot.size());
    return int(m_keyShapes.indexOf(shape)) + 1;
}

int Doctor::argvPassedAsKey(const Value& key) const
{
    if (key.argIndex < 1 || key.argIndex > m_call.argCount())
        return 0;
    return int(m_keyShapes.indexOf(keyShape(m_call.args().at(key.argIndex - 1)))) + 1;
}

QString Doctor::builtKeyText(const Value& key)
{
    if (key.keyName.isEmpty())
        return Text::tr("a key built from %1").arg(QString::fromUtf8(key.keyRoot));
    return QStringLiteral("%1 .. '%2'")
        .arg(QString::fromUtf8(key.keyRoot), QString::fromUtf8(key.keyName.mid(key.keyRoot.size()).left(80)));
}

QString Doctor::keyDescription(const Value& key)
{
    if (key.literalText)
        return Text::tr("the fixed name '%1'").arg(QString::fromUtf8(key.text.left(80)));
    if (key.argIndex > 0)
        return Text::tr("ARGV[%1], an argument, not a key").arg(key.argIndex);
    if (key.leadingText)
        return Text::tr("built with text in front of it ('prefix:' .. KEYS[1] is another key than KEYS[1])");
    return Text::tr("built from arguments or constants, not from KEYS");
}

void Doctor::checkKeys(const RedisCall& call)
{
    const QString command = QString::fromUtf8(call.command);
    const CommandKeys::Reach reach = CommandKeys::reach(call.command);
    if (reach == CommandKeys::Reach::Server) {
        add(call.line, Severity::Warning, "foreign-key", Text::tr("%1 reaches beyond the script's keys").arg(command),
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
        if (const int passed = argvPassedAsKey(key)) {
            // ARGV[n] holds a key the call passes in KEYS too (StackExchange.Redis sends a
            // script's key parameters both ways): the key is declared.
            m_passedKeyUses.append({call.line, passed});
            ++m_mirroredKeyUses;
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
                    .arg(command, keyDescription(key))
                + managedServicesNote(),
            Text::tr("Pass the key in KEYS (--keys \"{key} {key}:other\", then KEYS[2]) and give all of a "
                     "call's keys one hash tag so that they share a slot, e.g. rl:{user42} and "
                     "rl:{user42}:other."));
    }
}

void Doctor::noteBuiltKey(const RedisCall& call, const Value& key)
{
    const QByteArray id = key.keyName.isEmpty() ? key.keyRoot + '@' + QByteArray::number(key.builtLine) : key.keyName;
    for (BuiltKey& built : m_builtKeys) {
        if (built.id == id) {
            if (built.line != call.line && !built.otherLines.contains(call.line))
                built.otherLines << call.line;
            return;
        }
    }
    m_builtKeys.append({id, QString::fromUtf8(call.command), call.line, key, {}});
}

void Doctor::reportBuiltKeys()
{
    for (const BuiltKey& built : std::as_const(m_builtKeys))
        reportBuiltKey(built);
}

void Doctor::reportBuiltKey(const BuiltKey& built)
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
            + managedServicesNote() + slotNote + again,
        suggestion);
}

void Doctor::checkSlots()
{
    if (m_appKeys.size() < 2)
        return;
    QVector<int> keySlots;
    QStringList named;
    for (int i = 0; i < m_appKeys.size(); ++i) {
        keySlots << KeySlot::of(m_appKeys.at(i));
        named << Text::tr("KEYS[%1] = %2 (slot %3)")
                     .arg(QString::number(i + 1), QString::fromUtf8(m_appKeys.at(i)), QString::number(keySlots.last()));
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
    add(line, Severity::Warning, "cross-slot", Text::tr("The keys of one call lie in different Redis Cluster slots"),
        Text::tr("With the key %1 the call passes %2. Redis Cluster runs a script only when all its KEYS hash "
                 "to one slot, so every call fails with \"CROSSSLOT Keys in request don't hash to the same "
                 "slot\" before the script runs. On a single server it works.")
            .arg(QString::fromUtf8(m_appKey), named.join(QStringLiteral(", "))),
        Text::tr("Give all of a call's keys one hash tag: only the text between { and } is hashed, so "
                 "rl:{user42} and rl:{user42}:seq share the slot of user42. Every key here starts with {key}, "
                 "so a hash tag in the key the application passes is enough."));
}

} // namespace DoctorRules
