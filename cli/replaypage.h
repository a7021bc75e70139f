#pragma once

#include <QString>

class Recording;

// zsetlab-cli replay FILE --export-html OUT.html [--beside OTHER] [--lang en|vi] [--title TEXT]:
// the run (and the one beside it, in step) as one web page that plays offline.
struct ReplayPageJob
{
    QString replayPath;
    QString besidePath; // empty: one run
    QString output;
    QString language = QStringLiteral("en");
    QString title;
    bool json = false;
};

// Writes the page; the exit code (2: an output or option that cannot be used, 4: a replay
// beside that cannot be read, 7: the page could not be written, a full disk say), with the
// reason on stderr.
int exportReplayPage(const Recording& recording, const ReplayPageJob& job);
