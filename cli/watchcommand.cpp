#include "watchcommand.h"

#include "base/interrupts.h"
#include "base/outputfile.h"
#include "burst/burstplan.h"
#include "doctor/knownlimiters.h"
#include "exitcodes.h"
#include "replay/replayfile.h"
#include "serveroptions.h"
#include "terminaltext.h"
#include "watch/watchrecording.h"
#include "watch/watchsession.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLocale>
#include <QTextStream>

namespace {
const char description[] = R"(Watch the Redis your app uses, read-only, through MONITOR: replay every command
on the sorted sets whose keys match --pattern, and count the requests whose ZADD found
its member there already (an overwrite: the limiter counts that request with an
earlier one). Nothing is written. MONITOR costs the server much of its throughput
while it runs: the watch ends after --duration, or at once on Ctrl+C.

Examples:
  zsetlab-cli watch --redis redis://127.0.0.1:6379 --pattern 'rl:*' --duration 10000
  zsetlab-cli watch --redis unix:///run/redis/redis.sock --pattern 'limit:*' --json
  zsetlab-cli watch --pattern 'rl:*' --save-replay rl.zsetreplay --key rl:user:42

Exit codes: 0 no overwrite seen, 1 an overwrite was seen, 2 bad usage (or a server not
on this machine without --allow-remote), 3 cannot connect, authenticate or MONITOR (no
permission), or the server went away (what was seen is printed), 7 --save-replay could
not be written (a full disk, say: the reason is on stderr, no partial file is left), 130
stopped by Ctrl+C or SIGTERM before --duration (what was seen is printed). --save-replay
writes only over a regular file or makes a new one: a folder, a device, a named pipe or a
symbolic link there is refused (exit 2) before the watch.)";

const char schema[] = "zsetlab.watch/1";

struct WatchOptions
{
    QCommandLineOption pattern {QStringLiteral("pattern"),
                                QStringLiteral("Watch the sorted sets whose keys match this Redis glob (*, ?, [abc], "
                                               "\\x). Give it again for more. Default: every key."),
                                QStringLiteral("GLOB")};
    QCommandLineOption db {QStringLiteral("db"),
                           QStringLiteral("Watch only this database (0 to 15...). Default: every database."),
                           QStringLiteral("N")};
    QCommandLineOption duration {QStringLiteral("duration"),
                                 QStringLiteral("Stop watching after this many ms (default 60000)."),
                                 QStringLiteral("MS"), QStringLiteral("60000")};
    QCommandLineOption json {QStringLiteral("json"), QStringLiteral("Print the report as one JSON object.")};
    QCommandLineOption saveReplay {
        QStringLiteral("save-replay"),
        QStringLiteral("Save one watched key, request by request, as a replay file: its set after every ZADD, as "
                       "MONITOR showed it (open it with zsetlab FILE or zsetlab-cli replay FILE)."),
        QStringLiteral("FILE")};
    QCommandLineOption key {QStringLiteral("key"),
                            QStringLiteral("The key --save-replay saves. Default: the one with the most ZADDs."),
                            QStringLiteral("KEY")};
};

// One key's ZADD records as the snapshots hand them on, kept for --save-replay (at most a replay's
// requests per key).
struct KeptKey
{
    QVector<WatchRecord> records;
    std::vector<WatchMember> preexisting;
    bool cut = false;
};

void keep(QHash<QByteArray, KeptKey>* kept, const WatchSnapshot& snapshot, const QByteArray& only)
{
    for (const WatchedKey& key : snapshot.keys) {
        if ((!only.isEmpty() && key.key != only) || (key.records.isEmpty() && key.preexisting.empty()))
            continue;
        KeptKey& into = (*kept)[key.key];
        into.preexisting.insert(into.preexisting.end(), key.preexisting.begin(), key.preexisting.end());
        const qsizetype room = qsizetype(BurstPlan::maxRequests) - into.records.size();
        into.cut = into.cut || key.records.size() > room;
        into.records += key.records.mid(0, std::max<qsizetype>(room, 0));
    }
}

QString endName(WatchResult::End end)
{
    switch (end) {
    case WatchResult::End::Duration:
        return QStringLiteral("duration");
    case WatchResult::End::Stopped:
        return QStringLiteral("stopped");
    case WatchResult::End::Failed:
        return QStringLiteral("failed");
    }
    return {};
}

QJsonObject reportJson(const WatchResult& result)
{
    QJsonArray keys;
    for (const WatchedKey& key : result.snapshot.keys)
        keys.append(key.toJson());
    QJsonObject json {{QStringLiteral("schema"), QLatin1String(schema)},
                      {QStringLiteral("server_version"), result.serverVersion},
                      {QStringLiteral("server"), result.server.toJson()},
                      {QStringLiteral("duration_ms"), result.snapshot.elapsedMs},
                      {QStringLiteral("ended"), endName(result.end)},
                      {QStringLiteral("commands_seen"), result.snapshot.commandsSeen},
                      {QStringLiteral("dropped_lines"), result.snapshot.droppedLines},
                      {QStringLiteral("dropped_keys"), result.snapshot.droppedKeys},
                      {QStringLiteral("capped_keys"), result.snapshot.cappedKeys},
                      {QStringLiteral("scripts_not_kept"), result.snapshot.scriptsNotKept},
                      {QStringLiteral("script_calls"), result.snapshot.scriptCalls},
                      {QStringLiteral("keys_read"), result.keysRead},
                      {QStringLiteral("keys_too_large_to_read"), result.keysTooLarge},
                      {QStringLiteral("keys_not_read"), result.keysNotRead},
                      {QStringLiteral("lines_behind"), result.linesBehind},
                      {QStringLiteral("oversize_lines"), result.oversizeLines},
                      {QStringLiteral("requests"), result.snapshot.requests()},
                      {QStringLiteral("overwrites"), result.snapshot.overwrites()},
                      {QStringLiteral("verdict"), result.snapshot.verdict()},
                      {QStringLiteral("keys"), keys}};
    if (result.error.isError())
        json.insert(QStringLiteral("error"), result.error.message);
    return json;
}

QString sourcesText(const WatchedKey& key, const QHash<QByteArray, QByteArray>& scripts)
{
    QStringList parts;
    for (const WatchSource& source : key.sources) {
        const QString id = QString::fromUtf8(source.id);
        if (source.kind == WatchSource::Kind::Client) {
            parts << QStringLiteral("client ") + id;
            continue;
        }
        const QString known = KnownLimiters::nameOf(source.id, scripts.value(source.id.toLower()));
        parts << QStringLiteral("script ") + id.left(12)
                + (known.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(known));
    }
    if (key.otherSources > 0)
        parts << QStringLiteral("+%1 more requests").arg(key.otherSources);
    return parts.join(QStringLiteral(", "));
}

QString reportText(const WatchResult& result)
{
    const QLocale locale;
    const WatchSnapshot& s = result.snapshot;
    QString text;
    QTextStream out(&text);
    out << "watched " << result.server.displayName() << " for " << QString::number(double(s.elapsedMs) / 1000.0, 'f', 1)
        << " s: " << locale.toString(s.commandsSeen) << " commands, " << locale.toString(s.scriptCalls)
        << " script calls\n";
    if (s.keys.isEmpty()) {
        out << "  no sorted set matched\n";
    } else {
        auto nameOf = [](const WatchedKey& key) {
            const QString name = terminalSafe(QString::fromUtf8(key.key));
            return key.db == 0 ? name : QStringLiteral("%1 (db %2)").arg(name).arg(key.db);
        };
        int width = 30; // the longest key's, so that the columns stay in line
        for (const WatchedKey& key : s.keys)
            width = std::max(width, int(std::min<qsizetype>(nameOf(key).size(), 100)));
        out << QStringLiteral("  %1 %2 %3 %4 %5 %6 %7  %8\n")
                   .arg(QStringLiteral("key"), -width)
                   .arg(QStringLiteral("requests"), 10)
                   .arg(QStringLiteral("zadds"), 10)
                   .arg(QStringLiteral("overwrites"), 10)
                   .arg(QStringLiteral("members"), 9)
                   .arg(QStringLiteral("size"), 8)
                   .arg(QStringLiteral("true"), 8)
                   .arg(QStringLiteral("from"));
        for (const WatchedKey& key : s.keys) {
            out << QStringLiteral("  %1 %2 %3 %4 %5 %6 %7  %8\n")
                       .arg(nameOf(key), -width)
                       .arg(locale.toString(key.requests), 10)
                       .arg(locale.toString(key.zadds), 10)
                       .arg(locale.toString(key.overwrites), 10)
                       .arg(locale.toString(key.distinctMembers), 9)
                       .arg(locale.toString(key.size), 8)
                       .arg(key.trueCount < 0 ? QStringLiteral("?") : locale.toString(key.trueCount), 8)
                       .arg(terminalSafe(sourcesText(key, s.scripts)));
            if (key.capped)
                out << "      (its copy reached the watch's bound of members: followed no further, counted until "
                       "then)\n";
            else if (!key.stateKnown)
                out << "      (the key held members before the watch that it did not see: its counts may miss "
                       "overwrites of them)\n";
        }
        out << "  size: members now, the count the limiter sees; true: the requests still in the window "
               "had each kept a member of its own\n";
    }
    if (s.droppedLines > 0 || s.droppedKeys > 0)
        out << "  not followed: " << s.droppedLines << " lines (" << result.linesBehind
            << " that came when the time was up, " << result.oversizeLines << " longer than 1 MiB, the rest not "
            << "MONITOR lines), " << s.droppedKeys << " keys beyond the bound\n";
    if (s.cappedKeys > 0) {
        const WatchLimits bounds;
        out << "  bounded: " << s.cappedKeys << " keys whose copy reached "
            << QLocale::c().toString(bounds.membersPerKey) << " members or " << (bounds.memberBytes >> 20)
            << " MiB of members in all were followed no further (counted until then)\n";
    }
    if (s.scriptsNotKept > 0)
        out << "  bounded: " << s.scriptsNotKept << " script bodies were not kept (longer than "
            << (WatchLimits().scriptBytes >> 10) << " KiB, or past " << WatchLimits().scripts << " scripts or "
            << (WatchLimits().scriptBytesInAll >> 20) << " MiB in all)\n";
    if (result.keysNotRead > 0)
        out << "  not read: " << result.keysNotRead
            << " keys first seen mid-stream (the time was up, or reading them failed)\n";
    out << s.verdict();
    return text;
}
} // namespace

int runWatchCommand(const QStringList& arguments)
{
    QTextStream err(stderr);
    QTextStream out(stdout);
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates)); // "9,870", as run prints
    QCommandLineParser parser;
    parser.setApplicationDescription(QString::fromLatin1(description));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("watch"), QStringLiteral("The command."));
    const WatchOptions o;
    const ServerOptions server;
    server.addTo(parser);
    parser.addOptions({o.pattern, o.db, o.duration, o.json, o.saveReplay, o.key});
    if (!parser.parse(arguments)) {
        err << "zsetlab-cli watch: " << parser.errorText() << "\nSee zsetlab-cli watch --help.\n";
        return ExitUsage;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        out << parser.helpText();
        return ExitDone;
    }
    if (parser.positionalArguments().size() > 1) {
        err << "zsetlab-cli watch: unexpected argument \"" << parser.positionalArguments().at(1) << "\".\n";
        return ExitUsage;
    }

    if (parser.isSet(o.key) && !parser.isSet(o.saveReplay)) {
        err << "zsetlab-cli watch: --key names the key --save-replay saves; give --save-replay FILE too.\n";
        return ExitUsage;
    }
    if (parser.isSet(o.saveReplay)) { // before the watch, not after it
        if (const QString refused = OutputFile::refusal(parser.value(o.saveReplay)); !refused.isEmpty()) {
            err << "zsetlab-cli watch: --save-replay: Could not save the replay: " << refused << '\n';
            return ExitUsage;
        }
    }
    WatchSession::Settings settings;
    bool ok = false;
    const qint64 durationMs = parser.value(o.duration).toLongLong(&ok);
    if (!ok || durationMs < 1 || durationMs > 86400000) {
        err << "zsetlab-cli watch: --duration must be a number of milliseconds from 1 to 86400000 (a day), not \""
            << parser.value(o.duration) << "\".\n";
        return ExitUsage;
    }
    settings.duration = std::chrono::milliseconds(durationMs);
    if (parser.isSet(o.db)) {
        settings.db = parser.value(o.db).toInt(&ok);
        if (!ok || settings.db < 0) {
            err << "zsetlab-cli watch: --db must be a database number such as 0, not \"" << parser.value(o.db)
                << "\".\n";
            return ExitUsage;
        }
    }
    for (const QString& glob : parser.values(o.pattern)) {
        if (glob.isEmpty()) {
            err << "zsetlab-cli watch: --pattern needs a glob such as 'rl:*'.\n";
            return ExitUsage;
        }
        settings.patterns.append(KeyPattern(glob.toUtf8()));
    }
    if (parser.isSet(server.redis)) {
        // Refused before any connection or name lookup, as run refuses it.
        RedisEndpoint endpoint;
        QString why;
        if (!server.endpoint(parser, &endpoint, &why)) {
            err << "zsetlab-cli watch: --redis: " << why << '\n';
            return ExitUsage;
        }
        if (!endpoint.isLocal() && !parser.isSet(server.allowRemote)) {
            err << "zsetlab-cli watch: " << endpoint.address()
                << " is not on this machine. MONITOR costs a server much of its throughput while it runs; if this "
                   "server is yours to watch, add --allow-remote.\n";
            return ExitUsage;
        }
    }
    RedisServerChoice choice;
    if (const int code = server.resolve(parser, &choice, false); code != ExitDone)
        return code;
    if (choice.origin() != RedisServerChoice::Origin::Private)
        err << "zsetlab-cli watch: MONITOR slows this server while the watch runs (Redis's MONITOR page: SET "
               "from about 95k to 42k requests/s with one monitor); it ends after "
            << durationMs << " ms or on Ctrl+C." << Qt::endl;
    settings.endpoint = choice.endpoint();
    settings.options = choice.options();

    WatchSession session;
    WatchResult result;
    QHash<QByteArray, KeptKey> kept;
    const bool saving = parser.isSet(o.saveReplay);
    const QByteArray onlyKey = parser.value(o.key).toUtf8();
    QObject::connect(&session, &WatchSession::snapshotAvailable, &session, [&](const WatchSnapshot& snapshot) {
        if (saving)
            keep(&kept, snapshot, onlyKey);
    });
    QObject::connect(&session, &WatchSession::finished, &session, [&](const WatchResult& finished) {
        result = finished;
        if (saving)
            keep(&kept, finished.snapshot, onlyKey);
        QCoreApplication::quit();
    });
    QObject::connect(&session, &WatchSession::started, &session,
                     [&err] { err << "zsetlab-cli watch: watching; MONITOR is on." << Qt::endl; });
    onInterrupt([&session] { session.stop(); });
    session.start(settings);
    QCoreApplication::exec();

    if (result.error.isError())
        err << "zsetlab-cli watch: " << result.error.message << Qt::endl;
    const bool watched = !result.serverVersion.isEmpty() && result.error.kind != RedisError::Kind::NoPermission;
    if (watched) {
        if (parser.isSet(o.json))
            out << QJsonDocument(reportJson(result)).toJson(QJsonDocument::Compact) << '\n';
        else
            out << reportText(result) << '\n';
    }
    out.flush();
    bool saved = true;
    if (saving && watched) {
        QByteArray chosen = onlyKey; // else the key with the most ZADDs (the first by name on a tie)
        for (auto it = kept.cbegin(); onlyKey.isEmpty() && it != kept.cend(); ++it) {
            const qsizetype most = chosen.isEmpty() ? -1 : kept.value(chosen).records.size();
            if (it->records.size() > most || (it->records.size() == most && it.key() < chosen))
                chosen = it.key();
        }
        const KeptKey key = kept.value(chosen);
        const Recording recording
            = WatchRecording::of(chosen, key.records, key.preexisting, result.server.name, result.server.nameVersion);
        QString why;
        if (recording.isEmpty()) {
            err << "zsetlab-cli watch: --save-replay: no ZADD to "
                << (onlyKey.isEmpty() ? QStringLiteral("a watched key") : QString::fromUtf8(onlyKey))
                << " was seen: nothing saved.\n";
        } else if (!ReplayFile::save(parser.value(o.saveReplay), recording, &why)) {
            err << "zsetlab-cli watch: --save-replay: " << why << '\n';
            saved = false;
        } else {
            err << "zsetlab-cli watch: saved " << recording.requests() << " requests to "
                << terminalSafe(QString::fromUtf8(chosen)) << " in " << parser.value(o.saveReplay)
                << (key.cut ? " (the first ones: a replay holds at most that many)" : "") << ".\n";
        }
    }
    if (result.end == WatchResult::End::Failed)
        return ExitConnection;
    if (result.end == WatchResult::End::Stopped || interrupted())
        return ExitInterrupted;
    if (!saved)
        return ExitNotWritten;
    return result.snapshot.overwrites() > 0 ? ExitFinding : ExitDone;
}
