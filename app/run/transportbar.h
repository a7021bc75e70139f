#pragma once

#include <QVector>
#include <QWidget>

#include <array>

class QAction;
class QComboBox;
class QLabel;
class QSlider;
class QHBoxLayout;
class QShortcut;
class QToolButton;
class RunCursor;
struct ReplayState;

// The controls of a replay, under the charts: start, step back, play/pause, step forward, end;
// jumps to the next overwrite and the next admission beyond the limit; the speed; a slider over
// the requests or over their time; and a line saying what the request at the cursor did. Keys
// (while the focus is in `keyArea`): Left/Right step, Space plays or pauses, Home/End.
class TransportBar : public QWidget
{
    Q_OBJECT
public:
    TransportBar(RunCursor* player, QWidget* keyArea, QWidget* parent = nullptr);

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
    // The media keys in its key area (off while another bar steps the same run).
    void setKeysEnabled(bool enabled);
    QAction* forkAction() const { return m_fork; }
    // Its height at `width`, compact (the caption elsewhere) or not.
    int heightAt(int width, bool compact) const;
    QSize minimumSizeHint() const override;
    QSize sizeHint() const override;

signals:
    // "From the request at the cursor on, with …"
    void forkRequested();

protected:
    void changeEvent(QEvent* event) override;
    bool event(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void retranslate();
    void showPosition();
    void showPlaying(bool playing);
    void slideTo(int value);
    void fillSlider();
    void fillSpeeds();
    void elideCaption();
    int captionHeight() const;
    int captionLines(int width) const;
    void fixHeight();
    // The rows the other controls need below the slider's at this width (0: beside it), and
    // placing them so.
    int rowsAt(int width) const;
    int controlsWidth() const;
    void arrangeRows(int width);

    RunCursor* m_player;
    QWidget* m_controls = nullptr; // start, back, play, forward, end
    std::array<QHBoxLayout*, 5> m_rows {}; // the other controls, on one row or more (one each at most)
    QVector<QWidget*> m_secondary;
    int m_arrangedRows = -1;
    int m_narrowestSaid = -1; // the narrowest width the layout above last heard of
    QHBoxLayout* m_firstRowTail = nullptr; // the other controls after the slider, when they fit there
    QVector<QShortcut*> m_keys;
    QToolButton* m_forkButton = nullptr;
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
