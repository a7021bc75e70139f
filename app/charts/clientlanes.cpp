#include "clientlanes.h"

#include "requestlog.h"
#include "timelinepainting.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <limits>

using namespace TimelinePainting; // the marks of the burst timeline

namespace {
constexpr double minMarkPixelsPerMs = 8; // below this, milliseconds merge into columns
constexpr int maxLabelWidth = 170;

// Room for the legend above the lanes and the axis labels below them.
int topMargin(const QFontMetrics& metrics)
{
    return metrics.height() + 10;
}

int bottomMargin(const QFontMetrics& metrics)
{
    return metrics.height() + 10;
}
} // namespace

ClientLanes::ClientLanes(QWidget* parent)
    : QWidget(parent)
{
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setFocusPolicy(Qt::StrongFocus);
    retranslate();
}

void ClientLanes::retranslate()
{
    setToolTip(tr("One lane per app server; x is the 'now' each request carried. A diamond under another "
                  "server's square is a collision across servers. Wheel: zoom; drag: pan; double-click: fit."));
}

void ClientLanes::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange) {
        retranslate();
        update(); // the legend and the axis caption are drawn in the current language
    }
}

QSize ClientLanes::sizeHint() const
{
    const int laneHeight = std::max(48, fontMetrics().height() * 3);
    return {760, topMargin(fontMetrics()) + bottomMargin(fontMetrics()) + laneHeight * std::max(2, laneCount())};
}

void ClientLanes::setLanes(const QStringList& names)
{
    m_names = names;
    m_lanes.assign(size_t(names.size()), {});
    m_originMs = 0;
    m_followLive = true;
    m_fromMs = 0;
    m_toMs = 20;
    updateGeometry();
    update();
}

void ClientLanes::renameLanes(const QStringList& names)
{
    if (names.size() != laneCount())
        return;
    m_names = names;
    update();
}

void ClientLanes::setOrigin(qint64 originMs)
{
    m_originMs = originMs;
}

void ClientLanes::clear()
{
    setLanes(m_names);
}

void ClientLanes::addRequests(const RequestLog& log, const std::vector<quint32>& ids)
{
    for (const quint32 id : ids) {
        const int i = int(id);
        if (i >= log.size() || !log.isDone(i) || log.connection(i) >= laneCount())
            continue;
        Cell& cell = m_lanes[size_t(log.connection(i))][log.now(i) - m_originMs];
        if (log.isFailed(i) || log.added(i) < 0)
            ++cell.failed;
        else if (log.added(i) == 1)
            ++cell.stored;
        else
            ++cell.overwritten;
    }
    if (m_followLive) {
        fitAll();
        m_followLive = true; // fitting to the data is not the user's choice of range
    }
    update();
}

ClientLanes::Cell ClientLanes::laneTotal(int index) const
{
    Cell total;
    for (const auto& [ms, cell] : lane(index)) {
        total.stored += cell.stored;
        total.overwritten += cell.overwritten;
        total.failed += cell.failed;
    }
    return total;
}

bool ClientLanes::isEmpty() const
{
    return std::all_of(m_lanes.cbegin(), m_lanes.cend(), [](const auto& lane) { return lane.empty(); });
}

void ClientLanes::fitAll()
{
    qint64 first = 0, last = 0;
    bool any = false;
    for (const auto& lane : m_lanes) {
        if (lane.empty())
            continue;
        first = any ? std::min(first, lane.begin()->first) : lane.begin()->first;
        last = any ? std::max(last, lane.rbegin()->first) : lane.rbegin()->first;
        any = true;
    }
    if (!any)
        return;
    const double span = std::max(double(last + 1 - first), 10.0);
    setVisibleRange(double(first) - span * 0.02, double(first) + span * 1.02);
}

void ClientLanes::setVisibleRange(double fromMs, double toMs)
{
    if (toMs - fromMs < 2)
        toMs = fromMs + 2;
    m_fromMs = fromMs;
    m_toMs = toMs;
    m_followLive = false;
    update();
}

QRectF ClientLanes::plotArea() const
{
    const QFontMetrics metrics = fontMetrics();
    int labels = 0;
    for (const QString& name : m_names) {
        for (const QString& line : name.split(QLatin1Char('\n')))
            labels = std::max(labels, metrics.horizontalAdvance(line));
    }
    const int left = std::min(labels, maxLabelWidth) + 14;
    return QRectF(left, topMargin(metrics), std::max(10, width() - left - 10),
                  std::max(10, height() - topMargin(metrics) - bottomMargin(metrics)));
}

QRectF ClientLanes::laneRect(int lane) const
{
    const QRectF area = plotArea();
    const double height = area.height() / std::max(1, laneCount());
    return QRectF(area.left(), area.top() + lane * height, area.width(), height);
}

double ClientLanes::xOf(double ms) const
{
    const QRectF area = plotArea();
    return area.left() + (ms - m_fromMs) / (m_toMs - m_fromMs) * area.width();
}

double ClientLanes::msAt(double x) const
{
    const QRectF area = plotArea();
    return m_fromMs + (x - area.left()) / area.width() * (m_toMs - m_fromMs);
}

int ClientLanes::laneAt(double y) const
{
    const QRectF area = plotArea();
    if (laneCount() == 0 || y < area.top() || y >= area.bottom())
        return -1;
    return std::clamp(int((y - area.top()) / (area.height() / laneCount())), 0, laneCount() - 1);
}

qint64 ClientLanes::millisecondsPerColumn() const
{
    // Whole milliseconds per column, about 3 px wide, so neighbouring columns are comparable.
    const double pixelsPerMs = plotArea().width() / (m_toMs - m_fromMs);
    return std::max<qint64>(1, qint64(std::ceil(3.0 / pixelsPerMs)));
}

void ClientLanes::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    painter.fillRect(rect(), palette().base());
    painter.setRenderHint(QPainter::Antialiasing, true);
    const QRectF area = plotArea();
    QColor shade = palette().color(QPalette::Text);
    shade.setAlphaF(0.05);
    for (int lane = 1; lane < laneCount(); lane += 2) // every other lane shaded: rows are easy to follow
        painter.fillRect(laneRect(lane), shade);
    drawAxis(painter, area);
    drawLaneLabels(painter);
    const bool marks = area.width() / (m_toMs - m_fromMs) >= minMarkPixelsPerMs;
    const qint64 perColumn = millisecondsPerColumn();
    const int tallest = marks ? 0 : tallestColumn(perColumn);
    painter.save();
    painter.setClipRect(area);
    for (int lane = 0; lane < laneCount(); ++lane) {
        const QRectF rect = laneRect(lane).adjusted(0, 3, 0, -3);
        if (marks)
            drawMarks(painter, lane, rect);
        else
            drawColumns(painter, lane, rect, perColumn, tallest);
    }
    painter.restore();
    drawLegend(painter, area);
    if (isEmpty()) {
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(area, Qt::AlignCenter, tr("Fire the servers to see one lane per app server."));
    }
}

void ClientLanes::drawAxis(QPainter& painter, const QRectF& area)
{
    const QColor text = palette().color(QPalette::Text);
    QColor grid = text;
    grid.setAlphaF(0.12);
    const double pixelsPerMs = area.width() / (m_toMs - m_fromMs);
    const double step = niceStep(80.0 / pixelsPerMs);
    const QFontMetrics metrics = fontMetrics();
    for (double ms = std::ceil(m_fromMs / step) * step; ms <= m_toMs; ms += step) {
        const double x = xOf(ms);
        painter.setPen(QPen(grid, 1));
        painter.drawLine(QPointF(x, area.top()), QPointF(x, area.bottom()));
        painter.setPen(text);
        painter.drawText(QRectF(x - 40, area.bottom() + 3, 80, metrics.height()), Qt::AlignHCenter | Qt::AlignTop,
                         QString::number(qint64(std::llround(ms))));
    }
    painter.setPen(text);
    painter.drawLine(area.bottomLeft(), area.bottomRight());
    painter.drawLine(area.bottomLeft(), area.topLeft());
    for (int lane = 1; lane < laneCount(); ++lane) {
        const double y = laneRect(lane).top();
        painter.setPen(QPen(grid, 1));
        painter.drawLine(QPointF(area.left(), y), QPointF(area.right(), y));
    }
}

void ClientLanes::drawLaneLabels(QPainter& painter)
{
    const QFontMetrics metrics = fontMetrics();
    QFont bold = font();
    bold.setBold(true);
    for (int lane = 0; lane < laneCount(); ++lane) {
        const QRectF rect = laneRect(lane);
        const QStringList lines = m_names.value(lane).split(QLatin1Char('\n'));
        double y = rect.center().y() - metrics.height() * lines.size() / 2.0;
        for (int i = 0; i < lines.size(); ++i) {
            painter.setFont(i == 0 ? bold : font());
            painter.setPen(i == 0 ? palette().color(QPalette::Text) : palette().color(QPalette::PlaceholderText));
            const QString line = metrics.elidedText(lines[i], Qt::ElideRight, maxLabelWidth);
            painter.drawText(QRectF(4, y, rect.left() - 10, metrics.height()), Qt::AlignRight | Qt::AlignVCenter, line);
            y += metrics.height();
        }
    }
    painter.setFont(font());
}

void ClientLanes::drawMarks(QPainter& painter, int lane, const QRectF& rect)
{
    const double pixelsPerMs = plotArea().width() / (m_toMs - m_fromMs);
    const double cell = std::min({pixelsPerMs * 0.8, 18.0, rect.height() - 2});
    const int allFit = std::max(1, int(rect.height() / cell));
    // A stack that does not fit leaves room at the top for its count.
    const int fitsWithCount = std::max(1, int((rect.height() - fontMetrics().height()) / cell));
    const auto& cells = m_lanes[size_t(lane)];
    for (auto it = cells.lower_bound(qint64(std::floor(m_fromMs))); it != cells.end() && it->first <= m_toMs; ++it) {
        const Cell& counts = it->second;
        const int fits = counts.requests() > allFit ? fitsWithCount : allFit;
        const double centre = xOf(double(it->first) + 0.5);
        double y = rect.bottom() - cell / 2;
        int drawn = 0;
        const double r = cell * 0.42;
        for (int i = 0; i < counts.stored && drawn < fits; ++i, ++drawn, y -= cell)
            drawStored(painter, QPointF(centre, y), r);
        for (int i = 0; i < counts.overwritten && drawn < fits; ++i, ++drawn, y -= cell)
            drawOverwritten(painter, QPointF(centre, y), r, std::max(1.5, cell / 9));
        for (int i = 0; i < counts.failed && drawn < fits; ++i, ++drawn, y -= cell)
            drawFailed(painter, QPointF(centre, y), r);
        if (drawn < counts.requests()) { // more than fit: say how many
            painter.setPen(palette().color(QPalette::Text));
            painter.drawText(QRectF(centre - 30, rect.top(), 60, fontMetrics().height()), Qt::AlignCenter,
                             QString::number(counts.requests()));
        }
    }
}

int ClientLanes::tallestColumn(qint64 perColumn) const
{
    // One scale for every lane, so that the servers' columns compare.
    int tallest = 1;
    const double from = std::floor(m_fromMs / double(perColumn)) * double(perColumn);
    for (const auto& cells : m_lanes) {
        qint64 column = std::numeric_limits<qint64>::min();
        int sum = 0;
        for (auto it = cells.lower_bound(qint64(from)); it != cells.end() && it->first <= m_toMs; ++it) {
            const qint64 index = qint64(std::floor((double(it->first) - from) / double(perColumn)));
            if (index != column) {
                column = index;
                sum = 0;
            }
            sum += it->second.requests();
            tallest = std::max(tallest, sum);
        }
    }
    return tallest;
}

void ClientLanes::drawColumns(QPainter& painter, int lane, const QRectF& rect, qint64 perColumn, int tallest)
{
    const double from = std::floor(m_fromMs / double(perColumn)) * double(perColumn);
    const int columnCount = std::max(1, int(std::ceil((m_toMs - from) / double(perColumn))));
    std::vector<Cell> columns(static_cast<size_t>(columnCount));
    const auto& cells = m_lanes[size_t(lane)];
    for (auto it = cells.lower_bound(qint64(from)); it != cells.end() && it->first <= m_toMs; ++it) {
        const auto index = size_t(std::floor((double(it->first) - from) / double(perColumn)));
        if (index >= columns.size())
            break;
        columns[index].stored += it->second.stored;
        columns[index].overwritten += it->second.overwritten;
        columns[index].failed += it->second.failed;
    }
    const double columnWidth = xOf(from + double(perColumn)) - xOf(from);
    const double scale = rect.height() / tallest;
    const QBrush hatch(overwrittenColour, Qt::BDiagPattern);
    const QColor wash(overwrittenColour.red(), overwrittenColour.green(), overwrittenColour.blue(), 60);
    painter.setRenderHint(QPainter::Antialiasing, false);
    for (int i = 0; i < columnCount; ++i) {
        const Cell& column = columns[size_t(i)];
        if (column.requests() == 0)
            continue;
        const double x = xOf(from + double(i) * double(perColumn));
        const QRectF stored(x, rect.bottom() - column.stored * scale, std::max(1.0, columnWidth + 0.5),
                            column.stored * scale);
        painter.fillRect(stored, storedColour);
        const QRectF overwritten(x, stored.top() - column.overwritten * scale, stored.width(),
                                 column.overwritten * scale);
        painter.fillRect(overwritten, wash);
        painter.fillRect(overwritten, hatch);
        painter.fillRect(QRectF(x, overwritten.top() - column.failed * scale, stored.width(), column.failed * scale),
                         failedColour);
    }
    painter.setRenderHint(QPainter::Antialiasing, true);
}

void ClientLanes::drawLegend(QPainter& painter, const QRectF& area)
{
    const QFontMetrics metrics = fontMetrics();
    const QString stored = tr("stored: own member");
    const QString overwritten = tr("overwritten: ZADD replied 0");
    const int width = legendWidth(metrics, stored, overwritten);
    const double x = std::max(area.left(), area.right() - width);
    const double y = area.top() / 2;
    // What x is, and at column zoom what a column's height means, left of the legend.
    QString caption = tr("x: now, ms since the start");
    if (area.width() / (m_toMs - m_fromMs) < minMarkPixelsPerMs) {
        const qint64 perColumn = millisecondsPerColumn();
        caption += QStringLiteral(" · ") + tr("columns of %n ms", nullptr, int(perColumn)) + QStringLiteral(", ")
            + tr("tallest %n request(s)", nullptr, tallestColumn(perColumn));
    }
    painter.setPen(palette().color(QPalette::Text));
    painter.drawText(QRectF(area.left(), 0, std::max(0.0, x - area.left() - 12), area.top()),
                     Qt::AlignLeft | Qt::AlignVCenter,
                     metrics.elidedText(caption, Qt::ElideRight, int(std::max(0.0, x - area.left() - 12))));
    TimelinePainting::drawLegend(painter, x, y, metrics, palette().color(QPalette::Text), stored, overwritten);
}

void ClientLanes::wheelEvent(QWheelEvent* event)
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

void ClientLanes::mousePressEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton)
        return;
    m_dragging = true;
    m_dragStart = event->pos();
    m_dragFromMs = m_fromMs;
}

void ClientLanes::mouseMoveEvent(QMouseEvent* event)
{
    if (!m_dragging)
        return;
    const int dx = event->pos().x() - m_dragStart.x();
    if (std::abs(dx) <= 3)
        return;
    const double span = m_toMs - m_fromMs;
    const double shift = -dx / plotArea().width() * span;
    setVisibleRange(m_dragFromMs + shift, m_dragFromMs + shift + span);
    setCursor(Qt::ClosedHandCursor);
}

void ClientLanes::mouseReleaseEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton)
        return;
    m_dragging = false;
    unsetCursor();
}

void ClientLanes::mouseDoubleClickEvent(QMouseEvent*)
{
    fitAll();
}

bool ClientLanes::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const QString text = tooltipAt(help->pos());
        QToolTip::showText(help->globalPos(), text.isEmpty() ? toolTip() : text, this);
        return true;
    }
    return QWidget::event(event);
}

QString ClientLanes::tooltipAt(const QPoint& pos) const
{
    const int lane = laneAt(pos.y());
    if (lane < 0 || !plotArea().contains(pos))
        return {};
    const auto ms = qint64(std::floor(msAt(pos.x())));
    const auto& cells = m_lanes[size_t(lane)];
    const auto it = cells.find(ms);
    if (it == cells.end())
        return {};
    const Cell& cell = it->second;
    return tr("<b>%1, %2 ms</b>: %n request(s)<br>%3 stored, %4 overwritten", nullptr, cell.requests())
        .arg(m_names.value(lane).section(QLatin1Char('\n'), 0, 0).toHtmlEscaped())
        .arg(ms)
        .arg(cell.stored)
        .arg(cell.overwritten);
}
