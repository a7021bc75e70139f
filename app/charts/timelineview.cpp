#include "timelineview.h"

#include "results/timelinescale.h"
#include "timelinepainting.h"
#include "timelineviewport.h"

#include <QHelpEvent>
#include <QLocale>
#include <QMouseEvent>
#include <QPaintEngine>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

using namespace TimelinePainting;

namespace {
constexpr int maxLaneLabelWidth = 170;
constexpr int listedRequests = 12; // a tooltip lists the requests of a millisecond up to this many

// Margins grow with the font, so that zoomed (presenter) text still has room: the title and the
// legend above, the tick labels and under them the axis caption below.
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
    m_ownViewport = new TimelineViewport(this);
    setViewport(m_ownViewport);
    m_placeholder = [] { return tr("Fire a burst (F5) to see each request land on the timeline."); };
    m_model.reset();
    retranslate();
}

TimelineView::~TimelineView()
{
    if (m_viewport && m_viewport != m_ownViewport)
        m_viewport->removeExtent(this);
}

void TimelineView::retranslate()
{
    setToolTip(isMultiLane() ? tr("One lane per app server; x is the 'now' each request carried. A diamond under "
                                  "another server's square is a collision across servers. Wheel: zoom; drag: "
                                  "pan; double-click: fit.")
                             : tr("Each millisecond of 'now' as a stack of the requests that carried it. Wheel: "
                                  "zoom; drag: pan; click: show the member in the ZSET table."));
    changed(); // the axis and legend texts are drawn with tr() at paint time
}

void TimelineView::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        retranslate();
}

void TimelineView::setViewport(TimelineViewport* viewport)
{
    if (m_viewport == viewport)
        return;
    if (m_viewport) {
        m_viewport->removeExtent(this);
        disconnect(m_viewport, nullptr, this, nullptr);
    }
    m_viewport = viewport ? viewport : m_ownViewport;
    connect(m_viewport, &TimelineViewport::changed, this,
            qOverload<>(&QWidget::update)); // the range is in the layer's key
    if (!m_model.isEmpty())
        m_viewport->setExtent(this, m_model.firstMs(), m_model.lastMs());
    changed();
}

void TimelineView::reset(const QStringList& laneNames, qint64 originMs)
{
    m_laneNames = laneNames;
    m_model.reset(int(std::max<qsizetype>(1, laneNames.size())), originMs);
    m_viewport->removeExtent(this);
    m_viewport->fitAll();
    retranslate();
    updateGeometry();
    changed();
}

void TimelineView::renameLanes(const QStringList& names)
{
    if (names.size() == m_laneNames.size())
        m_laneNames = names;
    changed();
}

void TimelineView::clear()
{
    m_cursor.reset();
    reset(m_laneNames.size() > 1 ? m_laneNames : QStringList());
}

void TimelineView::addBatch(const RequestBatch& batch)
{
    m_model.add(batch);
    if (!m_model.isEmpty())
        m_viewport->setExtent(this, m_model.firstMs(), m_model.lastMs());
    changed();
}

void TimelineView::fitAll()
{
    m_viewport->fitAll();
}

void TimelineView::setVisibleRange(double fromMs, double toMs)
{
    m_viewport->setRange({fromMs, std::max(toMs, fromMs + 2)});
}

double TimelineView::visibleFrom() const
{
    return m_viewport->range().fromMs;
}

double TimelineView::visibleTo() const
{
    return m_viewport->range().toMs;
}

void TimelineView::setServerClock(bool on)
{
    if (on == m_serverClock)
        return;
    m_serverClock = on;
    changed();
}

void TimelineView::setTitle(const QString& title)
{
    m_title = title;
    changed();
}

void TimelineView::setPlaceholder(std::function<QString()> text)
{
    m_placeholder = std::move(text);
    changed();
}

QSize TimelineView::sizeHint() const
{
    const QFontMetrics metrics = fontMetrics();
    if (!isMultiLane())
        return {640, 260};
    const int laneHeight = std::max(48, metrics.height() * 3);
    return {760, topMargin(metrics) + bottomMargin(metrics) + laneHeight * m_model.laneCount()};
}

QSize TimelineView::minimumSizeHint() const
{
    const QFontMetrics metrics = fontMetrics();
    int plot = 3 * metrics.height();
    if (!isMultiLane()) { // the rotated caption runs along the plot's height
        const QString inTheMs = tr("requests in the ms");
        const QString perColumn = tr("requests per %n ms", nullptr, 500);
        const QString measuredFor = font().key() + QLatin1Char('\n') + inTheMs + QLatin1Char('\n') + perColumn;
        if (measuredFor != m_captionMeasuredFor) {
            m_captionMeasuredFor = measuredFor;
            m_captionNeed = std::max(TimelinePainting::widerHalf(inTheMs, metrics),
                                     TimelinePainting::widerHalf(perColumn, metrics))
                + 8;
        }
        plot = std::max(plot, m_captionNeed);
    }
    const int width = std::max(240, 3 * metrics.height() + 12 + metrics.horizontalAdvance(QStringLiteral("00000")) * 5);
    const QMargins margins = contentsMargins(); // a lesson's frame around it
    return QSize(width, topMargin(metrics) + bottomMargin(metrics) + plot)
        .grownBy(QMargins(margins.left(), margins.top(), margins.right(), margins.bottom()));
}

QRectF TimelineView::plotArea() const
{
    const QFontMetrics metrics(font());
    int left = std::max(46, 3 * metrics.height()); // room for the rotated y caption
    if (isMultiLane()) {
        int labels = 0;
        for (const QString& name : m_laneNames) {
            for (const QString& line : name.split(QLatin1Char('\n')))
                labels = std::max(labels, metrics.horizontalAdvance(line));
        }
        left = std::min(labels, maxLaneLabelWidth) + 14;
    }
    // On the right, room for half of a tick label centred on the plot's edge.
    const int right = std::max(12, metrics.horizontalAdvance(QStringLiteral("00,000")) / 2 + 2);
    const QRect inside = contentsRect(); // inside the margin a lesson's frame is drawn in
    return QRectF(inside.left() + left, inside.top() + topMargin(metrics), std::max(10, inside.width() - left - right),
                  std::max(10, inside.height() - topMargin(metrics) - bottomMargin(metrics)));
}

QRectF TimelineView::tallestLabelRect() const
{
    if (m_model.isEmpty() || scale().drawsStacks())
        return {};
    const QRectF area = plotArea();
    const double top = isMultiLane() ? laneRect(0).top() + 3 : area.top();
    // Room for the widest count this view may write ("tallest 1,000,000 requests").
    const QString widest = tr("tallest %n request(s)", nullptr, std::max(m_model.requests(), 2));
    return QRectF(area.left() + 4, top, fontMetrics().horizontalAdvance(widest) + 2, fontMetrics().height());
}

TimelineScale TimelineView::scale() const
{
    const QRectF area = plotArea();
    return TimelineScale(m_viewport->range(), area.left(), area.width());
}

QRectF TimelineView::laneRect(int lane) const
{
    const QRectF area = plotArea();
    const double height = area.height() / std::max(1, m_model.laneCount());
    return QRectF(area.left(), area.top() + lane * height, area.width(), height);
}

int TimelineView::laneAt(double y) const
{
    const QRectF area = plotArea();
    if (y < area.top() || y >= area.bottom())
        return -1;
    return std::clamp(int((y - area.top()) / (area.height() / m_model.laneCount())), 0, m_model.laneCount() - 1);
}

void TimelineView::changed()
{
    ++m_revision;
    update();
}

bool TimelineView::LayerKey::operator==(const LayerKey& other) const
{
    return revision == other.revision && size == other.size && pixelRatio == other.pixelRatio && fromMs == other.fromMs
        && toMs == other.toMs && palette == other.palette && font == other.font;
}

TimelineView::LayerKey TimelineView::layerKey() const
{
    const TimelineRange range = m_viewport->range();
    return {m_revision,
            size(),
            devicePixelRatioF(),
            range.fromMs,
            range.toMs,
            palette().cacheKey(),
            int(palette().currentColorGroup()),
            font().key()};
}

void TimelineView::paintEvent(QPaintEvent*)
{
    const QRectF area = plotArea();
    const TimelineScale scale = this->scale();
    QPainter painter(this);
    if (painter.paintEngine()->type() != QPaintEngine::Raster) {
        drawLayer(painter, area, scale); // an SVG or a print keeps its marks and texts as such
        if (m_cursor) {
            painter.setRenderHint(QPainter::Antialiasing, true);
            dimAfterCursor(painter, area, scale);
            drawCursor(painter, area, scale);
        }
        return;
    }
    const LayerKey key = layerKey();
    if (!(key == m_layerKey) || m_layer.isNull()) {
        m_layer = QPixmap(size() * devicePixelRatioF());
        m_layer.setDevicePixelRatio(devicePixelRatioF());
        QPainter layer(&m_layer);
        layer.setFont(font()); // what a painter on the widget starts with
        layer.setPen(palette().color(foregroundRole()));
        drawLayer(layer, area, scale);
        m_layerKey = key;
        m_dimmedLayer = QPixmap();
    }
    painter.drawPixmap(0, 0, m_layer);
    if (m_cursor) {
        blitDimmedAfterCursor(painter, area, scale);
        painter.setRenderHint(QPainter::Antialiasing, true);
        drawCursor(painter, area, scale);
    }
}

void TimelineView::drawLayer(QPainter& painter, const QRectF& area, const TimelineScale& scale)
{
    painter.fillRect(rect(), palette().base());
    painter.setRenderHint(QPainter::Antialiasing, true);
    if (isMultiLane()) {
        QColor shade = palette().color(QPalette::Text);
        shade.setAlphaF(0.05);
        for (int lane = 1; lane < m_model.laneCount(); lane += 2) // every other lane shaded: rows are easy to follow
            painter.fillRect(laneRect(lane), shade);
        drawLaneLabels(painter);
    }
    drawAxes(painter, area, scale);
    // Each lane's columns summed once a paint (a live run has a bucket per ms to walk), and one
    // column scale for every lane, so that the servers' columns compare.
    std::vector<std::vector<TimelineModel::Column>> columns;
    int tallest = 1;
    if (!scale.drawsStacks()) {
        const double from = scale.firstColumnMs();
        const double to = from + double(scale.columnCount() * scale.millisecondsPerColumn());
        for (int lane = 0; lane < m_model.laneCount(); ++lane) {
            columns.push_back(m_model.columns(lane, from, to, scale.columnCount()));
            for (const TimelineModel::Column& column : columns.back())
                tallest = std::max(tallest, column.requests);
        }
    }
    // Columns leave a line at the top of each lane free: "tallest N requests" is written there,
    // and no column runs through it.
    const double labelRoom = scale.drawsStacks() ? 0.0 : fontMetrics().height() + 2.0;
    painter.save();
    painter.setClipRect(area.adjusted(0, -2, 0, 0));
    for (int lane = 0; lane < m_model.laneCount(); ++lane) {
        const QRectF rect = isMultiLane() ? laneRect(lane).adjusted(0, 3, 0, -3) : area;
        if (scale.drawsStacks())
            drawStacks(painter, lane, rect, scale);
        else
            drawColumns(painter, columns[size_t(lane)], rect.adjusted(0, labelRoom, 0, 0), scale, tallest);
    }
    painter.restore();
    if (const QRectF label = tallestLabelRect(); !label.isEmpty()) {
        painter.setPen(palette().color(QPalette::Text));
        painter.drawText(label, Qt::AlignLeft | Qt::AlignTop, tr("tallest %n request(s)", nullptr, tallest));
    }
    drawLegend(painter, area); // above the plot: a replay's cursor never dims it
    if (m_model.isEmpty() && m_placeholder) {
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(area, Qt::AlignCenter | Qt::TextWordWrap, m_placeholder());
    }
}

void TimelineView::drawAxes(QPainter& painter, const QRectF& area, const TimelineScale& scale)
{
    const QColor text = palette().color(QPalette::Text);
    QColor grid = text;
    grid.setAlphaF(0.12);
    painter.setFont(font());
    const int lineHeight = QFontMetrics(font()).height();
    if (!m_title.isEmpty()) {
        QFont bold = font();
        bold.setBold(true);
        painter.setFont(bold);
        painter.setPen(text);
        const double top = contentsRect().top();
        painter.drawText(QRectF(area.left(), top + 2, area.width(), area.top() - top - 4),
                         Qt::AlignLeft | Qt::AlignVCenter, m_title);
        painter.setFont(font());
    }
    const TimelineRange& range = m_viewport->range();
    const double step = scale.gridStepMs();
    const double labelStep = scale.labelStepMs();
    const QLocale locale;
    // Grid lines on whole pixels, without antialiasing: crisp, and a fraction of the cost of a
    // blended line the plot's height (a live run redraws them on every batch).
    const bool antialiased = painter.testRenderHint(QPainter::Antialiasing);
    painter.setRenderHint(QPainter::Antialiasing, false);
    painter.setPen(QPen(grid, 1));
    for (double ms = std::ceil(range.fromMs / step) * step; ms <= range.toMs; ms += step) {
        const double x = std::round(scale.xOf(ms));
        painter.drawLine(QPointF(x, area.top()), QPointF(x, area.bottom()));
    }
    painter.setRenderHint(QPainter::Antialiasing, antialiased);
    painter.setPen(text);
    for (double ms = std::ceil(range.fromMs / step) * step; ms <= range.toMs; ms += step) {
        if (std::abs(std::remainder(ms, labelStep)) < 1e-6)
            painter.drawText(QRectF(scale.xOf(ms) - 50, area.bottom() + 2, 100, lineHeight),
                             Qt::AlignHCenter | Qt::AlignTop, locale.toString(qint64(std::llround(ms))));
    }
    painter.setPen(text);
    painter.drawLine(area.bottomLeft(), area.bottomRight());
    painter.drawLine(area.bottomLeft(), area.topLeft());
    for (int lane = 1; lane < m_model.laneCount(); ++lane) {
        const double y = laneRect(lane).top();
        painter.setPen(QPen(grid, 1));
        painter.drawLine(QPointF(area.left(), y), QPointF(area.right(), y));
    }
    painter.setPen(text);
    if (!isMultiLane()) {
        painter.save();
        // Along the plot; on two lines when the plot is lower than the caption is long (a low screen).
        const QString caption = scale.drawsStacks()
            ? tr("requests in the ms")
            : tr("requests per %n ms", nullptr, int(scale.millisecondsPerColumn()));
        const int lines = QFontMetrics(font()).horizontalAdvance(caption) + 8 > area.height() ? 2 : 1;
        painter.translate(contentsRect().left() + lineHeight * lines / 2.0 + 2, area.center().y());
        painter.rotate(-90);
        painter.drawText(QRectF(-area.height() / 2, -lineHeight * lines / 2.0, area.height(), lineHeight * lines),
                         Qt::AlignCenter | Qt::TextWordWrap, caption);
        painter.restore();
    }
    // On its own line under the tick labels: it never covers the last one.
    painter.drawText(QRectF(area.left(), area.bottom() + 2 + lineHeight, area.width(), lineHeight + 2),
                     Qt::AlignRight | Qt::AlignTop,
                     m_serverClock ? tr("ms since the first write (Redis's clock)") : tr("now, ms since start"));
}

void TimelineView::drawLaneLabels(QPainter& painter)
{
    const QFontMetrics metrics = fontMetrics();
    QFont bold = font();
    bold.setBold(true);
    for (int lane = 0; lane < m_model.laneCount(); ++lane) {
        const QRectF rect = laneRect(lane);
        const QStringList lines = m_laneNames.value(lane).split(QLatin1Char('\n'));
        double y = rect.center().y() - metrics.height() * lines.size() / 2.0;
        for (int i = 0; i < lines.size(); ++i) {
            painter.setFont(i == 0 ? bold : font());
            painter.setPen(i == 0 ? palette().color(QPalette::Text) : palette().color(QPalette::PlaceholderText));
            const QString line = QFontMetrics(painter.font()).elidedText(lines[i], Qt::ElideRight, maxLaneLabelWidth);
            const double left = contentsRect().left() + 4;
            painter.drawText(QRectF(left, y, rect.left() - left - 6, metrics.height()),
                             Qt::AlignRight | Qt::AlignVCenter, line);
            y += metrics.height();
        }
    }
    painter.setFont(font());
}

void TimelineView::drawStacks(QPainter& painter, int lane, const QRectF& rect, const TimelineScale& scale)
{
    const double cell = stackCell(rect, scale);
    const int allFit = std::max(1, int(rect.height() / cell));
    // A stack that does not fit leaves room at the top for its count; once one in view does, every
    // stack is capped at that height, so a capped stack is never drawn lower than a smaller one.
    const int fitsWithCount = std::max(1, int((rect.height() - fontMetrics().height()) / cell));
    const TimelineRange& range = m_viewport->range();
    const auto& buckets = m_model.lane(lane);
    const auto first = buckets.lower_bound(qint64(std::floor(range.fromMs)));
    bool anyCapped = false;
    for (auto it = first; it != buckets.end() && it->first <= range.toMs && !anyCapped; ++it)
        anyCapped = it->second.requests > allFit;
    const int fits = anyCapped ? fitsWithCount : allFit;
    double countsEnd = rect.left() - 1e9; // where the last count written above a stack ends
    for (auto it = first; it != buckets.end() && it->first <= range.toMs; ++it) {
        const MillisecondBucket& bucket = it->second;
        const double centre = scale.xOf(double(it->first) + 0.5);
        double y = rect.bottom() - cell / 2;
        int drawn = 0;
        const double r = cell * 0.42;
        auto stack = [&](Mark mark, int count) {
            for (int i = 0; i < count && drawn < fits; ++i, ++drawn, y -= cell)
                draw(painter, mark, QPointF(centre, y), r);
        };
        stack(Mark::Stored, bucket.stored);
        stack(Mark::Overwritten, bucket.overwritten);
        stack(Mark::Unknown, bucket.unknown);
        stack(Mark::Failed, bucket.failed);
        if (drawn < bucket.requests) { // more than fit: say how many, unless it would run into the last count
            const QString count = QLocale().toString(bucket.requests);
            const double half = fontMetrics().horizontalAdvance(count) / 2.0 + 2;
            if (centre - half >= countsEnd) {
                painter.setPen(palette().color(QPalette::Text));
                painter.drawText(QRectF(centre - half, rect.top(), 2 * half, fontMetrics().height()), Qt::AlignCenter,
                                 count);
                countsEnd = centre + half;
            }
        }
    }
}

void TimelineView::drawColumns(QPainter& painter, const std::vector<TimelineModel::Column>& columns, const QRectF& rect,
                               const TimelineScale& scale, int tallest)
{
    const double perColumn = double(scale.millisecondsPerColumn());
    const double from = scale.firstColumnMs();
    const int count = std::min(scale.columnCount(), int(columns.size()));
    const double columnWidth = scale.xOf(from + perColumn) - scale.xOf(from);
    const double unit = (rect.height() - 4) / tallest;
    const QBrush hatch(Palette::overwritten, Qt::BDiagPattern);
    // Opaque fills take the raster engine's fast path; a translucent or patterned one, split
    // across threads, costs a hand-off per column: the wash is mixed here, the hatch drawn once.
    const QColor base = palette().color(QPalette::Base);
    const double a = 60.0 / 255;
    const QColor wash = QColor::fromRgbF(float(base.redF() * (1 - a) + Palette::overwritten.redF() * a),
                                         float(base.greenF() * (1 - a) + Palette::overwritten.greenF() * a),
                                         float(base.blueF() * (1 - a) + Palette::overwritten.blueF() * a));
    QPainterPath hatched;
    hatched.setFillRule(Qt::WindingFill); // columns overlap by half a pixel: no unhatched seams
    painter.setRenderHint(QPainter::Antialiasing, false);
    for (int i = 0; i < count; ++i) {
        const TimelineModel::Column& column = columns[size_t(i)];
        if (column.requests == 0)
            continue;
        const double x = scale.xOf(from + i * perColumn);
        const double w = std::max(1.0, columnWidth + 0.5);
        QRectF stored(x, rect.bottom() - column.stored * unit, w, column.stored * unit);
        painter.fillRect(stored, Palette::stored);
        QRectF overwritten(x, stored.top() - column.overwritten * unit, w, column.overwritten * unit);
        if (!overwritten.isEmpty()) {
            painter.fillRect(overwritten, wash);
            hatched.addRect(overwritten);
        }
        const double rest = (column.failed + column.unknown) * unit;
        painter.fillRect(QRectF(x, overwritten.top() - rest, w, rest), Palette::failed);
    }
    painter.fillPath(hatched, hatch);
    painter.setRenderHint(QPainter::Antialiasing, true);
}

void TimelineView::drawLegend(QPainter& painter, const QRectF& area)
{
    const QFontMetrics metrics(font());
    QVector<LegendEntry> entries {{Mark::Stored, tr("stored: own member")},
                                  {Mark::Overwritten, tr("overwritten: ZADD replied 0")}};
    RequestCounts total;
    for (int lane = 0; lane < m_model.laneCount(); ++lane)
        total += m_model.laneTotal(lane);
    if (total.unknown > 0)
        entries.append({Mark::Unknown, tr("reply did not say")});
    if (total.failed > 0)
        entries.append({Mark::Failed, tr("failed")});
    if (legendWidth(metrics, entries) > area.width() * 0.9) { // a narrow view: the short words
        entries[0].text = tr("stored");
        entries[1].text = tr("overwritten");
    }
    const int width = legendWidth(metrics, entries);
    const double top = contentsRect().top();
    TimelinePainting::drawLegend(painter, std::max(area.left(), area.right() - width),
                                 top + 2 + (area.top() - top - 4) / 2.0, metrics, palette().color(QPalette::Text),
                                 entries);
}

void TimelineView::wheelEvent(QWheelEvent* event)
{
    const double factor = std::pow(0.85, event->angleDelta().y() / 120.0);
    if (const auto zoomed = m_viewport->range().zoomed(scale().msAt(event->position().x()), factor))
        m_viewport->setRange(*zoomed);
    event->accept();
}

void TimelineView::mousePressEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton)
        return;
    m_dragging = true;
    m_dragged = false;
    m_dragStart = event->pos();
    m_dragFromMs = m_viewport->range().fromMs;
}

void TimelineView::mouseMoveEvent(QMouseEvent* event)
{
    if (!m_dragging)
        return;
    const int dx = event->pos().x() - m_dragStart.x();
    if (std::abs(dx) > 3)
        m_dragged = true;
    if (!m_dragged)
        return;
    const TimelineRange& range = m_viewport->range();
    m_viewport->setRange(TimelineRange {m_dragFromMs, m_dragFromMs + range.span()}.shifted(scale().dragMs(dx)));
    setCursor(Qt::ClosedHandCursor);
}

void TimelineView::mouseReleaseEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton)
        return;
    m_dragging = false;
    unsetCursor();
    if (m_dragged)
        return;
    const int lane = laneAt(event->position().y());
    const qint64 ms = scale().millisecondAt(event->position().x());
    if (m_model.bucketAt(std::max(lane, 0), ms))
        emit millisecondClicked(ms, m_model.keptMember(std::max(lane, 0), ms));
}

void TimelineView::mouseDoubleClickEvent(QMouseEvent*)
{
    fitAll();
}

bool TimelineView::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const QString text = tooltipAt(help->pos());
        QToolTip::showText(help->globalPos(), text.isEmpty() ? toolTip() : text, this);
        return true;
    }
    return QWidget::event(event);
}

QString TimelineView::tooltipAt(const QPoint& pos) const
{
    const int lane = laneAt(pos.y());
    if (lane < 0 || !plotArea().contains(pos))
        return {};
    const qint64 ms = scale().millisecondAt(pos.x());
    const MillisecondBucket* bucket = m_model.bucketAt(lane, ms);
    if (!bucket)
        return {};
    QString text = isMultiLane()
        ? QStringLiteral("<b>%1</b><br>").arg(m_laneNames.value(lane).section(QLatin1Char('\n'), 0, 0).toHtmlEscaped())
        : QString();
    text += tr("<b>%1 ms</b>: %n request(s), #%2 to #%3", nullptr, bucket->requests)
                .arg(ms)
                .arg(bucket->firstRequest)
                .arg(bucket->lastRequest);
    if (bucket->keptRequest >= 0)
        text += tr("<br>kept: #%1, member <tt>%2</tt>")
                    .arg(bucket->keptRequest)
                    .arg(QString::fromUtf8(m_model.keptMember(lane, ms)).toHtmlEscaped());
    if (bucket->overwritten > 0)
        text += tr("<br>%n request(s) only overwrote a member (ZADD replied 0)", nullptr, bucket->overwritten);
    if (bucket->unknown > 0)
        text += tr("<br>%n request(s) whose reply did not say whether ZADD added (the script answers only a "
                   "count)",
                   nullptr, bucket->unknown);
    if (bucket->failed > 0)
        text += tr("<br>%n request(s) failed", nullptr, bucket->failed);
    if (bucket->requests <= listedRequests) {
        QStringList rows;
        for (const TimelineModel::Sample& sample : m_model.samplesAt(lane, ms)) {
            rows << (sample.failed ? tr("#%1 failed").arg(sample.id)
                                   : tr("#%1 → count %2, added %3")
                                         .arg(sample.id)
                                         .arg(sample.count)
                                         .arg(sample.added < 0 ? tr("unknown") : QString::number(sample.added)));
        }
        if (!rows.isEmpty())
            text += QStringLiteral("<br>") + rows.join(QStringLiteral("<br>"));
    }
    return text;
}
