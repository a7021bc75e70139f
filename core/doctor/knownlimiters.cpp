#include "knownlimiters.h"

#include "knownlimitertable.h"

#include "luatokens.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>

namespace {

// A token as compared: its kind and its text; a string by its contents, so that 'a' and "a" are
// one token.
QByteArray normalized(const LuaFlow::Token& token)
{
    using Kind = LuaFlow::Token::Kind;
    switch (token.kind) {
    case Kind::Name:
        return 'n' + token.text;
    case Kind::Number:
        return '0' + token.text;
    case Kind::String:
        return 's' + token.text;
    case Kind::Symbol:
        return 'p' + token.text;
    case Kind::Comment:
    case Kind::End:
        break;
    }
    return {};
}

quint32 fnv1a(const QByteArray& bytes, quint32 hash = 2166136261u)
{
    for (const char c : bytes) {
        hash ^= quint8(c);
        hash *= 16777619u;
    }
    return hash;
}

struct Tokens
{
    QVector<QByteArray> words;
    QVector<int> lines;
};

Tokens codeTokens(const QByteArray& source)
{
    int trouble = 0;
    Tokens tokens;
    for (const LuaFlow::Token& token : LuaFlow::tokenize(source, &trouble)) {
        if (token.kind == LuaFlow::Token::Kind::End || token.kind == LuaFlow::Token::Kind::Comment)
            continue;
        tokens.words << normalized(token);
        tokens.lines << token.line;
    }
    return tokens;
}

// The hash of the run of tokens that starts at each index (fewer tokens than a run: one run of all).
QVector<quint32> runHashes(const QVector<QByteArray>& words)
{
    const int length = ScriptFingerprint::runLength;
    QVector<quint32> hashes;
    const int count = std::max(1, int(words.size()) - length + 1);
    for (int start = 0; start < count && !words.isEmpty(); ++start) {
        quint32 hash = 2166136261u;
        for (int i = start; i < std::min(int(words.size()), start + length); ++i)
            hash = fnv1a(words[i] + '\x1f', hash);
        hashes << hash;
    }
    return hashes;
}

QVector<quint32> sortedUnique(QVector<quint32> values)
{
    std::sort(values.begin(), values.end());
    values.erase(std::unique(values.begin(), values.end()), values.end());
    return values;
}

int sharedCount(const QVector<quint32>& a, const QVector<quint32>& b)
{
    int shared = 0;
    auto i = a.begin(), j = b.begin();
    while (i != a.end() && j != b.end()) {
        if (*i < *j)
            ++i;
        else if (*j < *i)
            ++j;
        else
            ++shared, ++i, ++j;
    }
    return shared;
}

QList<QByteArray> commandsIn(const QVector<QByteArray>& words)
{
    QList<QByteArray> commands;
    for (int i = 0; i + 4 < words.size(); ++i) {
        if ((words[i] == "nredis" || words[i] == "nserver") && words[i + 1] == "p."
            && (words[i + 2] == "ncall" || words[i + 2] == "npcall") && words[i + 3] == "p("
            && words[i + 4].startsWith('s'))
            commands << words[i + 4].mid(1).toUpper();
    }
    return commands;
}

QVector<quint32> parseRuns(const char* hex)
{
    QVector<quint32> runs;
    const QByteArray text(hex);
    for (int i = 0; i + 8 <= text.size(); i += 8)
        runs << text.mid(i, 8).toUInt(nullptr, 16);
    return runs;
}

// The table's runs, read once.
const QVector<QVector<quint32>>& knownRuns()
{
    static const QVector<QVector<quint32>> runs = [] {
        QVector<QVector<quint32>> all;
        for (const KnownLimiter& limiter : KnownLimiters::table())
            all << parseRuns(limiter.runs);
        return all;
    }();
    return runs;
}

// Commands of `from` that `in` has none of, in order, each once.
QList<QByteArray> missingFrom(const QList<QByteArray>& from, const QList<QByteArray>& in)
{
    QList<QByteArray> missing;
    for (const QByteArray& command : from) {
        if (!in.contains(command) && !missing.contains(command))
            missing << command;
    }
    return missing;
}

// Commands both make, where `now` makes one fewer times than `was`: still there, not removed.
QList<CommandCount> fewerIn(const QList<QByteArray>& was, const QList<QByteArray>& now)
{
    QList<CommandCount> fewer;
    for (const QByteArray& command : was) {
        const int before = int(was.count(command));
        const int after = int(now.count(command));
        const bool listed = std::any_of(fewer.cbegin(), fewer.cend(),
                                        [&command](const CommandCount& c) { return c.command == command; });
        if (after > 0 && after < before && !listed)
            fewer.append({command, before, after});
    }
    return fewer;
}

} // namespace

QStringList LibraryCall::setupCommands() const
{
    QStringList commands;
    for (const QString& command : QString::fromUtf8(setup ? setup : "").split(QLatin1Char(';'), Qt::SkipEmptyParts))
        commands << command.trimmed();
    return commands;
}

QString LibraryCall::options() const
{
    if (!isKnown())
        return {};
    QString text = QStringLiteral("--keys \"%1\" --args \"%2\"").arg(QString::fromUtf8(keys), QString::fromUtf8(args));
    // What only the live probe takes comes after --live, so that the options run as they are.
    QString live;
    for (const QString& command : setupCommands())
        live += QStringLiteral(" --setup \"%1\"").arg(command);
    if (reply && *reply)
        live += QStringLiteral(" --reply ") + QString::fromUtf8(reply);
    if (windowMs > 0)
        live += QStringLiteral(" --window %1").arg(windowMs);
    return live.isEmpty() ? text : text + QStringLiteral(" --live") + live;
}

namespace {
// The fingerprint of tokens already read, with the hash of the run starting at each of them.
ScriptFingerprint fingerprintOf(const QByteArray& source, const Tokens& tokens, QVector<quint32>* starts)
{
    ScriptFingerprint fingerprint;
    fingerprint.sha1 = QCryptographicHash::hash(source, QCryptographicHash::Sha1).toHex();
    QCryptographicHash digest(QCryptographicHash::Sha1);
    for (const QByteArray& word : tokens.words)
        digest.addData(QByteArray(word + '\x1f'));
    fingerprint.tokenDigest = digest.result().toHex();
    fingerprint.tokenCount = int(tokens.words.size());
    *starts = runHashes(tokens.words);
    fingerprint.runs = sortedUnique(*starts);
    fingerprint.commands = commandsIn(tokens.words);
    return fingerprint;
}
} // namespace

ScriptFingerprint ScriptFingerprint::of(const QByteArray& source)
{
    QVector<quint32> starts;
    return fingerprintOf(source, codeTokens(source), &starts);
}

QByteArray ScriptFingerprint::toJson() const
{
    QByteArray runsHex;
    for (const quint32 run : runs)
        runsHex += QByteArray::number(run, 16).rightJustified(8, '0');
    QJsonArray commandList;
    for (const QByteArray& command : commands)
        commandList << QString::fromLatin1(command);
    return QJsonDocument(QJsonObject {{QStringLiteral("sha1"), QString::fromLatin1(sha1)},
                                      {QStringLiteral("tokens"), QString::fromLatin1(tokenDigest)},
                                      {QStringLiteral("tokenCount"), tokenCount},
                                      {QStringLiteral("commands"), commandList},
                                      {QStringLiteral("runs"), QString::fromLatin1(runsHex)}})
        .toJson(QJsonDocument::Indented);
}

QString LimiterRecognition::libraryName() const
{
    if (!limiter)
        return {};
    return QCoreApplication::translate("KnownLimiters", "%1 (%2)")
        .arg(QString::fromUtf8(limiter->library), QString::fromUtf8(limiter->versions));
}

QString LimiterRecognition::issue() const
{
    return limiter && limiter->issue ? QCoreApplication::translate("KnownLimiters", limiter->issue) : QString();
}

QString LimiterRecognition::changedLinesText() const
{
    QStringList ranges;
    for (int i = 0; i < changedLines.size();) {
        int j = i;
        while (j + 1 < changedLines.size() && changedLines[j + 1] == changedLines[j] + 1)
            ++j;
        ranges << (j == i ? QString::number(changedLines[i])
                          : QStringLiteral("%1-%2").arg(changedLines[i]).arg(changedLines[j]));
        i = j + 1;
    }
    return ranges.join(QStringLiteral(", "));
}

namespace KnownLimiters {

LimiterRecognition recognize(const QByteArray& source)
{
    LimiterRecognition recognition;
    const Tokens tokens = codeTokens(source);
    QVector<quint32> starts; // the hash of the run at each token, for the lines that changed
    const ScriptFingerprint fingerprint = fingerprintOf(source, tokens, &starts);
    if (fingerprint.tokenCount == 0)
        return recognition;
    const QVector<KnownLimiter>& known = table();
    for (const KnownLimiter& limiter : known) {
        if (fingerprint.tokenDigest == limiter.tokenDigest) {
            recognition.match = LimiterRecognition::Match::Same;
            recognition.limiter = &limiter;
            recognition.sameBytes = QByteArray(limiter.sha1).split(' ').contains(fingerprint.sha1);
            recognition.shared = 1;
            recognition.resemblance = 1;
            return recognition;
        }
    }
    int best = -1;
    int bestShared = 0;
    double bestJaccard = 0;
    for (int i = 0; i < known.size(); ++i) {
        const QVector<quint32>& runs = knownRuns()[i];
        const int shared = sharedCount(fingerprint.runs, runs);
        const double jaccard = double(shared) / double(fingerprint.runs.size() + runs.size() - shared);
        if (jaccard > bestJaccard) {
            bestJaccard = jaccard;
            bestShared = shared;
            best = i;
        }
    }
    recognition.resemblance = bestJaccard;
    if (best < 0 || bestJaccard < derivedAt)
        return recognition;

    const KnownLimiter& limiter = known[best];
    const QVector<quint32>& runs = knownRuns()[best];
    recognition.match = LimiterRecognition::Match::Derived;
    recognition.limiter = &limiter;
    recognition.shared = double(bestShared) / double(runs.size());

    // A token is the known script's when a run through it is: the others are what changed.
    QVector<bool> kept(tokens.words.size(), false);
    for (int start = 0; start < starts.size(); ++start) {
        if (!std::binary_search(runs.begin(), runs.end(), starts[start]))
            continue;
        for (int i = start; i < std::min(int(kept.size()), start + ScriptFingerprint::runLength); ++i)
            kept[i] = true;
    }
    for (int i = 0; i < kept.size(); ++i) {
        if (!kept[i])
            recognition.changedLines << tokens.lines[i];
    }
    std::sort(recognition.changedLines.begin(), recognition.changedLines.end());
    recognition.changedLines.erase(std::unique(recognition.changedLines.begin(), recognition.changedLines.end()),
                                   recognition.changedLines.end());

    QList<QByteArray> knownCommands;
    for (const QByteArray& command : QByteArray(limiter.commands).split(' ')) {
        if (!command.isEmpty())
            knownCommands << command;
    }
    recognition.commandsAdded = missingFrom(fingerprint.commands, knownCommands);
    recognition.commandsDropped = missingFrom(knownCommands, fingerprint.commands);
    recognition.commandsFewer = fewerIn(knownCommands, fingerprint.commands);
    recognition.commandsMore = fewerIn(fingerprint.commands, knownCommands);
    for (CommandCount& more : recognition.commandsMore)
        std::swap(more.known, more.here); // fewerIn(here, known) counted them the other way round
    return recognition;
}

const QVector<KnownLimiter>& table()
{
    static const QVector<KnownLimiter> known = gatewayAndClientLimiters() + frameworkLimiters();
    return known;
}

const KnownLimiter* bySha1(const QByteArray& sha1)
{
    const QByteArray lower = sha1.toLower();
    for (const KnownLimiter& limiter : table()) {
        if (QByteArray(limiter.sha1).split(' ').contains(lower))
            return &limiter;
    }
    return nullptr;
}

QString nameOf(const QByteArray& sha1, const QByteArray& body)
{
    if (const KnownLimiter* limiter = bySha1(sha1))
        return QString::fromUtf8(limiter->library);
    if (body.isEmpty())
        return {};
    const LimiterRecognition recognition = recognize(body);
    if (recognition.match == LimiterRecognition::Match::None)
        return {};
    return recognition.match == LimiterRecognition::Match::Same
        ? QString::fromUtf8(recognition.limiter->library)
        : QCoreApplication::translate("KnownLimiters", "derived from %1")
              .arg(QString::fromUtf8(recognition.limiter->library));
}

} // namespace KnownLimiters
