#include "commandline.h"

#include "animation/animationexport.h"
#include "redis/redisserverchoice.h"
#include "redis/tlsoptions.h"

#include <QCommandLineParser>
#include <QCoreApplication>

namespace {
// The largest picture or frame: 4K UHD, more than any screen or slide shows. A frame is held in
// memory at 4 bytes a pixel, several at once while an animation is encoded: 8000x8000 took 4.85 GB
// for a GIF of 20 frames; 3840x2160 is 33 MB a frame.
constexpr int maxWidth = 3840;
constexpr int maxHeight = 2160;

bool parseSize(const QString& text, QSize* size)
{
    const QStringList parts = text.toLower().split(QLatin1Char('x'));
    bool okW = false;
    bool okH = false;
    const int w = parts.value(0).toInt(&okW);
    const int h = parts.value(1).toInt(&okH);
    if (parts.size() != 2 || !okW || !okH || w < 320 || h < 240 || w > maxWidth || h > maxHeight)
        return false;
    *size = QSize(w, h);
    return true;
}

QString sizeError(const QString& given)
{
    return QStringLiteral("--size must be WIDTHxHEIGHT from 320x240 to %1x%2, not \"%3\": a larger picture is more "
                          "than a screen or slide shows (4K UHD), and each frame is held in memory (%1x%2 is 33 MB "
                          "a frame).")
        .arg(maxWidth)
        .arg(maxHeight)
        .arg(given);
}

// Qt's own options (QGuiApplication and QApplication take them out of the arguments later): known
// here, so that `zsetlab -platform offscreen` is not a usage error, and hidden from --help.
void addQtOptions(QCommandLineParser* parser)
{
    const char* const withValue[] = {"platform",    "platformpluginpath", "platformtheme", "plugin",  "qwindowgeometry",
                                     "qwindowicon", "qwindowtitle",       "session",       "display", "geometry",
                                     "style",       "stylesheet",         "qmljsdebugger"};
    const char* const flags[] = {"reverse", "widgetcount", "nograb", "dograb", "sync"};
    for (const char* name : withValue) {
        QCommandLineOption option(QString::fromLatin1(name), QString(), QStringLiteral("value"));
        option.setFlags(QCommandLineOption::HiddenFromHelp);
        parser->addOption(option);
    }
    for (const char* name : flags) {
        QCommandLineOption option(QString::fromLatin1(name));
        option.setFlags(QCommandLineOption::HiddenFromHelp);
        parser->addOption(option);
    }
}

AppCommandLine::Result usageError(const QString& message)
{
    AppCommandLine::Result result;
    result.outcome = AppCommandLine::Result::Outcome::UsageError;
    result.text = QStringLiteral("zsetlab: ") + message + QStringLiteral("\nTry 'zsetlab --help'.\n");
    return result;
}
} // namespace

AppCommandLine::Result AppCommandLine::parse(const QStringList& arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Watch a Redis ZSET rate limiter count wrong, live.\n\n"
                       "Without --redis, zsetlab uses redis://127.0.0.1:6379 if a server answers there, else "
                       "starts a private redis-server of its own (unix socket, no persistence).\n\n"
                       "Headless pictures for documentation (no display needed):\n"
                       "  zsetlab --scenario demo.json --export-png demo.png --size 1600x900 --scale 2\n"
                       "  zsetlab --lesson all --export-png handouts/ --lang vi --size 1280x720\n"
                       "  zsetlab --lesson all --export-pdf handout.pdf --lang vi\n"
                       "  zsetlab --replay run.zsetreplay --export-html run.html --lang vi"));
    const QCommandLineOption helpOption = parser.addHelpOption();
    const QCommandLineOption versionOption = parser.addVersionOption();
    const QCommandLineOption redisOption(QStringLiteral("redis"),
                                         QStringLiteral("Redis to use: redis://[[user]:password@]host[:port][/db], "
                                                        "the same with rediss:// for TLS, or "
                                                        "unix:///path/to.sock[?db=N]."),
                                         QStringLiteral("URL"));
    const QCommandLineOption noSpawnOption(QStringLiteral("no-spawn"),
                                           QStringLiteral("Never start a private redis-server."));
    const QCommandLineOption privateOption(
        QStringLiteral("private"),
        QStringLiteral("Start a private redis-server even if one answers on 6379: a clean, empty server."));
    const QCommandLineOption allowRemoteOption(
        QStringLiteral("allow-remote"),
        QStringLiteral("Exports and lessons: allow firing at a --redis server that is not on this machine (not "
                       "loopback, not a unix socket). The window asks instead."));
    const QCommandLineOption trustScriptOption(
        QStringLiteral("trust-script"),
        QStringLiteral(
            "Run a script of yours (Script Doctor, \"Use for bursts\") on a server that lets zsetlab make no "
            "temporary ACL user for it, with every right of the connection's user. Without it such a "
            "server runs only zsetlab's own limiters."));
    const QCommandLineOption allowEvictionOption(
        QStringLiteral("allow-eviction"),
        QStringLiteral("Exports and lessons: write to a --redis server that deletes keys to make room when it is full "
                       "(maxmemory with an evicting policy). The window asks instead."));
    const QCommandLineOption scenarioOption(QStringLiteral("scenario"), QStringLiteral("Open this scenario file."),
                                            QStringLiteral("FILE"));
    const QCommandLineOption replayOption(
        QStringLiteral("replay"),
        QStringLiteral("Open this replay file (saved by File > Save Replay or zsetlab-cli run --save-replay); "
                       "it needs no Redis. zsetlab FILE opens a replay or, ending in .json, a scenario."),
        QStringLiteral("FILE"));
    const QCommandLineOption pngOption(QStringLiteral("export-png"),
                                       QStringLiteral("Run the scenario, write a PNG of the window and exit."),
                                       QStringLiteral("OUT.png"));
    const QCommandLineOption svgOption(QStringLiteral("export-svg"), QStringLiteral("Also write an SVG of the window."),
                                       QStringLiteral("OUT.svg"));
    const QCommandLineOption jsonOption(QStringLiteral("export-json"),
                                        QStringLiteral("Also write the summary as JSON (as zsetlab-cli run --json)."),
                                        QStringLiteral("OUT.json"));
    const QCommandLineOption pdfOption(
        QStringLiteral("export-pdf"),
        QStringLiteral("With --lesson: write a printable handout, per step a question page (the lesson's stage "
                       "before Redis answers), then the answer page (the stage after)."),
        QStringLiteral("OUT.pdf"));
    const QCommandLineOption sizeOption(
        QStringLiteral("size"),
        QStringLiteral("Window size for exports, from 320x240 to 3840x2160 (default 1600x900)."), QStringLiteral("WxH"),
        QStringLiteral("1600x900"));
    const QCommandLineOption scaleOption(QStringLiteral("scale"), QStringLiteral("PNG scale: 1 or 2 (default 1)."),
                                         QStringLiteral("N"), QStringLiteral("1"));
    const QCommandLineOption langOption(
        QStringLiteral("lang"), QStringLiteral("Language: en or vi (default: the system's)."), QStringLiteral("en|vi"));
    const QCommandLineOption lessonOption(
        QStringLiteral("lesson"),
        QStringLiteral("Run lesson step N (or every step) with its action, write the lesson's stage (what the "
                       "class sees) with --export-png (a folder for all) and exit."),
        QStringLiteral("N|all"));
    const QCommandLineOption gifOption(
        QStringLiteral("export-gif"),
        QStringLiteral("With a replay: write it as an animated GIF, request by request, and exit (no Redis needed). "
                       "Each frame is the run at that request: the caption of the request, the figures, the "
                       "timeline, the counts chart and the ZSET right after it, at --size, without the window's "
                       "menus, panels or status bar (--whole-window brings them back). With --lesson: each step's "
                       "stage, then its burst request by request (a folder for all)."),
        QStringLiteral("OUT.gif"));
    const QCommandLineOption videoOption(
        QStringLiteral("export-video"),
        QStringLiteral("With a replay: the same as an MP4 (H.264) or WebM (VP9) video."),
        QStringLiteral("OUT.mp4|OUT.webm"));
    const QCommandLineOption wholeWindowOption(
        QStringLiteral("whole-window"),
        QStringLiteral("Animations: frames of the whole window (menus, panels, status bar) instead of the run alone."));
    const QCommandLineOption fromOption(
        QStringLiteral("from"), QStringLiteral("Animations: the first request (default 1)."), QStringLiteral("N"));
    const QCommandLineOption toOption(
        QStringLiteral("to"), QStringLiteral("Animations: the last request (default: the last)."), QStringLiteral("M"));
    const QCommandLineOption speedOption(
        QStringLiteral("speed"),
        QStringLiteral("Animations: 2 plays twice as fast, 0.5 half as fast (default 1; from 0.1 to 1000)."),
        QStringLiteral("X"));
    const QCommandLineOption htmlOption(
        QStringLiteral("export-html"),
        QStringLiteral("With a replay: write it as one web page that plays it offline (its script, style and data "
                       "inside), in the language of --lang, and exit (no Redis needed)."),
        QStringLiteral("OUT.html"));
    const QCommandLineOption besideOption(
        QStringLiteral("beside"),
        QStringLiteral("With --export-html: a second replay the page plays in step beside the first (compare "
                       "mode's other side, or a what-if)."),
        QStringLiteral("FILE"));
    const TlsOptions tlsOptions;
    parser.addPositionalArgument(QStringLiteral("FILE"), QStringLiteral("A replay to open, or a scenario (.json)."),
                                 QStringLiteral("[FILE]"));
    parser.addOptions({redisOption,       noSpawnOption,  privateOption, allowRemoteOption,  trustScriptOption,
                       lessonOption,      scenarioOption, replayOption,  pngOption,          svgOption,
                       jsonOption,        pdfOption,      sizeOption,    scaleOption,        langOption,
                       gifOption,         videoOption,    fromOption,    toOption,           speedOption,
                       wholeWindowOption, htmlOption,     besideOption,  allowEvictionOption});
    tlsOptions.addTo(parser);
    addQtOptions(&parser);
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);

    if (!parser.parse(arguments))
        return usageError(parser.errorText());
    Result result;
    if (parser.isSet(helpOption) || parser.isSet(QStringLiteral("help-all"))) {
        result.outcome = Result::Outcome::Help;
        result.text = parser.helpText();
        if (parser.isSet(QStringLiteral("help-all")))
            result.text
                += QStringLiteral("\nQt's own options are accepted too: -platform NAME, -style NAME, -stylesheet "
                                  "FILE, -reverse, -qwindowgeometry WxH+X+Y, -qwindowtitle TITLE, ...\n");
        return result;
    }
    if (parser.isSet(versionOption)) {
        result.outcome = Result::Outcome::Version;
        result.text = QCoreApplication::applicationName() + QLatin1Char(' ') + QCoreApplication::applicationVersion()
            + QLatin1Char('\n');
        return result;
    }
    const QStringList files = parser.positionalArguments();
    if (files.size() > 1)
        return usageError(QStringLiteral("unexpected argument \"%1\": open one file at a time.").arg(files.at(1)));

    AppOptions& options = result.options;
    RedisServerChoice::Request& request = options.server;
    request.url = parser.value(redisOption);
    request.tls = tlsOptions.read(parser);
    request.allowSpawn = !parser.isSet(noSpawnOption);
    request.privateServer = parser.isSet(privateOption);
    if (request.privateServer && (!request.url.isEmpty() || !request.allowSpawn))
        return usageError(QStringLiteral("--private starts a server of zsetlab's own: it goes with neither --redis "
                                         "nor --no-spawn."));
    options.allowRemote = parser.isSet(allowRemoteOption);
    request.options.trustScripts = parser.isSet(trustScriptOption);
    request.options.allowEviction = parser.isSet(allowEvictionOption);
    options.scenarioPath = parser.value(scenarioOption);
    options.replayPath = parser.value(replayOption);
    if (!files.isEmpty()) {
        // A desktop opens a file by naming it alone: a scenario (.json) or a replay.
        QString& path = files.first().endsWith(QLatin1String(".json"), Qt::CaseInsensitive) ? options.scenarioPath
                                                                                            : options.replayPath;
        if (!path.isEmpty())
            return usageError(
                QStringLiteral("unexpected argument \"%1\": open one file at a time.").arg(files.first()));
        path = files.first();
    }
    if (!options.replayPath.isEmpty() && !options.scenarioPath.isEmpty())
        return usageError(QStringLiteral("open a replay or a scenario, not both."));
    options.language = parser.value(langOption);
    if (parser.isSet(langOption) && options.language != QLatin1String("en") && options.language != QLatin1String("vi"))
        return usageError(QStringLiteral("--lang must be en or vi, not \"%1\".").arg(options.language));

    // A URL that does not parse is a usage error in the window too (it asks about remote servers).
    if (const QString refused = RedisServerChoice::refusalBeforeConnecting(request, true); !refused.isEmpty())
        return usageError(refused);

    if (parser.isSet(htmlOption) || parser.isSet(besideOption)) {
        if (!parser.isSet(htmlOption))
            return usageError(QStringLiteral("--beside goes with --export-html OUT.html."));
        if (options.replayPath.isEmpty())
            return usageError(QStringLiteral("--export-html writes a replay as a web page: add --replay FILE."));
        for (const QCommandLineOption* other : {&pngOption, &svgOption, &jsonOption, &pdfOption, &gifOption,
                                                &videoOption, &lessonOption, &fromOption, &toOption, &speedOption})
            if (parser.isSet(*other))
                return usageError(
                    QStringLiteral("--export-html writes the page alone, without --%1.").arg(other->names().first()));
        options.htmlPath = parser.value(htmlOption);
        options.besidePath = parser.value(besideOption);
        if (options.htmlPath.isEmpty())
            return usageError(QStringLiteral("--export-html needs a file name, e.g. run.html."));
        return result;
    }
    options.exporting = parser.isSet(pngOption) || parser.isSet(svgOption) || parser.isSet(jsonOption);
    options.animating = (parser.isSet(gifOption) || parser.isSet(videoOption)) && !parser.isSet(lessonOption);
    if (parser.isSet(lessonOption) && parser.isSet(videoOption))
        return usageError(QStringLiteral("--lesson writes its animations as GIFs: use --export-gif."));
    if (parser.isSet(lessonOption) && parser.isSet(gifOption)) // a lesson step's burst, animated
        options.animation.path = parser.value(gifOption);
    if (options.animating) {
        if (parser.isSet(gifOption) && parser.isSet(videoOption))
            return usageError(QStringLiteral("write --export-gif or --export-video, one at a time."));
        if (options.replayPath.isEmpty())
            return usageError(QStringLiteral("--export-gif and --export-video animate a replay: add --replay FILE."));
        if (options.exporting)
            return usageError(QStringLiteral("an animation is written alone, without --export-png, --export-svg "
                                             "or --export-json."));
        AnimationJob& job = options.animation;
        job.path = parser.isSet(gifOption) ? parser.value(gifOption) : parser.value(videoOption);
        const auto format = AnimationEncoder::formatOf(job.path);
        if (parser.isSet(gifOption) ? format != AnimationEncoder::Format::Gif
                                    : (!format || format == AnimationEncoder::Format::Gif))
            return usageError(
                parser.isSet(gifOption)
                    ? QStringLiteral("--export-gif writes a .gif file, not \"%1\".").arg(job.path)
                    : QStringLiteral("--export-video writes a .mp4 or .webm file, not \"%1\".").arg(job.path));
        bool ok = true;
        if (parser.isSet(fromOption))
            job.from = parser.value(fromOption).toInt(&ok) - 1;
        if (!ok || job.from < 0)
            return usageError(QStringLiteral("--from must be a request number from 1."));
        if (parser.isSet(toOption))
            job.to = parser.value(toOption).toInt(&ok) - 1;
        if (!ok || (parser.isSet(toOption) && job.to < job.from))
            return usageError(QStringLiteral("--to must be a request number, not before --from."));
        if (parser.isSet(speedOption))
            job.speed = parser.value(speedOption).toDouble(&ok);
        if (!ok || !(job.speed >= AnimationExport::slowestSpeed) || job.speed > AnimationExport::fastestSpeed)
            return usageError(QStringLiteral("--speed must be from 0.1 (five minutes at most) to 1000, not \"%1\".")
                                  .arg(parser.value(speedOption)));
        job.wholeWindow = parser.isSet(wholeWindowOption);
        if (!parseSize(parser.value(sizeOption), &options.job.size))
            return usageError(sizeError(parser.value(sizeOption)));
        return result;
    }
    for (const QCommandLineOption* option : {&fromOption, &toOption, &speedOption, &wholeWindowOption})
        if (parser.isSet(*option))
            return usageError(
                QStringLiteral("--%1 goes with --export-gif or --export-video.").arg(option->names().first()));
    if (parser.isSet(lessonOption)) {
        const QString lesson = parser.value(lessonOption);
        bool ok = false;
        options.lessonStep = lesson == QLatin1String("all") ? 0 : lesson.toInt(&ok);
        if (lesson != QLatin1String("all") && (!ok || options.lessonStep < 1))
            return usageError(QStringLiteral("--lesson must be a step number from 1, or all, not \"%1\".").arg(lesson));
        if (!options.scenarioPath.isEmpty())
            return usageError(QStringLiteral("--lesson runs the lesson's own plans: it goes without --scenario."));
        if (!parser.isSet(pngOption) && !parser.isSet(jsonOption) && !parser.isSet(pdfOption)
            && !parser.isSet(gifOption))
            return usageError(QStringLiteral("--lesson needs --export-png or --export-gif (a file, or a folder for "
                                             "all), --export-pdf or --export-json."));
        if (parser.isSet(svgOption))
            return usageError(QStringLiteral("--lesson writes PNG pictures; --export-svg is for --scenario."));
    } else if (parser.isSet(pdfOption)) {
        return usageError(QStringLiteral("--export-pdf writes a lesson's handout: it goes with --lesson N|all."));
    } else if (!options.exporting) {
        return result;
    } else if (options.scenarioPath.isEmpty()) {
        return usageError(QStringLiteral("--export-png, --export-svg and --export-json need --scenario FILE."));
    }
    if (!parseSize(parser.value(sizeOption), &options.job.size))
        return usageError(sizeError(parser.value(sizeOption)));
    const QString scale = parser.value(scaleOption);
    if (scale != QLatin1String("1") && scale != QLatin1String("2"))
        return usageError(QStringLiteral("--scale must be 1 or 2, not \"%1\".").arg(scale));
    options.job.scale = scale.toDouble();
    options.job.png = parser.value(pngOption);
    options.job.svg = parser.value(svgOption);
    options.job.json = parser.value(jsonOption);
    options.pdf = parser.value(pdfOption);
    // Nobody is there to confirm a remote server: the CLI's rule, before any connection or lookup.
    if (const QString refused = RedisServerChoice::refusalBeforeConnecting(request, options.allowRemote);
        !refused.isEmpty())
        return usageError(refused);
    return result;
}
