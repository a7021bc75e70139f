#pragma once

#include <QWidget>

class QAction;
class QComboBox;
class QLabel;
class QSlider;
class QToolBar;
class ReplayPlayer;
struct ReplayState;

// The controls of a replay, under the charts: start, step back, play/pause, step forward, end;
// jumps to the next overwrite and the next admission beyond the limit; the speed; a slider over
// the requests or over their time; and a line saying what the request at the cursor did. Keys
// (while the focus is in `keyArea`): Left/Right step, Space plays or pauses, Home/End.
class TransportBar : public QWidget
{
    Q_OBJECT
public:
    TransportBar(ReplayPlayer* player, QWidget* keyArea, QWidget* parent = nullptr);

    // "Request 2 of 3: ZADD replied 0: the member was already there, …"
    static QString caption(const ReplayState& state);
    // The ZSET's size, the window's requests and the figures so far (the caption's tooltip).
    static QString details(const ReplayState& state);
    QString captionText() const;
    // One row: the caption only as the slider's tooltip (a low screen, where the charts share a place).
    void setCompact(bool compact);
    QSlider* slider() const { return m_slider; }
    // Offers "What if…" (forkRequested) at the end of the controls.
    void setForkable(bool forkable);
    QAction* forkAction() const { return m_fork; }

signals:
    // "From the request at the cursor on, with …"
    void forkRequested();

protected:
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void retranslate();
    void showPosition();
    void showPlaying(bool playing);
    void slideTo(int value);
    void fillSlider();
    void fillSpeeds();
    void elideCaption();

    ReplayPlayer* m_player;
    // A tool bar: on a narrow run view, what does not fit goes behind its » button.
    QToolBar* m_controls = nullptr;
    QAction* m_start = nullptr;
    QAction* m_back = nullptr;
    QAction* m_play = nullptr;
    QAction* m_forward = nullptr;
    QAction* m_end = nullptr;
    QAction* m_nextOverwrite = nullptr;
    QAction* m_nextBeyond = nullptr;
    QAction* m_fork = nullptr;
    QComboBox* m_speed = nullptr;
    QComboBox* m_slideBy = nullptr;
    QSlider* m_slider = nullptr;
    QLabel* m_caption = nullptr;
    QString m_captionText; // whole; the label shows what fits of it
    bool m_sliding = false; // the slider follows the player without moving it back
};
