#include "webpage.h"

#include "base/interrupts.h"
#include "base/outputfile.h"
#include "pagedata.h"
#include "replay/recording.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QJsonArray>
#include <QJsonObject>

namespace {
struct Text
{
    Q_DECLARE_TR_FUNCTIONS(WebPage)
};

// The page's script, in the order the files are inlined: the texts, reading the data, drawing
// the timeline, then the page itself (which starts everything).
const char* const scriptParts[] = {":/web/text.js", ":/web/data.js", ":/web/timeline.js", ":/web/view.js"};

QByteArray resource(const char* path)
{
    QFile file(QString::fromLatin1(path));
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

QByteArray escapedHtml(const QString& text)
{
    return text.toHtmlEscaped().toUtf8();
}

// A CSP source for one inline block: only that exact text may run (or style the page).
QByteArray hashSource(const QByteArray& block)
{
    return "'sha256-" + QCryptographicHash::hash(block, QCryptographicHash::Sha256).toBase64() + '\'';
}

// {{NAME}} replaced by its value, in one pass: a value is never read again for names.
QByteArray filled(const QByteArray& page, const QHash<QByteArray, QByteArray>& values)
{
    QByteArray out;
    out.reserve(page.size() + values.value("DATA").size() + values.value("SCRIPT").size() + (1 << 16));
    qsizetype from = 0;
    while (true) {
        const qsizetype open = page.indexOf("{{", from);
        const qsizetype close = open < 0 ? -1 : page.indexOf("}}", open + 2);
        if (close < 0) {
            out.append(page.mid(from));
            return out;
        }
        out.append(page.mid(from, open - from));
        out.append(values.value(page.mid(open + 2, close - open - 2)));
        from = close + 2;
    }
}

bool failWith(QString* error, const QString& message)
{
    if (error)
        *error = message;
    return false;
}

QString sameFile(const QString& path)
{
    const QFileInfo info(path);
    return info.exists() ? info.canonicalFilePath() : info.absoluteFilePath();
}
} // namespace

QByteArray WebPage::render(const std::vector<Side>& sides, const Options& options, QString* error)
{
    if (sides.empty() || int(sides.size()) > maxSides) {
        failWith(error,
                 Text::tr("A web page plays one run, or two side by side; %n were given.", nullptr, int(sides.size())));
        return {};
    }
    QJsonObject header;
    header[QStringLiteral("schema")] = QStringLiteral("zsetlab.page/1");
    header[QStringLiteral("lang")] = options.language == QLatin1String("vi") ? options.language : QStringLiteral("en");
    header[QStringLiteral("title")] = options.title;
    header[QStringLiteral("made_by")] = QStringLiteral("zsetlab " ZSETLAB_VERSION);
    header[QStringLiteral("exported")] = QDateTime::currentDateTimeUtc().toString(Qt::ISODate);
    QJsonArray sideHeaders;
    std::vector<const Recording*> recordings;
    for (const Side& side : sides) {
        if (!side.recording || side.recording->isEmpty()) {
            failWith(error,
                     Text::tr("The run holds no request (it was stopped before the first answer): there is "
                              "nothing to play. Record a run that got answers first."));
            return {};
        }
        sideHeaders.append(PageData::sideHeader(*side.recording, side.title));
        recordings.push_back(side.recording);
    }
    header[QStringLiteral("sides")] = sideHeaders;

    QByteArray script = "(function () {\n\"use strict\";\n";
    for (const char* part : scriptParts)
        script += resource(part) + '\n';
    script += "})();\n";
    const QByteArray style = resource(":/web/replay.css");
    const QByteArray page = resource(":/web/replay.html");
    // The parts are zsetlab's own: a missing one, or a script that would end its own block, is
    // a broken build, not a user's mistake.
    if (page.isEmpty() || style.isEmpty() || script.contains("</script") || style.contains("</style")) {
        failWith(error,
                 Text::tr("This zsetlab was built without its web page (a resource is missing). Reinstall "
                          "zsetlab."));
        return {};
    }
    const QByteArray csp = "default-src 'none'; script-src " + hashSource(script) + "; style-src " + hashSource(style)
        + "; img-src data:; base-uri 'none'; form-action 'none'";
    QHash<QByteArray, QByteArray> values;
    values.insert("LANG", header.value(QLatin1String("lang")).toString().toLatin1());
    values.insert("CSP", csp);
    values.insert("TITLE", escapedHtml(options.title.isEmpty() ? QStringLiteral("zsetlab replay") : options.title));
    values.insert("MADE_BY", escapedHtml(header.value(QLatin1String("made_by")).toString()));
    values.insert("STYLE", style);
    values.insert("SCRIPT", script);
    values.insert("DATA", PageData::pack(header, recordings).toBase64());
    return filled(page, values);
}

QString WebPage::refusal(const QString& path, const QStringList& inputs)
{
    if (path.isEmpty())
        return Text::tr("Give the web page a file name, e.g. run.html.");
    const QFileInfo info(path);
    if (info.isDir())
        return Text::tr("%1 is a folder: give a file name in it, e.g. %2.")
            .arg(path, QDir(path).filePath(QStringLiteral("run.html")));
    const QFileInfo folder(info.absolutePath());
    if (!folder.isDir())
        return Text::tr("The folder %1 does not exist: create it first, or choose another.")
            .arg(QDir::toNativeSeparators(info.absolutePath()));
    if (!folder.isWritable() || (info.exists() && !info.isWritable()))
        return Text::tr("%1 may not be written here: choose a folder you may write to.").arg(path);
    for (const QString& input : inputs) {
        if (!input.isEmpty() && sameFile(input) == sameFile(path))
            return Text::tr("%1 is the replay the page is made from, which it would replace: give the page another "
                            "name, e.g. %2.html.")
                .arg(path, info.completeBaseName());
    }
    // A device, a named pipe or a symbolic link at the path: only a regular file is replaced.
    return OutputFile::refusal(path);
}

bool WebPage::write(const QString& path, const std::vector<Side>& sides, const Options& options, QString* error,
                    const QStringList& inputs)
{
    if (const QString refused = refusal(path, inputs); !refused.isEmpty())
        return failWith(error, refused);
    const QByteArray page = render(sides, options, error);
    if (interrupted()) // the page may be cut short: none is written
        return failWith(error, Text::tr("Stopped by a signal: the web page was not written."));
    if (page.isEmpty())
        return false;
    QString why;
    if (!OutputFile::write(path, page, &why))
        return failWith(error, Text::tr("Could not write the web page: %1").arg(why));
    return true;
}
