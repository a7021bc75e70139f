#pragma once

#include <QWidget>

class QComboBox;
class QLabel;
class QSlider;
class QToolButton;
class ReplayPlayer;
struct ReplayState;

// The controls of a replay, under the timeline: start, step back, play/pause, step forward, end;
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
    QString captionText() const;
    QSlider* slider() const { return m_slider; }

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslate();
    void showPosition();
    void showPlaying(bool playing);
    void slideTo(int value);
    void fillSlider();
    void fillSpeeds();

    ReplayPlayer* m_player;
    QToolButton* m_start = nullptr;
    QToolButton* m_back = nullptr;
    QToolButton* m_play = nullptr;
    QToolButton* m_forward = nullptr;
    QToolButton* m_end = nullptr;
    QToolButton* m_nextOverwrite = nullptr;
    QToolButton* m_nextBeyond = nullptr;
    QLabel* m_speedLabel = nullptr;
    QComboBox* m_speed = nullptr;
    QComboBox* m_slideBy = nullptr;
    QSlider* m_slider = nullptr;
    QLabel* m_caption = nullptr;
    bool m_sliding = false; // the slider follows the player without moving it back
};
