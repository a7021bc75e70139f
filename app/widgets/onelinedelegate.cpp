#include "onelinedelegate.h"

#include <QApplication>
#include <QPainter>

OneLineDelegate::OneLineDelegate(QObject* parent)
    : QStyledItemDelegate(parent)
    , m_texts(4096)
{ }

const QStaticText& OneLineDelegate::laidOut(const QString& text, const QFont& font) const
{
    if (font != m_font) { // QFont::key() builds a string: once per font, not per cell
        m_font = font;
        m_fontKey = font.key() + QLatin1Char('\n');
    }
    const QString key = m_fontKey + text;
    if (const QStaticText* kept = m_texts.object(key))
        return *kept;
    auto* made = new QStaticText(text);
    made->setTextFormat(Qt::PlainText);
    made->setPerformanceHint(QStaticText::AggressiveCaching);
    made->prepare(QTransform(), font);
    m_texts.insert(key, made);
    return *made;
}

void OneLineDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const
{
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    const QWidget* widget = opt.widget;
    QStyle* style = widget ? widget->style() : QApplication::style();
    QString text = opt.text;
    opt.text.clear(); // the panel, the selection and the focus, as the style draws them
    style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, widget);
    if (text.isEmpty())
        return;

    // The text's room, as QCommonStyle gives it to a cell with neither icon nor check box.
    const int margin = style->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, widget) + 1;
    const QRect room = opt.rect.adjusted(margin, 0, -margin, 0);
    const QStaticText* line = &laidOut(text, opt.font);
    QStaticText elided;
    if (line->size().width() > room.width()) {
        elided = QStaticText(QFontMetrics(opt.font).elidedText(text, opt.textElideMode, room.width()));
        elided.setTextFormat(Qt::PlainText);
        elided.prepare(QTransform(), opt.font);
        line = &elided;
    }
    const QSizeF size = line->size();
    double x = room.left();
    if (opt.displayAlignment & Qt::AlignRight)
        x = room.right() + 1 - size.width();
    else if (opt.displayAlignment & Qt::AlignHCenter)
        x = room.left() + (room.width() - size.width()) / 2;
    // Whole pixels down, as QStyle::alignedRect() places the styled delegate's line.
    const int height = int(size.height());
    int y = room.top() + (room.height() - height) / 2;
    if (opt.displayAlignment & Qt::AlignTop)
        y = room.top();
    else if (opt.displayAlignment & Qt::AlignBottom)
        y = room.bottom() + 1 - height;

    // The colour group QCommonStyle picks for an item's text.
    QPalette::ColorGroup group = (opt.state & QStyle::State_Enabled) ? QPalette::Normal : QPalette::Disabled;
    if (group == QPalette::Normal && !(opt.state & QStyle::State_Active))
        group = QPalette::Inactive;
    painter->save();
    painter->setPen(
        opt.palette.color(group, (opt.state & QStyle::State_Selected) ? QPalette::HighlightedText : QPalette::Text));
    painter->setFont(opt.font);
    painter->setClipRect(room, Qt::IntersectClip);
    painter->drawStaticText(QPointF(x, y), *line);
    painter->restore();
}
