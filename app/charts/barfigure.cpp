#include "barfigure.h"

#include <QEvent>
#include <QPainter>

#include <algorithm>

BarFigure::BarFigure(QWidget* parent)
    : QWidget(parent)
{
    setBackgroundRole(QPalette::Base);
    setAutoFillBackground(true);
}

void BarFigure::setTitle(const QString& title)
{
    m_title = title;
    updateGeometry();
    update();
}

void BarFigure::setBars(const QVector<Bar>& bars)
{
    m_bars = bars;
    updateGeometry();
    update();
}

void BarFigure::setNote(const QString& note)
{
    m_note = note;
    update();
}

QFont BarFigure::titleFont() const
{
    QFont bold = font();
    bold.setBold(true);
    bold.setPointSizeF(font().pointSizeF() * 1.2);
    return bold;
}

BarFigure::Layout BarFigure::layout() const
{
    const QRectF area = QRectF(contentsRect()).adjusted(12, 8, -12, -8);
    const QFontMetricsF metrics(font());
    const QFontMetricsF titleMetrics(titleFont());
    Layout layout;
    const double titleHeight
        = titleMetrics.boundingRect(QRectF(0, 0, area.width(), 1e6), Qt::TextWordWrap, m_title).height();
    layout.title = QRectF(area.left(), area.top(), area.width(), titleHeight + titleMetrics.height() * 0.5);
    const double noteHeight = m_note.isEmpty()
        ? 0
        : metrics.boundingRect(QRectF(0, 0, area.width(), 1e6), Qt::TextWordWrap, m_note).height() + 8;
    layout.note = QRectF(area.left(), area.bottom() - noteHeight, area.width(), noteHeight);
    double labels = 0;
    double values = 0;
    for (const Bar& bar : m_bars) {
        labels = std::max(labels, metrics.horizontalAdvance(bar.label));
        values = std::max(values, metrics.horizontalAdvance(bar.valueText));
    }
    layout.labelsRight = area.left() + labels + metrics.averageCharWidth() * 1.5;
    layout.barsRight = std::max(layout.labelsRight + 10, area.right() - values - metrics.averageCharWidth());
    const double rows = std::max<qsizetype>(1, m_bars.size());
    const double room = layout.note.top() - layout.title.bottom();
    layout.rowHeight = std::clamp(room / rows, metrics.height() * 1.4, metrics.height() * 3.0);
    layout.firstRowTop = layout.title.bottom() + std::max(0.0, (room - layout.rowHeight * rows) / 2);
    return layout;
}

QRectF BarFigure::barRect(int index) const
{
    if (index < 0 || index >= m_bars.size())
        return {};
    const Layout layout = this->layout();
    double largest = 0;
    for (const Bar& bar : m_bars)
        largest = std::max(largest, bar.value);
    const double span = layout.barsRight - layout.labelsRight;
    const double value = m_bars[index].value;
    // A value above zero stays in sight, however small beside the largest.
    const double width = largest > 0 && value > 0 ? std::max(2.0, span * value / largest) : 0.0;
    const double top = layout.firstRowTop + layout.rowHeight * index;
    const double height = std::min(layout.rowHeight * 0.6, QFontMetricsF(font()).height() * 1.4);
    return QRectF(layout.labelsRight, top + (layout.rowHeight - height) / 2, width, height);
}

void BarFigure::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing, true);
    const Layout layout = this->layout();
    const QColor text = palette().color(QPalette::Text);
    painter.setPen(text);
    painter.setFont(titleFont());
    painter.drawText(layout.title, Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, m_title);
    painter.setFont(font());
    QColor axis = text;
    axis.setAlphaF(0.5);
    const double axisTop = layout.firstRowTop;
    const double axisBottom = layout.firstRowTop + layout.rowHeight * std::max<qsizetype>(1, m_bars.size());
    painter.setPen(QPen(axis, 1));
    painter.drawLine(QPointF(layout.labelsRight, axisTop), QPointF(layout.labelsRight, axisBottom));
    for (int i = 0; i < m_bars.size(); ++i) {
        const Bar& bar = m_bars[i];
        const QRectF rect = barRect(i);
        const QRectF row(layout.title.left(), layout.firstRowTop + layout.rowHeight * i,
                         layout.labelsRight - layout.title.left() - 6, layout.rowHeight);
        painter.setPen(text);
        painter.drawText(row, Qt::AlignRight | Qt::AlignVCenter, bar.label);
        painter.fillRect(rect, bar.colour);
        painter.setPen(text);
        painter.drawText(QRectF(rect.right() + 6, row.top(), width() - rect.right(), row.height()),
                         Qt::AlignLeft | Qt::AlignVCenter, bar.valueText);
    }
    if (!m_note.isEmpty()) {
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(layout.note, Qt::AlignLeft | Qt::AlignBottom | Qt::TextWordWrap, m_note);
    }
}

void BarFigure::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange)
        updateGeometry();
}

QSize BarFigure::sizeHint() const
{
    const QFontMetrics metrics(font());
    return QSize(metrics.averageCharWidth() * 70, metrics.height() * int(4 + 2.5 * double(m_bars.size())));
}

QSize BarFigure::minimumSizeHint() const
{
    const QFontMetrics metrics(font());
    return QSize(metrics.averageCharWidth() * 30, metrics.height() * int(3 + 1.5 * double(m_bars.size())));
}
