#pragma once

#include <QSplitter>

// A splitter that counts its contents margins in its sizes, as a layout counts a widget's: the
// lesson frames a part with a margin around it (Spotlight), and QSplitter leaves its margins
// out. Around the runs the window took a minimum 10 px short, and in compare mode at 1280x720
// the counts charts got less than their minimum while the window saw no reason to fit.
class FramedSplitter : public QSplitter
{
    Q_OBJECT
public:
    using QSplitter::QSplitter;

    QSize minimumSizeHint() const override;
    QSize sizeHint() const override;
};
