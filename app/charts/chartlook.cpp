#include "chartlook.h"

#include <cmath>

#include "widgets/presentation.h"

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
    const QFont full = view->font();
    QFont font = full;
    for (qreal scale = 1.0; scale > smallestLegendScale - 0.01 && room > 0; scale -= 0.05) {
        font.setPointSizeF(full.pointSizeF() * scale);
        if (legendRowWidth(view, font) <= room)
            break;
    }
    if (legend->font() != font)
        legend->setFont(font);
}

qreal legendRowWidth(QChartView* view, const QFont& font)
{
    // Per entry, as Qt Charts lays it out: the label with its text margins, the marker, and the
    // gaps on either side of it (about 20 px, and a marker that grows with the text); then the
    // legend's own margins.
    const QFontMetricsF metrics(font);
    qreal width = 20;
    // Every marker, shown or not yet (a chart that was never shown has hidden ones), but those of
    // series without a name (a cursor line), which the legend never shows.
    for (const QLegendMarker* marker : view->chart()->legend()->markers())
        if (!marker->label().isEmpty())
            width += metrics.horizontalAdvance(marker->label()) + 0.8 * metrics.height() + 20;
    return width;
}

int minimumWidth(QChartView* view)
{
    // The legend in one row at its smallest font, within the chart's margins.
    QFont font = view->font();
    font.setPointSizeF(font.pointSizeF() * smallestLegendScale);
    const QMargins margins = view->chart()->margins();
    return int(std::ceil(legendRowWidth(view, font))) + margins.left() + margins.right() + 2 * view->frameWidth() + 8;
}

} // namespace ChartLook
