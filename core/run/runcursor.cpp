#include "runcursor.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>

namespace {
struct Text
{
    Q_DECLARE_TR_FUNCTIONS(RunCursor)
};
} // namespace

const QVector<ReplaySpeed>& ReplaySpeed::choices()
{
    using Unit = ReplaySpeed::Unit;
    static const QVector<ReplaySpeed> speeds {
        {Unit::RequestsPerSecond, 1},  {Unit::RequestsPerSecond, 3},   {Unit::RequestsPerSecond, 10},
        {Unit::RequestsPerSecond, 30}, {Unit::RequestsPerSecond, 100}, {Unit::RequestsPerSecond, 1000},
        {Unit::TimeFactor, 0.1},       {Unit::TimeFactor, 1},          {Unit::TimeFactor, 10},
    };
    return speeds;
}

QString ReplaySpeed::name() const
{
    if (unit == Unit::RequestsPerSecond)
        return Text::tr("%Ln request(s)/s", nullptr, int(value));
    return Text::tr("%1× time").arg(QLocale().toString(value));
}

RunCursor::RunCursor(QObject* parent)
    : QObject(parent)
{
    m_timer.setInterval(16);
    m_timer.setTimerType(Qt::PreciseTimer);
    connect(&m_timer, &QTimer::timeout, this, &RunCursor::advance);
}

void RunCursor::setRecording(std::shared_ptr<const Recording> recording)
{
    pause();
    m_recording = std::move(recording);
    m_position = requests() - 1;
    emit recordingChanged();
    emit positionChanged(m_position);
}

void RunCursor::setPosition(int request)
{
    if (isEmpty())
        return;
    request = std::clamp(request, 0, requests() - 1);
    if (request == m_position)
        return;
    m_position = request;
    if (isPlaying())
        restartClock(); // a step while playing goes on from there
    emit positionChanged(m_position);
}

bool RunCursor::toNextOverwrite()
{
    const int next = isEmpty() ? -1 : m_recording->nextOverwrite(m_position);
    if (next >= 0)
        setPosition(next);
    return next >= 0;
}

bool RunCursor::toNextBeyondLimit()
{
    const int next = isEmpty() ? -1 : m_recording->nextBeyondLimit(m_position);
    if (next >= 0)
        setPosition(next);
    return next >= 0;
}

void RunCursor::play()
{
    if (isEmpty() || isPlaying())
        return;
    if (m_position >= requests() - 1)
        setPosition(0);
    restartClock();
    m_timer.start();
    emit playingChanged(true);
}

void RunCursor::pause()
{
    if (!isPlaying())
        return;
    m_timer.stop();
    emit playingChanged(false);
}

void RunCursor::togglePlaying()
{
    if (isPlaying())
        pause();
    else
        play();
}

void RunCursor::setSpeed(const ReplaySpeed& speed)
{
    m_speed = speed;
    if (m_speed.value <= 0)
        m_speed.value = 1;
    restartClock();
}

void RunCursor::restartClock()
{
    m_clock.start();
    m_startPosition = std::max(m_position, 0);
    m_startNow = isEmpty() ? 0 : m_recording->log().now(m_startPosition);
}

void RunCursor::advance()
{
    if (isEmpty()) {
        pause();
        return;
    }
    const double seconds = double(m_clock.nsecsElapsed()) / 1e9;
    int target = m_position;
    if (m_speed.unit == ReplaySpeed::Unit::RequestsPerSecond) {
        target = m_startPosition + int(std::floor(seconds * m_speed.value));
    } else {
        // Every request whose `now` the replay's clock has reached.
        const RequestLog& log = m_recording->log();
        const double unitsPerMs = double(m_recording->info().nowUnitsPerMs);
        const double reached = double(m_startNow) + seconds * 1000 * unitsPerMs * m_speed.value;
        while (target + 1 < requests() && double(log.now(target + 1)) <= reached)
            ++target;
    }
    target = std::min(target, requests() - 1);
    if (target != m_position) {
        m_position = target;
        emit positionChanged(m_position);
    }
    if (m_position >= requests() - 1)
        pause();
}
