#include "runview.h"

#include "countschart.h"
#include "numberspanel.h"
#include "recording.h"
#include "replayplayer.h"
#include "timelineview.h"
#include "transportbar.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QSpinBox>
#include <QSplitter>
#include <QTabBar>
#include <QVBoxLayout>

#include <algorithm>

RunView::RunView(QWidget* parent)
    : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_title = new QLabel(this);
    m_title->setAlignment(Qt::AlignCenter);
    m_title->setWordWrap(true); // a long key, a note
    m_title->hide();
    m_numbers = new NumbersPanel(this);
    m_timeline = new TimelineView(this);
    m_counts = new CountsChart(this);
    m_splitter = new QSplitter(Qt::Vertical, this);
    m_splitter->addWidget(m_timeline);
    m_splitter->addWidget(m_counts);
    m_player = new ReplayPlayer(this);
    m_transport = new TransportBar(m_player, this, this);
    m_transport->hide();
    m_timeline->setFocusPolicy(Qt::ClickFocus); // a click on the timeline gives the replay's keys
    connect(m_player, &ReplayPlayer::positionChanged, this, &RunView::showReplayPosition);
    // The timeline is the main view: it gets the larger share.
    m_splitter->setStretchFactor(0, 3);
    m_splitter->setStretchFactor(1, 2);
    m_splitter->setSizes({480, 320});
    m_splitter->setChildrenCollapsible(false);
    m_chartTabs = new QTabBar(this);
    m_chartTabs->addTab(QString());
    m_chartTabs->addTab(QString());
    m_chartTabs->setDrawBase(false);
    m_chartTabs->hide();
    connect(m_chartTabs, &QTabBar::currentChanged, this, &RunView::showCharts);
    m_userRow = new QWidget(this);
    auto* userRow = new QHBoxLayout(m_userRow);
    userRow->setContentsMargins(0, 0, 0, 0);
    m_userLabel = new QLabel(m_userRow);
    m_userBox = new QSpinBox(m_userRow);
    m_userBox->setObjectName(QStringLiteral("userBox"));
    m_userLabel->setBuddy(m_userBox);
    m_userFigures = new QLabel(m_userRow);
    m_userFigures->setObjectName(QStringLiteral("userFigures"));
    m_userFigures->setWordWrap(true);
    userRow->addWidget(m_userLabel);
    userRow->addWidget(m_userBox);
    userRow->addWidget(m_userFigures, 1);
    m_userRow->hide();
    connect(m_userBox, &QSpinBox::valueChanged, this, [this](int user) {
        if (m_users > 1 && user != m_user) {
            m_user = user;
            showUserFigures();
            emit userChosen(user);
        }
    });
    layout->addWidget(m_title);
    layout->addWidget(m_numbers);
    layout->addWidget(m_userRow);
    layout->addWidget(m_chartTabs);
    layout->addWidget(m_splitter, 1);
    layout->addWidget(m_transport);
    retranslate();

    QEvent fontChange(QEvent::FontChange);
    changeEvent(&fontChange); // the title's font
    m_refresh.setObjectName(QStringLiteral("RunViewRefresh"));
    m_refresh.setInterval(40); // 25 refreshes a second
    connect(&m_refresh, &QTimer::timeout, this, &RunView::refreshSlowViews);
    connect(m_timeline, &TimelineView::millisecondClicked, this, &RunView::millisecondClicked);
}

void RunView::retranslate()
{
    m_chartTabs->setTabText(0, tr("Timeline"));
    m_chartTabs->setTabText(1, tr("Counts"));
    m_chartTabs->setToolTip(tr("The charts share this place: the screen is too low for both at this text size."));
    m_userLabel->setText(tr("Timeline and ZSET of &user"));
    m_userBox->setSuffix(tr(" of %n user(s)", nullptr, m_users));
    m_userBox->setToolTip(tr("The run spreads its requests over %n user(s), each its own limiter key (request i "
                             "is user i mod %n). The charts and the ZSET show one user; the figures above are the "
                             "whole run's.",
                             nullptr, m_users));
}

int RunView::transportNeed() const
{
    // Its caption wraps: as high as it is at this width.
    const int atWidth = m_transport->hasHeightForWidth() && width() > 0 ? m_transport->heightForWidth(width()) : 0;
    return std::max(atWidth, m_transport->minimumSizeHint().height());
}

int RunView::countsNeed() const
{
    return std::max(m_counts->minimumHeight(), m_counts->minimumSizeHint().height());
}

int RunView::chartsNeed() const
{
    return m_timeline->minimumSizeHint().height() + countsNeed() + m_splitter->handleWidth();
}

void RunView::showCharts()
{
    // Both, or the one whose tab is current.
    m_chartTabs->setVisible(m_stacked);
    m_timeline->setVisible(!m_stacked || m_chartTabs->currentIndex() == 0);
    m_counts->setVisible(!m_stacked || m_chartTabs->currentIndex() == 1);
}

QSize RunView::minimumSizeHint() const
{
    const int spacing = layout()->spacing();
    // The figures wrap their lines: at this width they may need more than their minimum.
    int numbers = m_numbers->minimumSizeHint().height();
    if (m_numbers->hasHeightForWidth() && m_numbers->width() > 0)
        numbers = std::max(numbers, m_numbers->heightForWidth(m_numbers->width()));
    int height = numbers + spacing + m_chartTabs->sizeHint().height() + spacing
        + std::max(m_timeline->minimumSizeHint().height(), countsNeed());
    if (!m_title->isHidden())
        height += m_title->sizeHint().height() + spacing;
    if (!m_transport->isHidden())
        height += transportNeed() + spacing;
    return {QWidget::minimumSizeHint().width(), height};
}

void RunView::arrangeCharts()
{
    // The room below the figures; the tab bar's own line counts as room when it is shown.
    const int spacing = layout()->spacing();
    int room = height() - (m_numbers->geometry().bottom() + 1) - spacing;
    if (!m_transport->isHidden()) // the replay's controls take their share below the charts
        room -= transportNeed() + spacing;
    bool stacked = room < chartsNeed() + (m_stacked ? 8 : 0); // a little hysteresis
    // Side by side with a tall side panel, the timeline alone in its tab may be the only way for
    // it to be the largest view (it gets 3 of 5 parts of the room when the charts are stacked).
    const qint64 stackedTimeline = qint64(width()) * room * 3 / 5;
    if (m_timelineAtLeast > 0 && stackedTimeline < m_timelineAtLeast * (m_stacked ? 21 : 20) / 20)
        stacked = true;
    if (stacked == m_stacked)
        return;
    m_stacked = stacked;
    m_transport->setCompact(stacked); // a low screen: the replay's caption gives its line to the charts
    m_timeline->setReplayCaption(m_stacked && m_replaying ? m_transport->captionText() : QString());
    showCharts();
}

void RunView::setTimelineAtLeast(qint64 area)
{
    if (area == m_timelineAtLeast)
        return;
    m_timelineAtLeast = area;
    arrangeCharts();
}

void RunView::showCounts()
{
    if (m_stacked)
        m_chartTabs->setCurrentIndex(1);
}

void RunView::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    arrangeCharts();
}

bool RunView::event(QEvent* event)
{
    const bool handled = QWidget::event(event);
    if (event->type() == QEvent::LayoutRequest) // the figures or the fonts changed height
        arrangeCharts();
    return handled;
}

void RunView::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    if (event->type() != QEvent::FontChange)
        return;
    QFont titleFont = font();
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.3);
    titleFont.setBold(true);
    m_title->setFont(titleFont);
}

void RunView::setTitle(const QString& title)
{
    m_title->setText(title);
    m_title->setVisible(!title.isEmpty());
    m_numbers->setCompact(!title.isEmpty()); // titled: one of two side by side
}

QString RunView::title() const
{
    return m_title->text();
}

void RunView::start(int requests, qint64 limit, qint64 originMs, int users)
{
    m_requests = requests;
    m_limit = limit;
    m_originMs = originMs;
    m_users = std::max(users, 1);
    m_user = 0;
    {
        const QSignalBlocker quiet(m_userBox);
        m_userBox->setRange(0, m_users - 1);
        m_userBox->setValue(0);
    }
    m_userRow->setVisible(m_users > 1);
    retranslate(); // "of K users"
    m_latest = BurstSummary();
    showUserFigures();
    m_numbers->clear();
    m_timeline->setServerClock(false); // a burst's own `now`; a watch says otherwise after this
    if (!m_showingRecording)
        setRecording(nullptr);
    restartCharts();
    m_dirty = false;
    m_refresh.start();
}

void RunView::restartCharts()
{
    m_writes.reset();
    m_counts->start(m_requests, m_limit);
    m_counts->setLive(m_refresh.isActive());
    m_timeline->reset({}, m_originMs);
}

void RunView::addBatch(const RequestBatch& batch)
{
    const RequestBatch shown = m_users > 1 ? batch.ofUser(m_user, m_users) : batch;
    m_timeline->addBatch(shown);
    m_writes.add(shown);
    if (shown.counted)
        m_counts->addCounted(*shown.counted);
    m_latest = batch.summary;
    m_dirty = true;
}

void RunView::showUser(const RequestBatch& soFar)
{
    const BurstSummary figures = m_latest; // the run's, whichever user is shown
    restartCharts();
    addBatch(soFar);
    m_latest = figures;
    m_counts->refresh();
}

void RunView::refreshSlowViews()
{
    if (!m_dirty)
        return;
    m_dirty = false;
    ++m_refreshes;
    m_counts->refresh();
    m_numbers->showSummary(m_latest);
}

void RunView::finish(const BurstSummary& summary)
{
    m_refresh.stop();
    m_counts->setLive(false);
    m_dirty = true;
    m_latest = summary;
    refreshSlowViews();
    showUserFigures();
}

void RunView::showUserFigures()
{
    // The chosen user's and each node's figures, once the run has ended (the summary has them).
    if (m_user >= m_latest.perUser.size()) {
        m_userFigures->setText(m_users > 1 ? tr("Per user and per node: when the run ends.") : QString());
        m_userFigures->setToolTip(QString());
        return;
    }
    const QLocale locale;
    auto figures = [&](const UserResult& r) {
        return tr("sent %1, overwritten %2, beyond the limit %3")
            .arg(locale.toString(r.sent), m_latest.addedKnown() ? locale.toString(r.overwritten) : QStringLiteral("?"),
                 locale.toString(r.admittedOverLimit));
    };
    const UserResult& user = m_latest.perUser.at(m_user);
    m_userFigures->setText(tr("on %1: %2").arg(user.node, figures(user)));
    QStringList nodes;
    for (const UserResult& node : m_latest.perNode())
        nodes << tr("%1: %Ln user(s), %2", nullptr, node.users).arg(node.node, figures(node));
    m_userFigures->setToolTip(tr("Per node:\n%1").arg(nodes.join(QLatin1Char('\n'))));
}

void RunView::setRecording(std::shared_ptr<const Recording> recording)
{
    m_replaying = false;
    m_timeline->clearReplayCursor();
    m_timeline->setReplayCaption(QString());
    m_counts->setReplayCursor(-1);
    const bool any = recording && !recording->isEmpty();
    m_settingRecording = true;
    m_player->setRecording(std::move(recording));
    m_settingRecording = false;
    if (any != !m_transport->isHidden()) {
        m_transport->setVisible(any);
        updateGeometry(); // a new minimum height: the window fits its panels again
        arrangeCharts();
    }
}

void RunView::showRecording(std::shared_ptr<const Recording> recording)
{
    const RecordingInfo& info = recording->info();
    m_showingRecording = true;
    start(recording->requests(), info.limit, -1, info.users);
    m_showingRecording = false;
    const RequestBatch batch = recording->batch();
    addBatch(batch);
    finish(batch.summary);
    setRecording(std::move(recording));
}

void RunView::showReplayPosition(int request)
{
    const std::shared_ptr<const Recording>& recording = m_player->recording();
    if (!recording || request < 0 || request >= recording->requests())
        return;
    if (m_settingRecording)
        return; // the views show the run as it ended already
    m_replaying = true;
    const RequestLog& log = recording->log();
    const bool lanes = m_timeline->model().laneCount() > 1;
    const int lane = lanes ? log.connection(request) : 0;
    const qint64 ms = m_timeline->model().millisecondOf(log.now(request));
    int rank = 0;
    for (int j = request - 1; j >= 0 && m_timeline->model().millisecondOf(log.now(j)) == ms; --j) {
        if ((!lanes || log.connection(j) == lane) && (m_users <= 1 || log.userOf(j) == m_user))
            ++rank;
    }
    m_timeline->setReplayCursor(log.now(request), rank, lane);
    // The caption goes with the cursor where the transport bar has no line for it.
    m_timeline->setReplayCaption(m_stacked ? m_transport->captionText() : QString());
    m_counts->setReplayCursor(m_users > 1 ? -1 : request);
    BurstSummary soFar = recording->summaryThrough(request);
    soFar.perUser = m_latest.perUser;
    m_numbers->showSummary(soFar);
    emit replayMoved(request);
}

void RunView::clear()
{
    setRecording(nullptr);
    m_refresh.stop();
    m_writes.reset();
    m_numbers->clear();
    m_counts->clear();
    m_timeline->clear();
}
