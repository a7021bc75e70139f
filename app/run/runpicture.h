#pragma once

#include <QImage>
#include <QSize>
#include <QVector>
#include <QWidget>

#include <memory>

class QLabel;
class Recording;
class RunModel;
class RunView;
class ZsetPanel;

// A recorded run as a picture, at a request: what an animation's frame or a slide shows of it. The
// caption of the request at the cursor, each side's title, figures, timeline and counts chart, and
// the ZSET right after that request; no menu, status bar, replay controls or Burst form. It keeps
// models and cursors of its own over the recordings, so the window's views stay where they were.
class RunPicture : public QWidget
{
    Q_OBJECT
public:
    struct Side
    {
        std::shared_ptr<const Recording> recording;
        QString title; // empty: none (one run alone)
    };

    // The ZSET members a picture lists at most (the table shows a screenful of them).
    static constexpr int membersDrawn = 500;

    // One side, or two side by side (a comparison): their requests are drawn in step. `size`: the
    // picture's size.
    RunPicture(const QVector<Side>& sides, QSize size, QWidget* parent = nullptr);
    ~RunPicture() override;

    // The requests of the first side (the cursor's range).
    int requests() const;
    // The picture right after request `request` (0-based) of every side.
    QImage at(int request);
    QString caption() const;

private:
    QLabel* m_caption = nullptr;
    QVector<RunModel*> m_models;
    QVector<RunView*> m_views;
    ZsetPanel* m_zset = nullptr;
    QSize m_size; // of the pictures
};
