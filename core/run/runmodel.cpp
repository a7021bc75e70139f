#include "runmodel.h"

#include "replay/recording.h"
#include "runcursor.h"

#include <algorithm>

RunModel::RunModel(QObject* parent)
    : QObject(parent)
    , m_cursor(new RunCursor(this))
{
    connect(m_cursor, &RunCursor::positionChanged, this, [this](int request) {
        if (m_settingRecording || request < 0 || request >= m_cursor->requests())
            return; // a new recording: the views show the run as it ended already
        m_replaying = true;
        emit cursorMoved(request);
    });
}

RunModel::~RunModel() = default;

void RunModel::setTitle(const QString& title)
{
    if (title == m_title)
        return;
    m_title = title;
    emit titleChanged(title);
}

void RunModel::start(const Shape& shape)
{
    m_shape = shape;
    m_shape.users = std::max(shape.users, 1);
    m_user = 0;
    m_live = true;
    m_figures = BurstSummary();
    m_writes.reset();
    setRecording(nullptr);
    emit started();
}

void RunModel::draw(const RequestBatch& batch)
{
    const RequestBatch shown = m_shape.users > 1 ? batch.ofUser(m_user, m_shape.users) : batch;
    m_writes.add(shown);
    emit batchAdded(shown);
}

void RunModel::addBatch(const RequestBatch& batch)
{
    draw(batch);
    m_figures = batch.summary;
    emit figuresChanged();
}

void RunModel::finish(const BurstSummary& summary)
{
    m_live = false;
    m_figures = summary;
    emit figuresChanged();
    emit finished();
}

void RunModel::showUser(int user, const RequestBatch& soFar)
{
    if (m_shape.users <= 1 || user < 0 || user >= m_shape.users || user == m_user)
        return;
    m_user = user;
    m_writes.reset();
    emit userChanged(user);
    draw(soFar);
}

void RunModel::clear()
{
    m_live = false;
    m_shape = Shape();
    m_user = 0;
    m_figures = BurstSummary();
    m_writes.reset();
    setRecording(nullptr);
    emit cleared();
}

void RunModel::setRecording(std::shared_ptr<const Recording> recording)
{
    const bool any = recording && !recording->isEmpty();
    m_replaying = false;
    m_settingRecording = true;
    m_cursor->setRecording(std::move(recording));
    m_settingRecording = false;
    emit recordingChanged(any);
}

void RunModel::showRecording(std::shared_ptr<const Recording> recording)
{
    const RecordingInfo& info = recording->info();
    Shape shape;
    shape.requests = recording->requests();
    shape.limit = info.limit;
    shape.users = info.users;
    if (info.knowledge == ZsetKnowledge::Watched) { // an app's key: the server's clock, its limit not known
        shape.limit = -1;
        shape.serverClock = true;
    }
    start(shape);
    const RequestBatch batch = recording->batch();
    addBatch(batch);
    finish(batch.summary);
    setRecording(std::move(recording));
}

const std::shared_ptr<const Recording>& RunModel::recording() const
{
    return m_cursor->recording();
}

bool RunModel::hasRecording() const
{
    return !m_cursor->isEmpty();
}

BurstSummary RunModel::figuresAtCursor() const
{
    const std::shared_ptr<const Recording>& run = recording();
    const int at = m_cursor->position();
    if (!m_replaying || !run || at < 0 || at >= run->requests())
        return m_figures;
    BurstSummary soFar = run->summaryThrough(at);
    soFar.perUser = m_figures.perUser;
    return soFar;
}
