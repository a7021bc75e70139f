#include "transportbar.h"

#include "replaymembersmodel.h"
#include "run/runcursor.h"

#include <QAction>
#include <QComboBox>
#include <QEvent>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QScopedValueRollback>
#include <QShortcut>
#include <QSlider>
#include <QStyle>
#include <QToolButton>

namespace {
enum SlideBy { ByRequest, ByTime };
}

TransportBar::TransportBar(RunCursor* player, QWidget* keyArea, QWidget* parent)
    : QWidget(parent)
    , m_player(player)
{
    setObjectName(QStringLiteral("TransportBar"));
    auto* layout = new QGridLayout(this);
    layout->setContentsMargins(0, 2, 0, 2);
    layout->setVerticalSpacing(2);
    // Every control stays in sight at any width: the buttons and the slider on the first row, the
    // jumps, the speed, "by request" and "What if…" on one or two rows below, as the width allows.
    m_controls = new QWidget(this);
    m_controls->setObjectName(QStringLiteral("replayControls"));
    auto* media = new QHBoxLayout(m_controls);
    media->setContentsMargins(0, 0, 0, 0);
    media->setSpacing(0);
    auto button = [this](QAction* action, bool text) {
        auto* tool = new QToolButton(this);
        tool->setDefaultAction(action);
        tool->setAutoRaise(true);
        tool->setToolButtonStyle(text ? Qt::ToolButtonTextOnly : Qt::ToolButtonIconOnly);
        return tool;
    };
    auto action = [&](QStyle::StandardPixmap icon, void (RunCursor::*slot)()) {
        auto* a = new QAction(style()->standardIcon(icon), QString(), this);
        connect(a, &QAction::triggered, player, slot);
        media->addWidget(button(a, false));
        return a;
    };
    m_start = action(QStyle::SP_MediaSkipBackward, &RunCursor::toStart);
    m_back = action(QStyle::SP_MediaSeekBackward, &RunCursor::stepBack);
    m_play = action(QStyle::SP_MediaPlay, &RunCursor::togglePlaying);
    m_forward = action(QStyle::SP_MediaSeekForward, &RunCursor::stepForward);
    m_end = action(QStyle::SP_MediaSkipForward, &RunCursor::toEnd);
    m_nextOverwrite = new QAction(this);
    connect(m_nextOverwrite, &QAction::triggered, player, [player] { player->toNextOverwrite(); });
    m_nextBeyond = new QAction(this);
    connect(m_nextBeyond, &QAction::triggered, player, [player] { player->toNextBeyondLimit(); });
    m_fork = new QAction(this);
    m_fork->setObjectName(QStringLiteral("replayFork"));
    connect(m_fork, &QAction::triggered, this, &TransportBar::forkRequested);
    m_speed = new QComboBox(this);
    m_speed->setObjectName(QStringLiteral("replaySpeed"));
    m_speed->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed); // whole, never cut short
    m_slideBy = new QComboBox(this);
    m_slideBy->setObjectName(QStringLiteral("replaySlideBy"));
    m_slideBy->addItems({QString(), QString()});
    m_slideBy->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
    m_forkButton = button(m_fork, true);
    m_forkButton->hide();
    m_fork->setVisible(false);
    m_secondary = {button(m_nextOverwrite, true), button(m_nextBeyond, true), m_speed, m_slideBy, m_forkButton};
    for (QHBoxLayout*& row : m_rows) {
        row = new QHBoxLayout;
        row->setContentsMargins(0, 0, 0, 0);
    }
    m_slider = new QSlider(Qt::Horizontal, this);
    m_slider->setObjectName(QStringLiteral("replaySlider"));
    m_slider->setMinimumWidth(fontMetrics().averageCharWidth() * 16);
    m_caption = new QLabel(this);
    m_caption->setObjectName(QStringLiteral("replayCaption"));
    // One line, or two on a narrow bar, and always that high at a width, so that stepping never
    // moves what is below or beside: what does not fit is in the tooltip.
    m_caption->setWordWrap(true);
    m_caption->setMinimumWidth(1);
    m_caption->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    layout->addWidget(m_controls, 0, 0);
    layout->addWidget(m_slider, 0, 1);
    m_firstRowTail = new QHBoxLayout;
    m_firstRowTail->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(m_firstRowTail, 0, 2);
    for (size_t row = 0; row < m_rows.size(); ++row)
        layout->addLayout(m_rows[row], int(row) + 1, 0, 1, 3);
    layout->addWidget(m_caption, int(m_rows.size()) + 1, 0, 1, 3);
    // Its minimum is its own (minimumSizeHint): the rows are arranged again at any new width.
    layout->setSizeConstraint(QLayout::SetNoConstraint);
    layout->setColumnStretch(1, 1);
    arrangeRows(width());

    connect(m_speed, &QComboBox::activated, this,
            [this](int index) { m_player->setSpeed(ReplaySpeed::choices().value(index)); });
    connect(m_slideBy, &QComboBox::activated, this, &TransportBar::fillSlider);
    connect(m_slider, &QSlider::valueChanged, this, &TransportBar::slideTo);
    connect(player, &RunCursor::positionChanged, this, &TransportBar::showPosition);
    connect(player, &RunCursor::playingChanged, this, &TransportBar::showPlaying);
    connect(player, &RunCursor::recordingChanged, this, &TransportBar::fillSlider);

    // The keys of a media player, wherever the focus is in the run's area.
    const std::pair<QKeySequence, void (RunCursor::*)()> keys[] = {
        {QKeySequence(Qt::Key_Left), &RunCursor::stepBack},
        {QKeySequence(Qt::Key_Right), &RunCursor::stepForward},
        {QKeySequence(Qt::Key_Space), &RunCursor::togglePlaying},
        {QKeySequence(Qt::Key_Home), &RunCursor::toStart},
        {QKeySequence(Qt::Key_End), &RunCursor::toEnd},
    };
    for (const auto& [key, slot] : keys) {
        auto* shortcut = new QShortcut(key, keyArea);
        shortcut->setContext(Qt::WidgetWithChildrenShortcut);
        connect(shortcut, &QShortcut::activated, player, slot);
        m_keys << shortcut;
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
    if (event->type() == QEvent::FontChange || event->type() == QEvent::LanguageChange) {
        m_arrangedRows = -1; // the controls' widths changed: arranged again
        arrangeRows(width());
        elideCaption();
        updateGeometry(); // its narrowest is the widest control's new width
    }
}

bool TransportBar::event(QEvent* event)
{
    const bool handled = QWidget::event(event);
    // A control that grew (a zoom reaches the buttons after the bar) changes the bar's narrowest
    // width: the layout above keeps the old one until told, and would cut the control.
    if (event->type() == QEvent::LayoutRequest) {
        if (const int narrowest = minimumSizeHint().width(); narrowest != m_narrowestSaid) {
            m_narrowestSaid = narrowest;
            m_arrangedRows = -1;
            arrangeRows(width());
            updateGeometry();
        }
    }
    return handled;
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
    m_forkButton->setVisible(forkable);
    arrangeRows(width());
}

void TransportBar::setKeysEnabled(bool enabled)
{
    for (QShortcut* key : std::as_const(m_keys))
        key->setEnabled(enabled);
}

void TransportBar::setCompact(bool compact)
{
    m_caption->setVisible(!compact);
    fixHeight();
}

int TransportBar::controlsWidth() const
{
    const int spacing = style()->layoutSpacing(QSizePolicy::PushButton, QSizePolicy::PushButton, Qt::Horizontal);
    int used = 0;
    for (const QWidget* widget : m_secondary)
        if (widget != m_forkButton || m_fork->isVisible())
            used += widget->sizeHint().width() + (used > 0 ? spacing : 0);
    return used;
}

int TransportBar::rowsAt(int width) const
{
    // All on the slider's row while it keeps a third of the bar; else rows of their own below.
    const int spacing = style()->layoutSpacing(QSizePolicy::PushButton, QSizePolicy::PushButton, Qt::Horizontal);
    const int slider = std::max(m_slider->minimumWidth(), width / 3);
    if (m_controls->sizeHint().width() + slider + controlsWidth() + 2 * spacing <= width)
        return 0;
    int used = 0;
    int rows = 1;
    for (QWidget* widget : m_secondary) {
        if (widget == m_forkButton && !m_fork->isVisible())
            continue;
        const int need = widget->sizeHint().width() + (used > 0 ? spacing : 0);
        if (used > 0 && used + need > width) {
            ++rows;
            used = 0;
        }
        used += need;
    }
    return std::min(rows, int(m_rows.size()));
}

void TransportBar::arrangeRows(int width)
{
    const int rows = rowsAt(std::max(width, 1));
    if (rows == m_arrangedRows)
        return;
    m_arrangedRows = rows;
    for (QHBoxLayout* row : m_rows)
        while (QLayoutItem* item = row->takeAt(0))
            delete item; // the widgets stay: only their places go
    while (QLayoutItem* item = m_firstRowTail->takeAt(0))
        delete item;
    // The first rows as full as they go; the last takes the rest.
    const int spacing = style()->layoutSpacing(QSizePolicy::PushButton, QSizePolicy::PushButton, Qt::Horizontal);
    int row = 0;
    int used = 0;
    for (QWidget* widget : m_secondary) {
        if (rows == 0) {
            m_firstRowTail->addWidget(widget);
            continue;
        }
        const bool shown = widget != m_forkButton || m_fork->isVisible();
        const int need = shown ? widget->sizeHint().width() + (used > 0 ? spacing : 0) : 0;
        if (used > 0 && used + need > width && row + 1 < rows) {
            ++row;
            used = 0;
        }
        m_rows[size_t(row)]->addWidget(widget);
        used += need;
    }
    for (QHBoxLayout* each : m_rows)
        if (each->count() > 0) // an empty row stays empty: the grid gives it no spacing
            each->addStretch(1);
    fixHeight();
}

void TransportBar::fixHeight()
{
    // Exactly as high as its rows at its width: a layout never squeezes it.
    const int height = heightAt(std::max(width(), minimumSizeHint().width()), !m_caption->isVisibleTo(this));
    if (minimumHeight() != height || maximumHeight() != height)
        setFixedHeight(height);
}

int TransportBar::heightAt(int width, bool compact) const
{
    const int spacing = 2;
    const int row
        = std::max({m_speed->sizeHint().height(), m_controls->sizeHint().height(), m_slider->sizeHint().height()});
    const int caption = captionLines(width) * m_caption->fontMetrics().lineSpacing() + 2;
    return 4 + row + rowsAt(width) * (row + spacing) + (compact ? 0 : caption + spacing);
}

QSize TransportBar::minimumSizeHint() const
{
    int width = m_controls->minimumSizeHint().width() + m_slider->minimumWidth();
    for (const QWidget* widget : m_secondary) // each control whole on a row of its own, at the narrowest
        width = std::max(width, widget->sizeHint().width());
    return {width, heightAt(std::max(this->width(), width), !m_caption->isVisibleTo(this))};
}

QSize TransportBar::sizeHint() const
{
    return minimumSizeHint();
}

int TransportBar::captionLines(int width) const
{
    // One line where a caption of about a hundred characters fits, two below: the same for
    // every request at this width, so that stepping never moves what is around.
    return width >= m_caption->fontMetrics().averageCharWidth() * 100 ? 1 : 2;
}

int TransportBar::captionHeight() const
{
    return captionLines(std::max(width(), 1)) * m_caption->fontMetrics().lineSpacing() + 2;
}

void TransportBar::elideCaption()
{
    m_caption->setFixedHeight(captionHeight());
    fixHeight();
    // Whole if two lines hold it, else cut at the end of the second line.
    const QFontMetrics metrics = m_caption->fontMetrics();
    const int width = std::max(m_caption->width(), 1);
    auto fits = [&](const QString& text) {
        return metrics.boundingRect(QRect(0, 0, width, 100000), Qt::TextWordWrap, text).height()
            <= captionLines(this->width()) * metrics.lineSpacing();
    };
    QString shown = m_captionText;
    if (!fits(shown)) {
        const QString ellipsis(QChar(0x2026));
        qsizetype low = 0;
        qsizetype high = shown.size();
        while (low < high) { // the longest start that fits with the ellipsis
            const qsizetype middle = (low + high + 1) / 2;
            if (fits(m_captionText.left(middle) + ellipsis))
                low = middle;
            else
                high = middle - 1;
        }
        shown = m_captionText.left(low) + ellipsis;
    }
    m_caption->setText(shown);
}

void TransportBar::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    arrangeRows(width());
    elideCaption();
}

void TransportBar::showPosition()
{
    const bool any = !m_player->isEmpty();
    const int at = m_player->position();
    m_controls->setEnabled(any);
    m_nextOverwrite->setEnabled(any);
    m_nextBeyond->setEnabled(any);
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
