#pragma once

#include "burstsummary.h"

#include <QWidget>

class QGridLayout;
class QLabel;

// The figures of one burst, large enough to read from the back of a classroom: sent, stored,
// lost (and %), overwritten, admitted beyond the limit.
class NumbersPanel : public QWidget
{
    Q_OBJECT
public:
    explicit NumbersPanel(QWidget* parent = nullptr);

    void showSummary(const BurstSummary& summary);
    void clear();
    // Smaller figures, for two panels side by side.
    void setCompact(bool compact);
    // The text of one figure ("sent", "stored", "lost", "overwritten", "beyond"), for tests.
    QString figure(const QString& name) const;
    // The point size of the figures, for tests of zooming.
    double figurePointSize() const;

protected:
    void changeEvent(QEvent* event) override;

private:
    struct Figure
    {
        QLabel* value = nullptr;
        QLabel* caption = nullptr;
    };
    void arrange(int perRow);
    void applyFonts();
    Figure addFigure(const QColor& accent); // invalid accent: the palette's text colour
    void retranslate();

    Figure m_sent;
    Figure m_stored;
    Figure m_lost;
    Figure m_overwritten;
    Figure m_beyond;
    QLabel* m_note = nullptr;
    QGridLayout* m_layout = nullptr;
    double m_scale = 2.6;
    BurstSummary m_last;
    bool m_shown = false;
};
