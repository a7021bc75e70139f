#pragma once

// RunCursor: a cursor over a recording, stepped by hand or played at a chosen speed.

#include "replay/recording.h"

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

#include <memory>

// How fast a recording plays: so many requests a second (slow motion for a class: one a
// second), or its own timestamps at a factor of real time (1x: a millisecond of `now` a millisecond).
struct ReplaySpeed
{
    enum class Unit { RequestsPerSecond, TimeFactor };
    Unit unit = Unit::RequestsPerSecond;
    double value = 1;

    // The speeds offered, slowest first.
    static const QVector<ReplaySpeed>& choices();
    QString name() const; // "1 request/s", "10x time"
    bool operator==(const ReplaySpeed& other) const { return unit == other.unit && value == other.value; }
};

// The position of every view of a run: the timeline, the counts chart, the figures and the ZSET
// table show the state right after request position(). A live run's cursor follows its end
// (followEnd); stepping or playing leaves the end. Playing advances with the wall clock, not per
// tick: a late frame skips ahead instead of slowing the replay down.
class RunCursor : public QObject
{
    Q_OBJECT
public:
    explicit RunCursor(QObject* parent = nullptr);

    // A new recording: the cursor at its last request (the state the run ended with).
    void setRecording(std::shared_ptr<const Recording> recording);
    const std::shared_ptr<const Recording>& recording() const { return m_recording; }
    bool isEmpty() const { return !m_recording || m_recording->isEmpty(); }
    int requests() const { return m_recording ? m_recording->requests() : 0; }
    // 0-based; -1 without a recording.
    int position() const { return m_position; }
    bool isPlaying() const { return m_timer.isActive(); }
    ReplaySpeed speed() const { return m_speed; }
    // Milliseconds between frames while playing (16: 60 frames a second).
    void setFrameInterval(int ms) { m_timer.setInterval(ms); }

public slots:
    void setPosition(int request);
    void stepForward() { setPosition(m_position + 1); }
    void stepBack() { setPosition(m_position - 1); }
    void toStart() { setPosition(0); }
    void toEnd() { setPosition(requests() - 1); }
    // To the next request that overwrote a member, or was admitted beyond the limit; false: none.
    bool toNextOverwrite();
    bool toNextBeyondLimit();
    // From the start when at the end.
    void play();
    void pause();
    void togglePlaying();
    void setSpeed(const ReplaySpeed& speed);

signals:
    void recordingChanged();
    void positionChanged(int request);
    void playingChanged(bool playing);

private:
    void advance();
    void restartClock();

    std::shared_ptr<const Recording> m_recording;
    int m_position = -1;
    ReplaySpeed m_speed;
    QTimer m_timer;
    QElapsedTimer m_clock; // since play() or the last change of speed
    int m_startPosition = 0;
    qint64 m_startNow = 0;
};
