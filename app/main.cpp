#include "headlessexport.h"
#include "language.h"
#include "mainwindow.h"
#include "scenarioactions.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QTextStream>

#include <cstring>

namespace {
// Export runs need no display: choose the offscreen platform before QApplication exists.
void chooseHeadlessPlatform(int argc, char* argv[])
{
    bool exporting = false;
    for (int i = 1; i < argc; ++i)
        exporting = exporting || std::strncmp(argv[i], "--export-", 9) == 0;
    if (exporting && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
}

bool parseSize(const QString& text, QSize* size)
{
    const QStringList parts = text.toLower().split(QLatin1Char('x'));
    bool okW = false;
    bool okH = false;
    const int w = parts.value(0).toInt(&okW);
    const int h = parts.value(1).toInt(&okH);
    if (parts.size() != 2 || !okW || !okH || w < 320 || h < 240 || w > 8000 || h > 8000)
        return false;
    *size = QSize(w, h);
    return true;
}
} // namespace

int main(int argc, char* argv[])
{
    chooseHeadlessPlatform(argc, argv);
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("zsetlab"));
    QApplication::setOrganizationName(QStringLiteral("zsetlab"));
    QApplication::setApplicationVersion(QStringLiteral(ZSETLAB_VERSION));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/zsetlab.svg")));
    QApplication::setDesktopFileName(QStringLiteral("org.zsetlab.zsetlab"));

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Watch a Redis ZSET rate limiter count wrong, live.\n\n"
                       "Without --redis, zsetlab uses redis://127.0.0.1:6379 if a server answers there, else "
                       "starts a private redis-server of its own (unix socket, no persistence).\n\n"
                       "Headless pictures for documentation (no display needed):\n"
                       "  zsetlab --scenario demo.json --export-png demo.png --size 1600x900 --scale 2"));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption redisOption(QStringLiteral("redis"),
                                         QStringLiteral("Redis to use: redis://[[user]:password@]host[:port][/db] or "
                                                        "unix:///path/to.sock[?db=N]."),
                                         QStringLiteral("URL"));
    const QCommandLineOption noSpawnOption(QStringLiteral("no-spawn"),
                                           QStringLiteral("Never start a private redis-server."));
    const QCommandLineOption scenarioOption(QStringLiteral("scenario"), QStringLiteral("Open this scenario file."),
                                            QStringLiteral("FILE"));
    const QCommandLineOption pngOption(QStringLiteral("export-png"),
                                       QStringLiteral("Run the scenario, write a PNG of the window and exit."),
                                       QStringLiteral("OUT.png"));
    const QCommandLineOption svgOption(QStringLiteral("export-svg"), QStringLiteral("Also write an SVG of the window."),
                                       QStringLiteral("OUT.svg"));
    const QCommandLineOption jsonOption(QStringLiteral("export-json"),
                                        QStringLiteral("Also write the summary as JSON (as zsetlab-cli run --json)."),
                                        QStringLiteral("OUT.json"));
    const QCommandLineOption sizeOption(QStringLiteral("size"),
                                        QStringLiteral("Window size for exports (default 1600x900)."),
                                        QStringLiteral("WxH"), QStringLiteral("1600x900"));
    const QCommandLineOption scaleOption(QStringLiteral("scale"), QStringLiteral("PNG scale: 1 or 2 (default 1)."),
                                         QStringLiteral("N"), QStringLiteral("1"));
    const QCommandLineOption langOption(
        QStringLiteral("lang"), QStringLiteral("Language: en or vi (default: the system's)."), QStringLiteral("en|vi"));
    parser.addOptions({redisOption, noSpawnOption, scenarioOption, pngOption, svgOption, jsonOption, sizeOption,
                       scaleOption, langOption});
    parser.process(app);
    QTextStream err(stderr);

    const bool exporting = parser.isSet(pngOption) || parser.isSet(svgOption) || parser.isSet(jsonOption);
    HeadlessExport::Job job;
    if (exporting) {
        if (!parser.isSet(scenarioOption)) {
            err << "zsetlab: --export-png, --export-svg and --export-json need --scenario FILE.\n";
            return 2;
        }
        if (!parseSize(parser.value(sizeOption), &job.size)) {
            err << "zsetlab: --size must be WIDTHxHEIGHT from 320x240 to 8000x8000, not \"" << parser.value(sizeOption)
                << "\".\n";
            return 2;
        }
        const QString scale = parser.value(scaleOption);
        if (scale != QLatin1String("1") && scale != QLatin1String("2")) {
            err << "zsetlab: --scale must be 1 or 2, not \"" << scale << "\".\n";
            return 2;
        }
        job.scale = scale.toDouble();
        job.png = parser.value(pngOption);
        job.svg = parser.value(svgOption);
        job.json = parser.value(jsonOption);
    }
    if (parser.isSet(langOption) && parser.value(langOption) != QLatin1String("en")
        && parser.value(langOption) != QLatin1String("vi")) {
        err << "zsetlab: --lang must be en or vi.\n";
        return 2;
    }
    Scenario scenario;
    if (parser.isSet(scenarioOption)) {
        QString error;
        if (!Scenario::load(parser.value(scenarioOption), &scenario, &error)) {
            err << "zsetlab: " << error << '\n';
            return 2;
        }
    }

    // The language: --lang, else the scenario's, else the system's.
    QString language = Language::systemDefault();
    if (!scenario.language.isEmpty())
        language = scenario.language;
    if (parser.isSet(langOption))
        language = parser.value(langOption);
    Language::set(language);

    MainWindow window;
    if (parser.isSet(scenarioOption))
        window.applyScenario(scenario);
    RedisServerChoice::Request request;
    request.url = parser.value(redisOption);
    request.allowSpawn = !parser.isSet(noSpawnOption);
    if (exporting) {
        job.scenario = scenario;
        auto* headless = new HeadlessExport(&window, job);
        QObject::connect(headless, &HeadlessExport::finished, &app, [](int code) { QCoreApplication::exit(code); });
        window.show();
        window.connectToServer(request);
        headless->start();
        return QApplication::exec();
    }
    window.show();
    window.connectToServer(request);
    return QApplication::exec();
}
