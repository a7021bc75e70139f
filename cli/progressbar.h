#pragma once

#include <QElapsedTimer>

// A one-line progress bar on stderr, drawn only when stderr is a terminal and the run has lasted
// more than a second.
class ProgressBar
{
public:
    ProgressBar();
    void update(qint64 done, qint64 total);
    void clear();

private:
    QElapsedTimer m_clock;
    qint64 m_lastDrawMs = -1000;
    bool m_enabled = false;
    bool m_drawn = false;
};
