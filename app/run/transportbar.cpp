#include "transportbar.h"

#include "replaymembersmodel.h"
#include "replayplayer.h"

#include <QAction>
#include <QComboBox>
#include <QEvent>
#include <QGridLayout>
#include <QLabel>
#include <QLocale>
#include <QScopedValueRollback>
#include <QShortcut>
#include <QSlider>
#include <QStyle>
#include <QToolBar>
#include <QToolButton>

namespace {
enum SlideBy { ByRequest, ByTime };
}

TransportBar::TransportBar(ReplayPlayer* player, QWidget* keyArea, QWidget* parent)
    : QWidget(parent)
    , m_player(player)
{
    setObjectName(QStringLiteral("TransportBar"));
    auto* layout = new QGridLayout(this);
    layout->setContentsMargins(0, 2, 0, 2);
    m_controls = new QToolBar(this);
    m_controls->setObjectName(QStringLiteral("replayControls"));
    m_controls->setToolButtonStyle(Qt::ToolButtonIconOnly);
    auto action = [&](QStyle::StandardPixmap icon, void (ReplayPlayer::*slot)()) {
        QAction* a = m_controls->addAction(style()->standardIcon(icon), QString());
        connect(a, &QAction::triggered, player, slot);
        return a;
    };
    m_start = action(QStyle::SP_MediaSkipBackward, &ReplayPlayer::toStart);
    m_back = action(QStyle::SP_MediaSeekBackward, &ReplayPlayer::stepBack);
    m_play = action(QStyle::SP_MediaPlay, &ReplayPlayer::togglePlaying);
    m_forward = action(QStyle::SP_MediaSeekForward, &ReplayPlayer::stepForward);
    m_end = action(QStyle::SP_MediaSkipForward, &ReplayPlayer::toEnd);
    m_controls->addSeparator();
    m_nextOverwrite = m_controls->addAction(QString(), player, [player] { player->toNextOverwrite(); });
    m_nextBeyond = m_controls->addAction(QString(), player, [player] { player->toNextBeyondLimit(); });
    for (QAction* a : {m_nextOverwrite, m_nextBeyond}) {
        if (auto* button = qobject_cast<QToolButton*>(m_controls->widgetForAction(a)))
            button->setToolButtonStyle(Qt::ToolButtonTextOnly);
    }
    m_controls->addSeparator();
    m_speed = new QComboBox(this);
    m_speed->setObjectName(QStringLiteral("replaySpeed"));
    // Whole or behind the tool bar's » button, never cut short.
    m_speed->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
    m_controls->addWidget(m_speed);
    m_slideBy = new QComboBox(this);
    m_slideBy->setObjectName(QStringLiteral("replaySlideBy"));
    m_slideBy->addItems({QString(), QString()});
    m_slideBy->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
    m_controls->addWidget(m_slideBy);
    m_controls->addSeparator();
    m_fork = m_controls->addAction(QString(), this, &TransportBar::forkRequested);
    m_fork->setObjectName(QStringLiteral("replayFork"));
    if (auto* button = qobject_cast<QToolButton*>(m_controls->widgetForAction(m_fork)))
        button->setToolButtonStyle(Qt::ToolButtonTextOnly);
    m_fork->setVisible(false);
    m_slider = new QSlider(Qt::Horizontal, this);
    m_slider->setObjectName(QStringLiteral("replaySlider"));
    m_slider->setMinimumWidth(fontMetrics().averageCharWidth() * 16);
    m_caption = new QLabel(this);
    m_caption->setObjectName(QStringLiteral("replayCaption"));
    // One line, so that the charts keep their room on a projector: what does not fit is in the tooltip.
    m_caption->setMinimumWidth(1);
    layout->addWidget(m_controls, 0, 0);
    layout->addWidget(m_slider, 0, 1);
    layout->addWidget(m_caption, 1, 0, 1, 2);
    layout->setColumnStretch(1, 1);

    connect(m_speed, &QComboBox::activated, this,
            [this](int index) { m_player->setSpeed(ReplaySpeed::choices().value(index)); });
    connect(m_slideBy, &QComboBox::activated, this, &TransportBar::fillSlider);
    connect(m_slider, &QSlider::valueChanged, this, &TransportBar::slideTo);
    connect(player, &ReplayPlayer::positionChanged, this, &TransportBar::showPosition);
    connect(player, &ReplayPlayer::playingChanged, this, &TransportBar::showPlaying);
    connect(player, &ReplayPlayer::recordingChanged, this, &TransportBar::fillSlider);

    // The keys of a media player, wherever the focus is in the run's area.
    const std::pair<QKeySequence, void (ReplayPlayer::*)()> keys[] = {
        {QKeySequence(Qt::Key_Left), &ReplayPlayer::stepBack},
        {QKeySequence(Qt::Key_Right), &ReplayPlayer::stepForward},
        {QKeySequence(Qt::Key_Space), &ReplayPlayer::togglePlaying},
        {QKeySequence(Qt::Key_Home), &ReplayPlayer::toStart},
        {QKeySequence(Qt::Key_End), &ReplayPlayer::toEnd},
    };
    for (const auto& [key, slot] : keys) {
        auto* shortcut = new QShortcut(key, keyArea);
        shortcut->setContext(Qt::WidgetWithChildrenShortcut);
        connect(shortcut, &QShortcut::activated, player, slot);
    }
    fillSpeeds();
    retranslate();
    fillSlider();
}

void TransportBar::fillSpeeds()
{
    const int current = m_speed->currentIndex();
    m_speed->clear();
    for (const ReplaySpeed& speed : ReplaySpeed::choices())
        m_speed->addItem(speed.name());
    m_speed->setCurrentIndex(current >= 0 ? current
                                          : std::max(int(ReplaySpeed::choices().indexOf(m_player->speed())), 0));
}

void TransportBar::retranslate()
{
    m_start->setToolTip(tr("To the first request (Home)"));
    m_back->setToolTip(tr("One request back (Left)"));
    m_forward->setToolTip(tr("One request forward (Right)"));
    m_end->setToolTip(tr("To the last request: the state the run ended with (End)"));
    m_nextOverwrite->setText(tr("Overwrite ▸"));
    m_nextOverwrite->setToolTip(tr("To the next request whose ZADD replied 0: its member was there already"));
    m_fork->setText(tr("What if…"));
    m_fork->setToolTip(tr("From this request on, with another limiter, limit or window: the rest of the run fired "
                          "again on Redis with the same timestamps, beside this one"));
    m_nextBeyond->setText(tr("Beyond limit ▸"));
    m_nextBeyond->setToolTip(tr("To the next request the limiter admitted although the window already held the limit"));
    m_speed->setToolTip(tr("Speed: requests a second (slow motion, for a class), or the run's own time"));
    m_slideBy->setItemText(ByRequest, tr("by request"));
    m_slideBy->setItemText(ByTime, tr("by time"));
    m_slideBy->setToolTip(tr("The slider moves over the requests one by one, or over their time (ms of now)"));
    fillSpeeds();
    showPlaying(m_player->isPlaying());
    showPosition();
}

void TransportBar::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    if (event->type() == QEvent::FontChange)
        elideCaption();
}

void TransportBar::showPlaying(bool playing)
{
    m_play->setIcon(style()->standardIcon(playing ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
    m_play->setToolTip(playing ? tr("Pause (Space)") : tr("Play from here, at the speed chosen (Space)"));
}

void TransportBar::fillSlider()
{
    const QScopedValueRollback<bool> sliding(m_sliding, true);
    const auto& recording = m_player->recording();
    if (m_player->isEmpty()) {
        m_slider->setRange(0, 0);
    } else if (m_slideBy->currentIndex() == ByTime) {
        const RequestLog& log = recording->log();
        const qint64 units = recording->info().nowUnitsPerMs;
        m_slider->setRange(0, int(std::min<qint64>((log.maxNow() - log.minNow()) / units, INT_MAX)));
    } else {
        m_slider->setRange(0, m_player->requests() - 1);
    }
    m_slider->setPageStep(std::max(1, m_slider->maximum() / 20));
    showPosition();
}

void TransportBar::slideTo(int value)
{
    if (m_sliding || m_player->isEmpty())
        return;
    const QScopedValueRollback<bool> sliding(m_sliding, true);
    if (m_slideBy->currentIndex() == ByRequest) {
        m_player->setPosition(value);
        return;
    }
    // The last request of the time slid to (requests in order: the first whose now is later, less one).
    const Recording& recording = *m_player->recording();
    const qint64 until = recording.log().minNow() + qint64(value) * recording.info().nowUnitsPerMs;
    m_player->setPosition(std::max(recording.lastRequestThrough(until), 0));
}

QString TransportBar::caption(const ReplayState& state)
{
    if (state.request <= 0)
        return {};
    const QLocale locale;
    return tr("Request %1 of %2: %3.")
        .arg(locale.toString(state.request), locale.toString(state.requests), ReplayMembersModel::writeText(state));
}

QString TransportBar::details(const ReplayState& state)
{
    if (state.request <= 0)
        return {};
    QString text;
    if (state.members >= 0)
        text += tr("The ZSET holds %Ln member(s);", nullptr, int(state.members)) + QLatin1Char(' ')
            + tr("%Ln request(s) are in the window.", nullptr, int(state.trueCount)) + QLatin1Char('\n');
    text += tr("So far: %Ln overwritten, %1 admitted beyond the limit.", nullptr, int(state.overwritten))
                .arg(QLocale().toString(state.admittedBeyondLimitSoFar));
    return text;
}

QString TransportBar::captionText() const
{
    return m_captionText;
}

void TransportBar::setForkable(bool forkable)
{
    m_fork->setVisible(forkable);
}

void TransportBar::setCompact(bool compact)
{
    m_caption->setVisible(!compact);
}

void TransportBar::elideCaption()
{
    m_caption->setText(m_caption->fontMetrics().elidedText(m_captionText, Qt::ElideRight, m_caption->width()));
}

void TransportBar::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    elideCaption();
}

void TransportBar::showPosition()
{
    const bool any = !m_player->isEmpty();
    const int at = m_player->position();
    m_controls->setEnabled(any);
    m_slider->setEnabled(any);
    if (!any) {
        m_captionText.clear();
        m_caption->clear();
        return;
    }
    m_start->setEnabled(at > 0);
    m_back->setEnabled(at > 0);
    m_forward->setEnabled(at + 1 < m_player->requests());
    m_end->setEnabled(at + 1 < m_player->requests());
    const ReplayState state = m_player->recording()->stateAt(at, false);
    m_captionText = caption(state);
    m_caption->setToolTip(m_captionText + QLatin1Char('\n') + details(state));
    m_slider->setToolTip(m_caption->toolTip());
    elideCaption();
    if (!m_sliding) {
        const QScopedValueRollback<bool> sliding(m_sliding, true);
        if (m_slideBy->currentIndex() == ByRequest) {
            m_slider->setValue(at);
        } else {
            const auto& recording = m_player->recording();
            m_slider->setValue(
                int((recording->log().now(at) - recording->log().minNow()) / recording->info().nowUnitsPerMs));
        }
    }
}
