#pragma once

#include <QCache>
#include <QStaticText>
#include <QStyledItemDelegate>

// Draws a cell's text as one line, laid out once: a table of thousands of numbers repaints at
// every step of a replay, and QStyledItemDelegate lays each cell's text out three times (its
// size, its elision, its drawing). The background, selection and focus are the style's, as
// QStyledItemDelegate draws them; the text is elided only when it does not fit. Texts drawn
// lately are kept (a replay played step by step shows the same members again).
class OneLineDelegate : public QStyledItemDelegate
{
    Q_OBJECT
public:
    explicit OneLineDelegate(QObject* parent = nullptr);

    void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override;

    // A text laid out in a font, from the cache or made now.
    const QStaticText& laidOut(const QString& text, const QFont& font) const;

private:
    mutable QCache<QString, QStaticText> m_texts; // by font and text
    mutable QFont m_font; // the last font's key
    mutable QString m_fontKey;
};
