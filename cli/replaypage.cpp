#include "replaypage.h"

#include "base/interrupts.h"
#include "exitcodes.h"
#include "replay/recording.h"
#include "replay/replayfile.h"
#include "web/webpage.h"

#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <QTextStream>

int exportReplayPage(const Recording& recording, const ReplayPageJob& job)
{
    QTextStream err(stderr);
    QTextStream out(stdout);
    const QStringList inputs {job.replayPath, job.besidePath};
    // The output first: a page that cannot be written is said before a large replay is read.
    if (const QString refused = WebPage::refusal(job.output, inputs); !refused.isEmpty()) {
        err << "zsetlab-cli replay: " << refused << '\n';
        return ExitUsage;
    }
    Recording beside;
    std::vector<WebPage::Side> sides {{&recording, {}}};
    if (!job.besidePath.isEmpty()) {
        QString error;
        if (!ReplayFile::open(job.besidePath, &beside, &error)) {
            err << "zsetlab-cli replay: --beside: " << error << '\n';
            return interrupted() ? ExitInterrupted : ExitScript;
        }
        if (beside.isEmpty()) {
            err << "zsetlab-cli replay: --beside: " << job.besidePath
                << " holds no request (its run was stopped before the first answer).\n";
            return ExitScript;
        }
        sides.push_back({&beside, {}});
    }
    WebPage::Options options;
    options.language = job.language;
    options.title = job.title;
    QString error;
    if (!WebPage::write(job.output, sides, options, &error, inputs)) {
        err << "zsetlab-cli replay: " << error << '\n';
        if (interrupted())
            return ExitInterrupted;
        // Checked above, so a path that cannot take the page now (a folder made there meanwhile)
        // is a write that failed, as with every export.
        return ExitNotWritten;
    }
    const qint64 bytes = QFileInfo(job.output).size();
    if (job.json) {
        QJsonObject written {{QStringLiteral("page"), job.output},
                             {QStringLiteral("bytes"), bytes},
                             {QStringLiteral("runs"), int(sides.size())},
                             {QStringLiteral("requests"), recording.requests()}};
        if (sides.size() > 1)
            written[QStringLiteral("requests_beside")] = beside.requests();
        out << QJsonDocument(written).toJson(QJsonDocument::Compact) << '\n';
    } else {
        out << "wrote " << job.output << " (" << QLocale::c().toString(bytes) << " bytes): "
            << (sides.size() > 1
                    ? QStringLiteral("%1 and %2 requests, in step").arg(recording.requests()).arg(beside.requests())
                    : QStringLiteral("%1 requests").arg(recording.requests()))
            << "; open it in a browser, no network needed.\n";
    }
    return ExitDone;
}
