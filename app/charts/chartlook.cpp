#include "chartlook.h"

#include "presentation.h"

#include <QAbstractAxis>
#include <QChart>
#include <QChartView>
#include <QFontMetricsF>
#include <QLegend>
#include <QLegendMarker>
#include <QLocale>

namespace ChartLook {

bool apply(QChartView* view, const QList<QAbstractAxis*>& axes)
{
    QChart* chart = view->chart();
    const QPalette palette = view->palette();
    const bool dark = Presentation::isDark(palette);
    const QChart::ChartTheme theme = dark ? QChart::ChartThemeDark : QChart::ChartThemeLight;
    if (chart->theme() != theme)
        chart->setTheme(theme);
    chart->setBackgroundBrush(palette.color(QPalette::Base));
    chart->setPlotAreaBackgroundVisible(false);
    const QColor text = palette.color(QPalette::Text);
    const QFont labels = view->font();
    QFont titles = view->font();
    titles.setBold(true);
    QColor grid = text;
    grid.setAlphaF(0.25);
    QColor minorGrid = text;
    minorGrid.setAlphaF(0.08);
    for (QAbstractAxis* axis : axes) {
        axis->setGridLineColor(grid);
        axis->setMinorGridLineColor(minorGrid);
        axis->setLabelsFont(labels);
        axis->setTitleFont(titles);
        axis->setLabelsColor(text);
        axis->setTitleBrush(text);
    }
    chart->setTitleFont(titles);
    chart->setTitleBrush(text);
    chart->legend()->setLabelColor(text);
    localize(view);
    fitLegend(view);
    return dark;
}

void localize(QChartView* view)
{
    QChart* chart = view->chart();
    chart->setLocalizeNumbers(true);
    if (chart->locale() != QLocale())
        chart->setLocale(QLocale());
}

void fitLegend(QChartView* view)
{
    QLegend* legend = view->chart()->legend();
    legend->setShowToolTips(true); // a label cut short after all can still be read
    const QMargins margins = view->chart()->margins();
    const qreal room = view->chart()->size().width() - margins.left() - margins.right();
    // What one row needs: per entry its label, its marker and the gaps around them.
    const auto needed = [legend](const QFont& font) {
        const QFontMetricsF metrics(font);
        qreal width = 0;
        for (const QLegendMarker* marker : legend->markers()) {
            if (marker->isVisible())
                width += metrics.horizontalAdvance(marker->label()) + 2.5 * metrics.height();
        }
        return width;
    };
    const QFont full = view->font();
    QFont font = full;
    for (qreal scale = 1.0; scale > 0.69 && room > 0; scale -= 0.05) {
        font.setPointSizeF(full.pointSizeF() * scale);
        if (needed(font) <= room)
            break;
    }
    if (legend->font() != font)
        legend->setFont(font);
}

} // namespace ChartLook
