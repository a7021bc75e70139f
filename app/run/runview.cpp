#include "runview.h"

#include "charts/countschart.h"
#include "charts/timelineview.h"
#include "numberspanel.h"
#include "replay/recording.h"
#include "run/runcursor.h"
#include "run/runmodel.h"
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

namespace {
// One widget inside a margin (a lesson's frame is drawn there), given the inside as it is: a
// splitter that squeezes the frame squeezes the widget alike, as it would squeeze it alone.
class MarginFrame : public QWidget
{
public:
    using QWidget::QWidget;
    void setInner(QWidget* inner) { m_inner = inner; }
    QSize minimumSizeHint() const override
    {
        const QMargins margins = contentsMargins();
        return m_inner ? m_inner->minimumSizeHint().expandedTo(m_inner->minimumSize()).grownBy(margins)
                       : QWidget::minimumSizeHint();
    }
    QSize sizeHint() const override
    {
        return m_inner ? m_inner->sizeHint().grownBy(contentsMargins()) : QWidget::sizeHint();
    }

protected:
    void resizeEvent(QResizeEvent* event) override
    {
        QWidget::resizeEvent(event);
        if (m_inner)
            m_inner->setGeometry(contentsRect());
    }
    void changeEvent(QEvent* event) override
    {
        QWidget::changeEvent(event);
        if (m_inner && event->type() == QEvent::ContentsRectChange)
            m_inner->setGeometry(contentsRect());
    }

private:
    QWidget* m_inner = nullptr;
};
} // namespace

RunView::RunView(RunModel* run, QWidget* parent)
    : QWidget(parent)
    , m_run(run)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_title = new QLabel(this);
    m_title->setAlignment(Qt::AlignCenter);
    m_title->setWordWrap(true); // a long key, a note
    m_title->hide();
    m_numbers = new NumbersPanel(this);
    m_timeline = new TimelineView(this);
    // The chart in a frame of its own: a chart view drops the margins a lesson's frame needs.
    m_countsFrame = new MarginFrame(this);
    m_countsFrame->setObjectName(QStringLiteral("CountsFrame"));
    m_counts = new CountsChart(m_countsFrame);
    static_cast<MarginFrame*>(m_countsFrame)->setInner(m_counts);
    m_splitter = new QSplitter(Qt::Vertical, this);
    m_splitter->addWidget(m_timeline);
    m_splitter->addWidget(m_countsFrame);
    m_transport = new TransportBar(m_run->cursor(), this, this);
    m_transport->hide();
    m_timeline->setFocusPolicy(Qt::ClickFocus); // a click on the timeline gives the replay's keys
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
    connect(m_chartTabs, &QTabBar::currentChanged, this, &RunView::chartShown);
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
        if (m_run->shape().users > 1 && user != m_run->user())
            emit userChosen(user);
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
    m_refresh.setInterval(30); // about 33 refreshes a second, as often as the engine hands over a batch
    connect(&m_refresh, &QTimer::timeout, this, &RunView::refreshSlowViews);
    connect(m_timeline, &TimelineView::millisecondClicked, this, &RunView::millisecondClicked);
    connect(m_run, &RunModel::titleChanged, this, &RunView::onTitleChanged);
    connect(m_run, &RunModel::started, this, &RunView::onStarted);
    connect(m_run, &RunModel::batchAdded, this, &RunView::onBatch);
    connect(m_run, &RunModel::figuresChanged, this, [this] { m_dirty = true; });
    connect(m_run, &RunModel::finished, this, &RunView::onFinished);
    connect(m_run, &RunModel::userChanged, this, &RunView::onUserChanged);
    connect(m_run, &RunModel::cleared, this, &RunView::onCleared);
    connect(m_run, &RunModel::recordingChanged, this, &RunView::onRecordingChanged);
    // After the transport bar (made above), whose caption the timeline shows when low.
    connect(m_run->cursor(), &RunCursor::positionChanged, this, [this](int request) {
        if (m_run->isReplaying()) // not a new recording's cursor, at the end the views show
            onCursorMoved(request);
    });
    onTitleChanged(m_run->title());
}

void RunView::retranslate()
{
    m_chartTabs->setTabText(0, tr("Timeline"));
    m_chartTabs->setTabText(1, tr("Counts"));
    m_chartTabs->setToolTip(tr("The charts share this place: the screen is too low for both at this text size."));
    m_userLabel->setText(tr("Timeline and ZSET of &user"));
    const int users = m_run->shape().users;
    m_userBox->setSuffix(tr(" of %n user(s)", nullptr, users));
    m_userBox->setToolTip(tr("The run spreads its requests over %n user(s), each its own limiter key (request i "
                             "is user i mod %n). The charts and the ZSET show one user; the figures above are the "
                             "whole run's.",
                             nullptr, users));
}

int RunView::transportNeed(bool compact) const
{
    // Its controls take one row or more, as the width allows; its caption two lines, unless the
    // charts share a place and the caption goes over the timeline.
    return m_transport->heightAt(width() > 0 ? width() : m_transport->minimumSizeHint().width(), compact);
}

int RunView::countsNeed() const
{
    const QMargins frame = m_countsFrame->contentsMargins();
    return std::max(m_counts->minimumHeight(), m_counts->minimumSizeHint().height()) + frame.top() + frame.bottom();
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
    m_countsFrame->setVisible(!m_stacked || m_chartTabs->currentIndex() == 1);
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
    if (!m_title->isHidden()) // it wraps too: its hint alone assumes about half this width (two lines)
        height += (width() > 0 ? m_title->heightForWidth(width()) : m_title->sizeHint().height()) + spacing;
    if (!m_transport->isHidden())
        height += transportNeed(true) + spacing; // at its smallest the charts share a place: compact
    return {QWidget::minimumSizeHint().width(), height};
}

void RunView::arrangeCharts()
{
    // The room below the figures; the tab bar's own line counts as room when it is shown.
    const int spacing = layout()->spacing();
    int room = height() - (m_numbers->geometry().bottom() + 1) - spacing;
    // The replay's controls take their share below the charts, counted with their caption either
    // way: stacking frees the caption's lines, and counting them only unstacked would flip the
    // charts back and forth.
    if (!m_transport->isHidden())
        room -= transportNeed(false) + spacing;
    bool stacked = room < chartsNeed() + (m_stacked ? 8 : 0); // a little hysteresis
    // Side by side with a tall side panel, the timeline alone in its tab may be the only way for
    // it to be the largest view. Below each other it gets 3 of 5 parts of the room, or less where
    // the counts chart's own minimum (its axis labels, longer in some languages) takes more.
    const int timelineHeight = std::min(room * 3 / 5, room - countsNeed() - m_splitter->handleWidth());
    const qint64 stackedTimeline = qint64(width()) * std::max(timelineHeight, 0);
    if (m_timelineAtLeast > 0 && stackedTimeline < m_timelineAtLeast * (m_stacked ? 21 : 20) / 20)
        stacked = true;
    if (stacked == m_stacked)
        return;
    m_stacked = stacked;
    m_transport->setCompact(stacked); // a low screen: the replay's caption gives its line to the charts
    emit chartsShareAPlaceChanged(stacked);
    m_timeline->setReplayCaption(m_stacked && !m_forPictures && m_run->isReplaying() ? m_transport->captionText()
                                                                                     : QString());
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
        showChart(1);
}

void RunView::showChart(int index)
{
    if (m_chartTabs->currentIndex() != index)
        m_chartTabs->setCurrentIndex(index); // shown whether or not the charts share a place now
}

void RunView::alignFiguresWith(RunView* other)
{
    m_partner = other;
    alignFigures();
}

int RunView::figuresNeed() const
{
    int need = m_numbers->minimumSizeHint().height();
    if (m_numbers->hasHeightForWidth() && m_numbers->width() > 0)
        need = std::max(need, m_numbers->heightForWidth(m_numbers->width()));
    return need;
}

void RunView::alignFigures()
{
    const bool pair = m_partner && isVisible() && m_partner->isVisible();
    const int height = pair ? std::max(figuresNeed(), m_partner->figuresNeed()) : 0;
    if (m_numbers->minimumHeight() != height)
        m_numbers->setMinimumHeight(height);
    if (pair && m_partner->m_numbers->minimumHeight() != height)
        m_partner->m_numbers->setMinimumHeight(height);
}

void RunView::setOwnControls(bool own)
{
    if (own == m_ownControls)
        return;
    m_ownControls = own;
    showControls();
}

void RunView::setForPictures(bool forPictures)
{
    m_forPictures = forPictures;
    showControls();
}

void RunView::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    // The minimum height follows the width (the figures wrap, the replay's controls take a row
    // more or less): the layouts above keep the old one until told.
    if (const int minimum = minimumSizeHint().height(); minimum != m_minimumHeightSeen) {
        m_minimumHeightSeen = minimum;
        updateGeometry();
    }
    alignFigures();
    arrangeCharts();
}

bool RunView::event(QEvent* event)
{
    const bool handled = QWidget::event(event);
    if (event->type() == QEvent::LayoutRequest) { // the figures or the fonts changed height
        arrangeCharts();
        alignFigures();
    }
    if (event->type() == QEvent::Show || event->type() == QEvent::Hide)
        alignFigures();
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

void RunView::onTitleChanged(const QString& title)
{
    m_title->setText(title);
    m_title->setVisible(!title.isEmpty());
    m_numbers->setCompact(!title.isEmpty()); // titled: one of two side by side
}

void RunView::onStarted()
{
    const RunModel::Shape& shape = m_run->shape();
    {
        const QSignalBlocker quiet(m_userBox);
        m_userBox->setRange(0, shape.users - 1);
        m_userBox->setValue(0);
    }
    m_userRow->setVisible(shape.users > 1);
    retranslate(); // "of K users"
    showUserFigures();
    m_numbers->clear();
    m_timeline->setServerClock(shape.serverClock);
    if (m_run->isLive())
        m_refresh.start();
    restartCharts();
    m_dirty = false;
}

void RunView::restartCharts()
{
    const RunModel::Shape& shape = m_run->shape();
    m_counts->start(shape.requests, shape.limit);
    m_counts->setLive(m_refresh.isActive());
    m_timeline->reset({}, shape.originMs);
}

void RunView::onBatch(const RequestBatch& shown)
{
    m_timeline->addBatch(shown);
    if (shown.counted)
        m_counts->addCounted(*shown.counted);
    m_dirty = true;
    if (!m_refresh.isActive()) // an ended run: no refresh comes
        refreshSlowViews();
}

void RunView::onUserChanged(int user)
{
    {
        const QSignalBlocker quiet(m_userBox);
        m_userBox->setValue(user);
    }
    showUserFigures();
    restartCharts(); // the user's requests so far follow
}

void RunView::refreshSlowViews()
{
    if (!m_dirty)
        return;
    m_dirty = false;
    ++m_refreshes;
    m_counts->refresh();
    m_numbers->showSummary(m_run->isReplaying() ? m_run->figuresAtCursor() : m_run->figures());
}

void RunView::onFinished()
{
    m_refresh.stop();
    m_counts->setLive(false);
    m_dirty = true;
    refreshSlowViews();
    showUserFigures();
}

void RunView::showUserFigures()
{
    // The chosen user's and each node's figures, once the run has ended (the summary has them).
    const BurstSummary& figures = m_run->figures();
    const int users = m_run->shape().users;
    const int shown = std::max(m_run->user(), 0);
    if (shown >= figures.perUser.size()) {
        m_userFigures->setText(users > 1 ? tr("Per user and per node: when the run ends.") : QString());
        m_userFigures->setToolTip(QString());
        return;
    }
    const QLocale locale;
    auto figuresOf = [&](const UserResult& r) {
        return tr("sent %1, overwritten %2, beyond the limit %3")
            .arg(locale.toString(r.sent), figures.addedKnown() ? locale.toString(r.overwritten) : QStringLiteral("?"),
                 locale.toString(r.admittedOverLimit));
    };
    const UserResult& user = figures.perUser.at(shown);
    m_userFigures->setText(tr("on %1: %2").arg(user.node, figuresOf(user)));
    QStringList nodes;
    for (const UserResult& node : figures.perNode())
        nodes << tr("%1: %Ln user(s), %2", nullptr, node.users).arg(node.node, figuresOf(node));
    m_userFigures->setToolTip(tr("Per node:\n%1").arg(nodes.join(QLatin1Char('\n'))));
}

void RunView::onRecordingChanged(bool)
{
    m_timeline->clearReplayCursor();
    m_timeline->setReplayCaption(QString());
    m_counts->setReplayCursor(-1);
    showControls();
}

void RunView::showControls()
{
    const bool controls = m_run->hasRecording() && !m_forPictures && m_ownControls;
    if (controls != !m_transport->isHidden()) {
        m_transport->setVisible(controls);
        updateGeometry(); // a new minimum height: the window fits its panels again
        arrangeCharts();
    }
}

void RunView::onCursorMoved(int request)
{
    const std::shared_ptr<const Recording>& recording = m_run->recording();
    if (!recording || request < 0 || request >= recording->requests())
        return;
    const RequestLog& log = recording->log();
    const int users = m_run->shape().users;
    const int user = m_run->user();
    const bool lanes = m_timeline->model().laneCount() > 1;
    const int lane = lanes ? log.connection(request) : 0;
    const qint64 ms = m_timeline->model().millisecondOf(log.now(request));
    int rank = 0;
    for (int j = request - 1; j >= 0 && m_timeline->model().millisecondOf(log.now(j)) == ms; --j) {
        if ((!lanes || log.connection(j) == lane) && (users <= 1 || log.userOf(j) == user))
            ++rank;
    }
    m_timeline->setReplayCursor(log.now(request), rank, lane);
    // The caption goes with the cursor where the transport bar has no line for it.
    m_timeline->setReplayCaption(m_stacked && !m_forPictures ? m_transport->captionText() : QString());
    m_counts->setReplayCursor(request); // its x axis is the run's request number, whichever user is shown
    m_numbers->showSummary(m_run->figuresAtCursor());
}

void RunView::onCleared()
{
    m_refresh.stop();
    m_numbers->clear();
    m_counts->clear();
    m_timeline->clear();
}
