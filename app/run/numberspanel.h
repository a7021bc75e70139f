#pragma once

#include "results/burstsummary.h"

#include <QWidget>

class QGridLayout;
class QLabel;

// The figures of one burst, large enough to read from the back of a classroom: sent, stored,
// lost (and %), overwritten, admitted beyond the limit. A figure never clips: in a narrow panel
// its font shrinks until it fits, and captions wrap. A figure the replies cannot tell (a script
// that answers only a count) says "unknown", with what Redis itself can tell beside it.
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

    // For tests: whether every figure's text fits the width its label has.
    bool figuresFit() const;

protected:
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    struct Figure
    {
        QLabel* value = nullptr;
        QLabel* caption = nullptr;
    };
    void arrange(int perRow);
    int widestCaptionWord(const QFont& font) const;
    int widestCaption(const QFont& font) const; // on one line
    static QString lostCaption(double percent);
    // A caption as the layout measures it: the lost share at its widest, whatever it reads now.
    QString measuredCaption(const Figure& figure) const;

    // As many figures in a row as the width has room for, up to m_widestRow.
    void arrangeForWidth();
    void fitCaptions();
    void setLostCaption(const QString& text);
    static constexpr double smallestCaption = 0.8; // of the panel's text size
    void applyFonts();
    void fitFigures(); // each figure's font: the big one, or smaller until its text fits
    QList<Figure> figures() const { return {m_sent, m_stored, m_lost, m_overwritten, m_beyond}; }
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
    int m_widestRow = 5; // figures in a row: five, three when compact
    int m_perRow = 0; // as arranged
    QFont m_big; // the figures' font before fitting
    BurstSummary m_last;
    bool m_shown = false;
};
