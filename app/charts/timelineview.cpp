#include "timelineview.h"

#include "requestlog.h"
#include "timelinepainting.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>
#include <QWheelEvent>

#include <cmath>

using namespace TimelinePainting;

namespace {
// Okabe-Ito colours: distinguishable with the common colour-vision deficiencies; the shapes
// (filled square, hollow diamond, hatching) carry the same meaning in grey.
constexpr double minStackPixelsPerMs = 10; // below this, milliseconds merge into columns
// Margins grow with the font, so that zoomed (presenter) text still has room: the title and the
// legend above, the tick labels and under them the axis caption below.
int leftMargin(const QFontMetrics& metrics)
{
    return std::max(46, 3 * metrics.height());
}
int topMargin(const QFontMetrics& metrics)
{
    return std::max(24, metrics.height() + 8);
}
int bottomMargin(const QFontMetrics& metrics)
{
    return 2 * metrics.height() + 6;
}

} // namespace

TimelineView::TimelineView(QWidget* parent)
    : QWidget(parent)
{
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setFocusPolicy(Qt::StrongFocus);
    retranslate();
}

void TimelineView::retranslate()
{
    setToolTip(tr("Each millisecond of 'now' as a stack of the requests that carried it. Wheel: zoom; drag: "
                  "pan; click: show the member in the ZSET table."));
    update(); // the axis and legend texts are drawn with tr() at paint time
}

void TimelineView::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        retranslate();
}

void TimelineView::setLog(const RequestLog* log, qint64 origin, qint64 unitsPerMs)
{
    m_log = log;
    m_buckets.reset(origin, unitsPerMs);
    m_followLive = true;
    m_fromMs = 0;
    m_toMs = 20;
    update();
}

void TimelineView::setTitle(const QString& title)
{
    m_title = title;
    update();
}

void TimelineView::addRequests(const std::vector<quint32>& ids)
{
    if (!m_log)
        return;
    m_buckets.add(*m_log, ids);
    if (m_followLive)
        fitAll();
    update();
}

void TimelineView::clear()
{
    m_log = nullptr;
    m_buckets.reset(0, 1);
    m_followLive = true;
    m_fromMs = 0;
    m_toMs = 20;
    update();
}

void TimelineView::fitAll()
{
    if (m_buckets.isEmpty())
        return;
    const double from = double(m_buckets.firstMs());
    const double to = double(m_buckets.lastMs()) + 1;
    const double span = std::max(to - from, 10.0);
    m_fromMs = from - span * 0.02;
    m_toMs = from + span * 1.02;
    update();
}

void TimelineView::setVisibleRange(double fromMs, double toMs)
{
    if (toMs - fromMs < 2)
        toMs = fromMs + 2;
    m_fromMs = fromMs;
    m_toMs = toMs;
    m_followLive = false;
    update();
}

QRectF TimelineView::plotArea() const
{
    const QFontMetrics metrics(font());
    return QRectF(leftMargin(metrics), topMargin(metrics), std::max(10, width() - leftMargin(metrics) - 12),
                  std::max(10, height() - topMargin(metrics) - bottomMargin(metrics)));
}

double TimelineView::xOf(double ms) const
{
    const QRectF area = plotArea();
    return area.left() + (ms - m_fromMs) / (m_toMs - m_fromMs) * area.width();
}

double TimelineView::msAt(double x) const
{
    const QRectF area = plotArea();
    return m_fromMs + (x - area.left()) / area.width() * (m_toMs - m_fromMs);
}

void TimelineView::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    painter.fillRect(rect(), palette().base());
    painter.setRenderHint(QPainter::Antialiasing, true);
    const QRectF area = plotArea();
    drawAxes(painter, area);
    painter.save();
    painter.setClipRect(area.adjusted(0, -2, 0, 0));
    if (area.width() / (m_toMs - m_fromMs) >= minStackPixelsPerMs)
        drawStacks(painter, area);
    else
        drawColumns(painter, area);
    painter.restore();
    drawLegend(painter, area);
    if (m_buckets.isEmpty()) {
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(area, Qt::AlignCenter, tr("Fire a burst (F5) to see each request land on the timeline."));
    }
}

void TimelineView::drawAxes(QPainter& painter, const QRectF& area)
{
    const QColor text = palette().color(QPalette::Text);
    QColor grid = text;
    grid.setAlphaF(0.12);
    painter.setPen(text);
    QFont small = font();
    painter.setFont(small);
    const int lineHeight = QFontMetrics(small).height();
    if (!m_title.isEmpty()) {
        QFont bold = font();
        bold.setBold(true);
        painter.setFont(bold);
        painter.drawText(QRectF(area.left(), 2, area.width(), area.top() - 4), Qt::AlignLeft | Qt::AlignVCenter,
                         m_title);
        painter.setFont(small);
    }
    const double pixelsPerMs = area.width() / (m_toMs - m_fromMs);
    // A grid line per millisecond once they are far enough apart, else a "nice" step.
    const double step = pixelsPerMs >= 6 ? 1.0 : niceStep(70.0 / pixelsPerMs);
    const double labelStep = niceStep(70.0 / pixelsPerMs);
    for (double ms = std::ceil(m_fromMs / step) * step; ms <= m_toMs; ms += step) {
        const double x = xOf(ms);
        painter.setPen(QPen(grid, 1));
        painter.drawLine(QPointF(x, area.top()), QPointF(x, area.bottom()));
        if (std::fmod(std::abs(ms), labelStep) < 1e-6) {
            painter.setPen(text);
            painter.drawText(QRectF(x - 40, area.bottom() + 2, 80, lineHeight), Qt::AlignHCenter | Qt::AlignTop,
                             QString::number(qint64(ms)));
        }
    }
    painter.setPen(text);
    painter.drawLine(area.bottomLeft(), area.bottomRight());
    painter.drawLine(area.bottomLeft(), area.topLeft());
    painter.save();
    painter.translate(lineHeight / 2.0 + 2, area.center().y());
    painter.rotate(-90);
    painter.drawText(QRectF(-area.height() / 2, -lineHeight / 2.0, area.height(), lineHeight), Qt::AlignCenter,
                     pixelsPerMs >= minStackPixelsPerMs
                         ? tr("requests in the ms")
                         : tr("requests per %n ms", nullptr, int(millisecondsPerColumn())));
    painter.restore();
    // On its own line under the tick labels: it never covers the last one.
    painter.drawText(QRectF(area.left(), area.bottom() + 2 + lineHeight, area.width(), lineHeight + 2),
                     Qt::AlignRight | Qt::AlignTop, tr("now, ms since start"));
}

void TimelineView::drawStacks(QPainter& painter, const QRectF& area)
{
    const double pixelsPerMs = area.width() / (m_toMs - m_fromMs);
    const double cell = std::min(pixelsPerMs * 0.8, 22.0);
    const int fits = std::max(1, int(area.height() / cell) - 1);
    const auto& buckets = m_buckets.buckets();
    for (auto it = buckets.lower_bound(qint64(std::floor(m_fromMs))); it != buckets.end() && it->first <= m_toMs;
         ++it) {
        const MillisecondBucket& bucket = it->second;
        const double centre = xOf(double(it->first) + 0.5);
        double y = area.bottom() - cell / 2 - 1;
        int drawn = 0;
        auto next = [&] {
            y -= cell;
            ++drawn;
        };
        const double r = cell * 0.42;
        for (int i = 0; i < bucket.stored && drawn < fits; ++i, next())
            drawStored(painter, QPointF(centre, y), r);
        for (int i = 0; i < bucket.overwritten && drawn < fits; ++i, next())
            drawOverwritten(painter, QPointF(centre, y), r, std::max(1.5, cell / 9));
        for (int i = 0; i < bucket.failed + bucket.unknown && drawn < fits; ++i, next())
            drawFailed(painter, QPointF(centre, y), cell * 0.35);
        if (drawn < bucket.requests) { // more than fit: say how many
            painter.setPen(palette().color(QPalette::Text));
            painter.drawText(QRectF(centre - 30, area.top(), 60, 14), Qt::AlignCenter,
                             QStringLiteral("%1").arg(bucket.requests));
        }
    }
}

qint64 TimelineView::millisecondsPerColumn() const
{
    // Columns of a whole number of milliseconds, about 3 px wide, so that neighbouring columns
    // are comparable (uneven columns would draw a comb).
    const double pixelsPerMs = plotArea().width() / (m_toMs - m_fromMs);
    return std::max<qint64>(1, qint64(std::ceil(3.0 / pixelsPerMs)));
}

void TimelineView::drawColumns(QPainter& painter, const QRectF& area)
{
    const qint64 perColumn = millisecondsPerColumn();
    const double from = std::floor(m_fromMs / double(perColumn)) * double(perColumn);
    const int columnCount = std::max(1, int(std::ceil((m_toMs - from) / double(perColumn))));
    const auto columns = m_buckets.columns(from, from + double(columnCount) * double(perColumn), columnCount);
    int tallest = 1;
    for (const auto& column : columns)
        tallest = std::max(tallest, column.requests);
    const double columnWidth = xOf(from + double(perColumn)) - xOf(from);
    const double scale = (area.height() - 4) / tallest;
    QBrush hatch(overwrittenColour, Qt::BDiagPattern);
    painter.setRenderHint(QPainter::Antialiasing, false);
    for (int i = 0; i < columnCount; ++i) {
        const auto& column = columns[size_t(i)];
        if (column.requests == 0)
            continue;
        const double x = xOf(from + double(i) * double(perColumn));
        const double storedHeight = column.stored * scale;
        const double overwrittenHeight = column.overwritten * scale;
        const double failedHeight = column.failed * scale;
        QRectF stored(x, area.bottom() - storedHeight, std::max(1.0, columnWidth + 0.5), storedHeight);
        painter.fillRect(stored, storedColour);
        QRectF overwritten(x, stored.top() - overwrittenHeight, stored.width(), overwrittenHeight);
        painter.fillRect(overwritten,
                         QColor(overwrittenColour.red(), overwrittenColour.green(), overwrittenColour.blue(), 60));
        painter.fillRect(overwritten, hatch);
        painter.fillRect(QRectF(x, overwritten.top() - failedHeight, stored.width(), failedHeight), failedColour);
    }
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.setPen(palette().color(QPalette::Text));
    painter.drawText(QRectF(area.left() + 4, area.top(), 200, 14), Qt::AlignLeft | Qt::AlignTop,
                     QString::number(tallest));
}

void TimelineView::drawLegend(QPainter& painter, const QRectF& area)
{
    const QFontMetrics metrics(font());
    QString stored = tr("stored: own member");
    QString overwritten = tr("overwritten: ZADD replied 0");
    if (legendWidth(metrics, stored, overwritten) > area.width() * 0.9) { // a narrow view: the short words
        stored = tr("stored");
        overwritten = tr("overwritten");
    }
    const int width = legendWidth(metrics, stored, overwritten);
    TimelinePainting::drawLegend(painter, area.right() - width, 2 + (area.top() - 4) / 2.0, metrics,
                                 palette().color(QPalette::Text), stored, overwritten);
}

void TimelineView::wheelEvent(QWheelEvent* event)
{
    const double factor = std::pow(0.85, event->angleDelta().y() / 120.0);
    const double anchor = msAt(event->position().x());
    const double from = anchor - (anchor - m_fromMs) * factor;
    const double to = anchor + (m_toMs - anchor) * factor;
    if (to - from < 2 || to - from > 1e9)
        return;
    setVisibleRange(from, to);
    event->accept();
}

void TimelineView::mousePressEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton)
        return;
    m_dragging = true;
    m_dragged = false;
    m_dragStart = event->pos();
    m_dragFromMs = m_fromMs;
}

void TimelineView::mouseMoveEvent(QMouseEvent* event)
{
    if (!m_dragging)
        return;
    const int dx = event->pos().x() - m_dragStart.x();
    if (std::abs(dx) > 3)
        m_dragged = true;
    if (m_dragged) {
        const double span = m_toMs - m_fromMs;
        const double shift = -dx / plotArea().width() * span;
        setVisibleRange(m_dragFromMs + shift, m_dragFromMs + shift + span);
        setCursor(Qt::ClosedHandCursor);
    }
}

void TimelineView::mouseReleaseEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton)
        return;
    m_dragging = false;
    unsetCursor();
    if (m_dragged || !m_log)
        return;
    const qint64 ms = qint64(std::floor(msAt(event->position().x())));
    const MillisecondBucket* bucket = m_buckets.bucketAt(ms);
    if (!bucket)
        return;
    emit millisecondClicked(ms, bucket->storedRequest >= 0 ? m_log->member(bucket->storedRequest) : QByteArray());
}

bool TimelineView::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const QString text
            = plotArea().contains(help->pos()) ? tooltipFor(qint64(std::floor(msAt(help->pos().x())))) : QString();
        if (text.isEmpty())
            QToolTip::showText(help->globalPos(), toolTip(), this);
        else
            QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    return QWidget::event(event);
}

QString TimelineView::tooltipFor(qint64 ms) const
{
    const MillisecondBucket* bucket = m_buckets.bucketAt(ms);
    if (!bucket || !m_log)
        return {};
    QString text = tr("<b>%1 ms</b>: %n request(s), #%2 to #%3", nullptr, bucket->requests)
                       .arg(ms)
                       .arg(bucket->firstRequest)
                       .arg(bucket->lastRequest);
    if (bucket->storedRequest >= 0) {
        const int i = bucket->storedRequest;
        text += tr("<br>kept: #%1, member <tt>%2</tt>, score %3, reply count %4, added %5")
                    .arg(i)
                    .arg(QString::fromUtf8(m_log->member(i)).toHtmlEscaped())
                    .arg(m_log->now(i))
                    .arg(m_log->count(i))
                    .arg(m_log->added(i));
    }
    if (bucket->overwritten > 0)
        text += tr("<br>%n request(s) only overwrote a member (ZADD replied 0)", nullptr, bucket->overwritten);
    if (bucket->failed > 0)
        text += tr("<br>%n request(s) failed", nullptr, bucket->failed);
    // The individual requests, when there are few enough to list.
    if (bucket->requests <= 12) {
        QStringList rows;
        for (int i = bucket->firstRequest; i <= bucket->lastRequest; ++i) {
            if (!m_log->isDone(i) || m_buckets.millisecondOf(m_log->now(i)) != ms)
                continue;
            rows << tr("#%1 → count %2, added %3").arg(i).arg(m_log->count(i)).arg(m_log->added(i));
        }
        if (!rows.isEmpty())
            text += QStringLiteral("<br>") + rows.join(QStringLiteral("<br>"));
    }
    return text;
}
