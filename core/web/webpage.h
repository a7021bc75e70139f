#pragma once

// WebPage: a recorded run (or two, side by side) as one HTML file that plays it in any browser,
// offline: its style, script and data are inside it and it asks no address for anything.

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <vector>

class Recording;

namespace WebPage {
// One run the page plays. Two sides play in step, request n of each at once (compare mode's
// sides, or a run and its what-if), as the window shows them.
struct Side
{
    const Recording* recording = nullptr;
    QString title; // empty: the page names the run by its limiter
};

struct Options
{
    QString language = QStringLiteral("en"); // the page's language when opened: "en" or "vi"
    QString title; // the page's title; empty: from the runs
};

inline constexpr int maxSides = 2;

// The page, whole. Empty, with *error, when there is nothing to play (no side, a side without
// requests) or more than maxSides sides.
QByteArray render(const std::vector<Side>& sides, const Options& options, QString* error);

// Why `path` cannot take the page, before any work: a folder, a folder that does not exist or
// that may not be written, or one of `inputs` (the replays it is made from, which it would
// replace). Empty: none.
QString refusal(const QString& path, const QStringList& inputs = {});

// render(), written whole or not at all (QSaveFile); false with *error saying what to do.
bool write(const QString& path, const std::vector<Side>& sides, const Options& options, QString* error,
           const QStringList& inputs = {});
} // namespace WebPage
