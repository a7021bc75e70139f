#pragma once

#include <QFont>
#include <QList>

class QAbstractAxis;
class QChartView;

// The common look of zsetlab's charts, from the view's palette and font: a light or dark theme
// (high contrast is a dark palette), the window's background, text-coloured axes, titles and
// legend in the view's font, so that zooming and palettes reach every chart alike. Returns
// whether the palette is dark; the caller then sets its series' own colours (a theme change
// resets them). Axis numbers follow the language (1.000 in Vietnamese, 1,000 in English).
namespace ChartLook {
bool apply(QChartView* view, const QList<QAbstractAxis*>& axes);
// The axes' numbers in the current language's format; call on a language change too.
void localize(QChartView* view);
// Keeps the legend on one row without cutting its labels short: when the labels (longer in some
// languages, wider when zoomed) do not fit the view's width, the legend's font shrinks, down to
// 60 % of the view's (still the text size of a normal window in presenter mode). Call after apply(), on
// resize and when the labels change.
void fitLegend(QChartView* view);
// The legend shrinks its font down to this share of the chart's, no further.
constexpr qreal smallestLegendScale = 0.6;
// What the legend needs in one row with `font`.
qreal legendRowWidth(QChartView* view, const QFont& font);
// The width below which the legend would be cut even at its smallest font: the chart's minimum.
int minimumWidth(QChartView* view);
} // namespace ChartLook
