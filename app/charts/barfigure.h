#pragma once

#include <QColor>
#include <QString>
#include <QVector>
#include <QWidget>

// A few quantities as horizontal bars on one linear scale, each named on its left and its value
// written beside it: the lesson's "key's TTL against the window" and "memory per user of each
// algorithm". Linear on purpose: a bar a thousand times longer than the one above it is what the
// class should see. Colours come from the palette; every bar also carries its value in words.
class BarFigure : public QWidget
{
    Q_OBJECT
public:
    struct Bar
    {
        QString label;
        double value = 0;
        QString valueText;
        QColor colour;
    };

    explicit BarFigure(QWidget* parent = nullptr);

    void setTitle(const QString& title);
    void setBars(const QVector<Bar>& bars);
    // A line under the bars (what the scale hides, where the numbers come from).
    void setNote(const QString& note);
    QString title() const { return m_title; }
    const QVector<Bar>& bars() const { return m_bars; }
    // Where bar `index` is drawn, in the widget's coordinates (the tests measure it).
    QRectF barRect(int index) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    struct Layout
    {
        QRectF title;
        QRectF note;
        double labelsRight = 0; // where the labels end and the bars start
        double barsRight = 0; // the longest bar's end; its value is written after it
        double rowHeight = 0;
        double firstRowTop = 0;
    };
    Layout layout() const;
    QFont titleFont() const;

    QString m_title;
    QVector<Bar> m_bars;
    QString m_note;
};
