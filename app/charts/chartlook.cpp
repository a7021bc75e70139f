#include "chartlook.h"

#include "presentation.h"

#include <QAbstractAxis>
#include <QChart>
#include <QChartView>
#include <QLegend>

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
    chart->legend()->setFont(labels);
    chart->legend()->setLabelColor(text);
    return dark;
}

} // namespace ChartLook
