#include "numberspanel.h"

#include "widgets/palette.h"

#include <QEvent>
#include <QGridLayout>
#include <QLabel>
#include <QLocale>

#include <algorithm>
#include <limits>

NumbersPanel::NumbersPanel(QWidget* parent)
    : QWidget(parent)
{
    auto* layout = new QGridLayout(this);
    layout->setContentsMargins(4, 2, 4, 2);
    layout->setVerticalSpacing(0);
    m_sent = addFigure(QColor());
    m_stored = addFigure(Palette::stored);
    m_lost = addFigure(Palette::overwritten);
    m_overwritten = addFigure(Palette::overwritten);
    m_beyond = addFigure(Palette::beyondLimit);
    m_layout = layout;
    m_note = new QLabel(this);
    m_note->setObjectName(QStringLiteral("NumbersNote"));
    m_note->setWordWrap(true);
    m_note->setAlignment(Qt::AlignCenter);
    arrange(5);
    applyFonts();
    retranslate();
}

void NumbersPanel::retranslate()
{
    auto describe = [](const Figure& figure, const QString& caption, const QString& tooltip) {
        figure.caption->setText(caption);
        figure.caption->setToolTip(tooltip);
        figure.value->setToolTip(tooltip);
    };
    describe(m_sent, tr("sent"), tr("Requests that got an answer (or an error) from Redis."));
    describe(m_stored, tr("stored"), tr("Requests whose ZADD created a member of their own (ZADD replied 1)."));
    describe(m_lost, tr("lost"), tr("Requests the limiter never counted: sent − errors − stored."));
    describe(m_overwritten, tr("overwritten"),
             tr("Requests whose ZADD only updated an existing member (ZADD replied 0)."));
    describe(m_beyond, tr("beyond the limit"),
             tr("Requests the limiter let through while the true number of requests in the window was already above "
                "the limit."));
    if (m_shown)
        showSummary(m_last);
    else
        clear();
}

NumbersPanel::Figure NumbersPanel::addFigure(const QColor& accent)
{
    Figure figure;
    figure.value = new QLabel(this);
    if (accent.isValid()) { // else the palette's text colour, light or dark
        QPalette palette = figure.value->palette();
        palette.setColor(QPalette::WindowText, accent);
        figure.value->setPalette(palette);
    }
    figure.caption = new QLabel(this);
    // The layout may give a figure less than its text wants: the font shrinks instead (fitFigures).
    figure.value->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    figure.value->installEventFilter(this); // its own resize fits its font
    figure.caption->installEventFilter(this); // and the captions'
    figure.value->setMinimumWidth(1);
    figure.value->setAlignment(Qt::AlignHCenter | Qt::AlignBottom);
    figure.caption->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    figure.caption->setWordWrap(true);
    figure.caption->setAlignment(Qt::AlignHCenter | Qt::AlignTop);
    return figure;
}

void NumbersPanel::clear()
{
    m_shown = false;
    for (const Figure& figure : {m_sent, m_stored, m_lost, m_overwritten, m_beyond})
        figure.value->setText(QStringLiteral("–"));
    setLostCaption(tr("lost"));
    m_note->clear();
    fitFigures();
}

void NumbersPanel::showSummary(const BurstSummary& summary)
{
    m_last = summary;
    m_shown = true;
    const QLocale locale;
    m_sent.value->setText(locale.toString(summary.sent));
    if (summary.addedKnown()) {
        m_stored.value->setText(locale.toString(summary.stored));
        m_lost.value->setText(locale.toString(summary.lost));
        setLostCaption(lostCaption(summary.lostPercent()));
        m_overwritten.value->setText(locale.toString(summary.overwritten));
    } else {
        // The replies do not say whether ZADD added: a 0 here would claim every request lost.
        for (const Figure& figure : {m_stored, m_lost, m_overwritten})
            figure.value->setText(tr("unknown"));
        setLostCaption(tr("lost"));
    }
    m_beyond.value->setText(summary.limit > 0 ? locale.toString(summary.admittedOverLimit) : QStringLiteral("–"));
    QString note;
    if (!summary.addedKnown())
        note = summary.membersAtEnd >= 0
            ? tr("The script's replies do not say whether ZADD added a member (it answers only a count); the "
                 "ZSET held %Ln member(s) when the burst ended.",
                 nullptr, int(std::min<qint64>(summary.membersAtEnd, std::numeric_limits<int>::max())))
            : tr("The script's replies do not say whether ZADD added a member (it answers only a count).");
    if (summary.limit == 0)
        note += QLatin1Char(' ') + tr("No limit set: every request is admitted.");
    else if (summary.limit < 0) // watched from outside: the limit is an argument of the app's call
        note += QLatin1Char(' ')
            + tr("zsetlab cannot know your app's limit (its script gets it as an argument): these figures "
                 "count writes to the key, not refusals.");
    if (summary.errors > 0)
        note += tr(" %n request(s) failed.", nullptr, int(summary.errors));
    if (summary.failure.isFailure())
        note += QLatin1Char(' ') + summary.failure.message;
    m_note->setText(note.trimmed());
    fitFigures();
}

void NumbersPanel::arrange(int perRow)
{
    // Figures in rows of perRow, each value above its caption; the note below them all.
    if (perRow == m_perRow)
        return;
    m_perRow = perRow;
    for (const Figure& figure : figures()) {
        m_layout->removeWidget(figure.value);
        m_layout->removeWidget(figure.caption);
    }
    m_layout->removeWidget(m_note);
    int i = 0;
    for (const Figure& figure : {m_sent, m_stored, m_lost, m_overwritten, m_beyond}) {
        const int row = 2 * (i / perRow);
        const int column = i % perRow;
        // The whole cell: a figure's room is its column's width, whatever its text (see fitFigures).
        m_layout->addWidget(figure.value, row, column);
        m_layout->addWidget(figure.caption, row + 1, column);
        ++i;
    }
    m_layout->addWidget(m_note, 2 * ((i + perRow - 1) / perRow), 0, 1, perRow);
    for (int column = 0; column < 5; ++column) // the width shared evenly: figures shrink alike
        m_layout->setColumnStretch(column, column < perRow ? 1 : 0);
}

void NumbersPanel::setCompact(bool compact)
{
    m_widestRow = compact ? 3 : 5;
    m_scale = compact ? 2.0 : 2.6;
    applyFonts();
    arrangeForWidth();
}

int NumbersPanel::widestCaptionWord(const QFont& font) const
{
    // A caption wraps between words, never inside one: the longest word sets a column's width.
    // The lost share at its widest, as in widestCaption(): the captions' size and the figures'
    // rows stay as they are while a replay steps from "(0.0 %)" to "(66.7 %)".
    const QFontMetrics metrics(font);
    int word = 0;
    for (const Figure& figure : figures()) {
        for (const QString& part : measuredCaption(figure).split(QLatin1Char(' '), Qt::SkipEmptyParts))
            word = std::max(word, metrics.horizontalAdvance(part));
    }
    return word;
}

QString NumbersPanel::lostCaption(double percent)
{
    // "(81.5 %)" stays on one line: the space before % does not break.
    return tr("lost (%1 %)")
        .arg(QLocale().toString(percent, 'f', 1))
        .replace(QLatin1String(" %"), QStringLiteral("\u00a0%"));
}

QString NumbersPanel::measuredCaption(const Figure& figure) const
{
    return figure.caption == m_lost.caption ? lostCaption(100.0) : figure.caption->text();
}

int NumbersPanel::widestCaption(const QFont& font) const
{
    // The lost share at its widest, whatever it reads now: stepping through a replay changes it,
    // and the gaps (so the lines the captions wrap into) must not change with it.
    const QFontMetrics metrics(font);
    int widest = 0;
    for (const Figure& figure : figures())
        widest = std::max(widest, metrics.horizontalAdvance(measuredCaption(figure)));
    return widest;
}

void NumbersPanel::arrangeForWidth()
{
    // As many figures in a row as the width has room for: first the gaps between them shrink
    // (18 px to 6 px), then the captions' text (to 80 %, fitCaptions), then a row breaks in two.
    constexpr int widestGap = 18, narrowestGap = 6;
    const int word = std::max(1, widestCaptionWord(font()));
    // The gaps shrink for a caption that would wrap as well: side by side, a few pixels less for
    // one half's columns wrapped "beyond the limit" there alone, and made the window too tall.
    const int caption = std::max(word, widestCaption(font()));
    QFont smallest = font();
    smallest.setPointSizeF(font().pointSizeF() * smallestCaption);
    const int smallestWord = widestCaptionWord(smallest) + 2; // two pixels for the grid's rounding
    const QMargins margins = m_layout->contentsMargins();
    const int room = width() - margins.left() - margins.right();
    int perRow = m_widestRow;
    while (perRow > 2 && perRow * smallestWord + (perRow - 1) * narrowestGap > room)
        --perRow;
    m_layout->setHorizontalSpacing(
        std::clamp(int(room - perRow * (caption + 2)) / (perRow - 1), narrowestGap, widestGap));
    arrange(perRow);
}

void NumbersPanel::fitCaptions()
{
    // One size for every caption, so that they look alike: the largest, up to the panel's own,
    // whose longest word fits the narrowest caption. Text does not scale evenly (sizes round to
    // whole pixels): measure, and step down again.
    int column = std::numeric_limits<int>::max();
    for (const Figure& figure : figures())
        if (figure.caption->isVisible() && figure.caption->width() > 0)
            column = std::min(column, figure.caption->contentsRect().width());
    QFont captionFont = font();
    if (column != std::numeric_limits<int>::max()) {
        int word = widestCaptionWord(captionFont);
        for (double scale = 1.0; word > column && scale > smallestCaption;) {
            scale = std::max(smallestCaption, scale * std::min(0.98, double(column) / word));
            captionFont.setPointSizeF(font().pointSizeF() * scale);
            word = widestCaptionWord(captionFont);
        }
    }
    for (const Figure& figure : figures())
        if (figure.caption->font() != captionFont)
            figure.caption->setFont(captionFont);
    // The lost share takes the lines a two-digit share takes ("(66.7 %)"; digits are of one
    // width): stepping a replay from 0.0 % to 66.7 % must not add a line to the row.
    if (const int width = m_lost.caption->contentsRect().width(); width > 0) {
        const QRect widest
            = QFontMetrics(captionFont)
                  .boundingRect(QRect(0, 0, width, 100000), Qt::AlignHCenter | Qt::TextWordWrap, lostCaption(88.8));
        const int height = widest.height() + m_lost.caption->height() - m_lost.caption->contentsRect().height();
        if (m_lost.caption->minimumHeight() != height)
            m_lost.caption->setMinimumHeight(height);
    }
}

void NumbersPanel::applyFonts()
{
    // Relative to the panel's font, so that zooming the application scales the figures too.
    m_big = font();
    m_big.setPointSizeF(m_big.pointSizeF() * m_scale);
    m_big.setBold(true);
    for (const Figure& figure : figures())
        figure.value->setFont(m_big);
    fitFigures();
}

void NumbersPanel::fitFigures()
{
    // Height stays that of the big font, so that the row does not jump as figures change.
    const int height = QFontMetrics(m_big).height();
    for (const Figure& figure : figures()) {
        figure.value->setMinimumHeight(height);
        const int room = figure.value->contentsRect().width();
        const int needed = QFontMetrics(m_big).horizontalAdvance(figure.value->text());
        QFont font = m_big;
        if (room > 0 && needed > room)
            font.setPointSizeF(std::max(m_big.pointSizeF() * 0.3, m_big.pointSizeF() * room / needed * 0.95));
        if (figure.value->font() != font)
            figure.value->setFont(font);
    }
}

bool NumbersPanel::figuresFit() const
{
    for (const Figure& figure : figures()) {
        if (QFontMetrics(figure.value->font()).horizontalAdvance(figure.value->text())
            > figure.value->contentsRect().width())
            return false;
    }
    return true;
}

void NumbersPanel::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    arrangeForWidth();
    fitFigures();
}

bool NumbersPanel::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() == QEvent::Resize) {
        const QList<Figure> all = figures();
        const bool caption = std::any_of(all.begin(), all.end(),
                                         [watched](const Figure& figure) { return figure.caption == watched; });
        if (caption)
            fitCaptions();
        else
            fitFigures();
    }
    return QWidget::eventFilter(watched, event);
}

double NumbersPanel::figurePointSize() const
{
    return m_sent.value->font().pointSizeF();
}

void NumbersPanel::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange)
        applyFonts();
    else if (event->type() == QEvent::LanguageChange)
        retranslate();
    if (event->type() == QEvent::FontChange || event->type() == QEvent::LanguageChange) {
        arrangeForWidth();
        fitCaptions();
    }
}

QString NumbersPanel::figure(const QString& name) const
{
    if (name == QLatin1String("sent"))
        return m_sent.value->text();
    if (name == QLatin1String("stored"))
        return m_stored.value->text();
    if (name == QLatin1String("lost"))
        return m_lost.value->text();
    if (name == QLatin1String("overwritten"))
        return m_overwritten.value->text();
    if (name == QLatin1String("beyond"))
        return m_beyond.value->text();
    return {};
}

void NumbersPanel::setLostCaption(const QString& text)
{
    // The one caption that changes with the figures: the row is arranged again only when it does.
    if (m_lost.caption->text() == text)
        return;
    m_lost.caption->setText(text);
    arrangeForWidth();
    fitCaptions();
}
