// The pictures of the lesson's stage: the counts chart, the ZSET's members, bars, the script.
#include "stagescene.h"

#include "widgets/palette.h"

#include <QCoreApplication>
#include <QFontMetricsF>
#include <QHash>
#include <QLocale>
#include <QPainter>
#include <QPainterPath>

#include <cmath>
#include <limits>

namespace {
struct Text
{
    Q_DECLARE_TR_FUNCTIONS(LessonStage)
};

// Steps of 1, 2 or 5 times a power of ten, at most `most` of them up to `top`.
double niceStep(double top, int most)
{
    most = std::max(1, most);
    const double raw = std::max(top, 1.0) / most;
    const double power = std::pow(10.0, std::floor(std::log10(raw)));
    for (const double factor : {1.0, 2.0, 5.0, 10.0}) {
        if (factor * power >= raw)
            return std::max(1.0, factor * power);
    }
    return std::max(1.0, 10 * power);
}

enum class Mark { Square, Diamond, Cross, Ring, Line, DashedLine };

void drawMark(QPainter* p, Mark mark, QPointF at, double size, const QColor& colour)
{
    const double h = size / 2;
    p->save();
    switch (mark) {
    case Mark::Square:
        p->setPen(Qt::NoPen);
        p->setBrush(colour);
        p->drawRect(QRectF(at.x() - h, at.y() - h, size, size));
        break;
    case Mark::Diamond: {
        QPainterPath path;
        path.moveTo(at.x(), at.y() - h * 1.2);
        path.lineTo(at.x() + h * 1.2, at.y());
        path.lineTo(at.x(), at.y() + h * 1.2);
        path.lineTo(at.x() - h * 1.2, at.y());
        path.closeSubpath();
        p->setPen(QPen(colour, std::max(1.5, size / 5)));
        p->setBrush(Qt::white);
        p->drawPath(path);
        break;
    }
    case Mark::Cross:
        p->setPen(QPen(colour, std::max(2.0, size / 4), Qt::SolidLine, Qt::RoundCap));
        p->drawLine(QPointF(at.x() - h, at.y() - h), QPointF(at.x() + h, at.y() + h));
        p->drawLine(QPointF(at.x() - h, at.y() + h), QPointF(at.x() + h, at.y() - h));
        break;
    case Mark::Ring:
        p->setPen(QPen(colour, std::max(2.0, size / 5)));
        p->setBrush(Qt::NoBrush);
        p->drawEllipse(at, h * 1.3, h * 1.3);
        break;
    case Mark::Line:
    case Mark::DashedLine:
        p->setPen(QPen(colour, std::max(2.0, size / 4), mark == Mark::Line ? Qt::SolidLine : Qt::DashLine));
        p->drawLine(QPointF(at.x() - size, at.y()), QPointF(at.x() + size, at.y()));
        break;
    }
    p->restore();
}

const QColor refusedColour {30, 30, 30};

// A request as the legend names it: refused, or admitted with a new member or over an old one.
void drawRequest(QPainter* p, const LessonRecord::Request& request, QPointF at, double size)
{
    if (!request.admitted)
        drawMark(p, Mark::Cross, at, size, refusedColour);
    else if (request.added == 0)
        drawMark(p, Mark::Diamond, at, size, Palette::overwritten);
    else
        drawMark(p, Mark::Square, at, size, Palette::stored);
}
} // namespace

void StageScene::drawPicture(QPainter* p, const QRectF& rect)
{
    switch (m_state.picture) {
    case Lesson::Spotlight::Timeline:
        if (!m_state.record.runs.isEmpty())
            drawTimeline(p, rect, m_state.record.runs.first());
        return;
    case Lesson::Spotlight::Numbers:
    case Lesson::Spotlight::Counts:
    case Lesson::Spotlight::Runs: {
        const auto& runs = m_state.record.runs;
        if (runs.isEmpty())
            return;
        const double gap = m_text * 1.5;
        const double width = (rect.width() - gap * (runs.size() - 1)) / runs.size();
        for (int i = 0; i < runs.size(); ++i)
            drawCounts(p, QRectF(rect.left() + i * (width + gap), rect.top(), width, rect.height()), runs.at(i), i);
        return;
    }
    case Lesson::Spotlight::Zset:
        drawMembers(p, rect);
        return;
    case Lesson::Spotlight::Expiry:
    case Lesson::Spotlight::Price:
        drawBars(p, rect);
        return;
    case Lesson::Spotlight::Script:
        drawScript(p, rect);
        return;
    case Lesson::Spotlight::None:
        return;
    }
}

double StageScene::drawLegend(QPainter* p, const QRectF& rect, const LessonRecord::Run& run, int chart, bool counts)
{
    bool anyNew = false, anyOverwrote = false, anyRefused = false, anyBeyond = false;
    for (const LessonRecord::Request& request : run.requests) {
        anyNew = anyNew || (!request.failed && request.admitted && request.added == 1);
        anyOverwrote = anyOverwrote || (!request.failed && request.admitted && request.added == 0);
        anyRefused = anyRefused || (!request.failed && !request.admitted);
        anyBeyond = anyBeyond || (request.admitted && run.limit > 0 && request.truth > run.limit);
    }
    struct Entry
    {
        Mark mark;
        QColor colour;
        QString text;
    };
    QVector<Entry> entries;
    if (counts) {
        entries.push_back({Mark::Line, Palette::truth, Text::tr("really in the window")});
        entries.push_back({Mark::Line, Palette::counted, Text::tr("counted by the script")});
    }
    if (run.limit > 0)
        entries.push_back({Mark::DashedLine, Palette::limit, Text::tr("limit %L1").arg(run.limit)});
    if (anyNew)
        entries.push_back({Mark::Square, Palette::stored, Text::tr("new member (ZADD 1)")});
    if (anyOverwrote)
        entries.push_back({Mark::Diamond, Palette::overwritten, Text::tr("overwrote one (ZADD 0)")});
    if (anyRefused)
        entries.push_back({Mark::Cross, refusedColour, Text::tr("refused")});
    if (anyBeyond)
        entries.push_back({Mark::Ring, Palette::beyondLimit, Text::tr("admitted beyond the limit")});

    const QFont legendFont = font();
    const QFontMetricsF metrics(legendFont);
    const double rowHeight = metrics.lineSpacing() * 1.1;
    const double markWidth = m_text * 2.0;
    double x = rect.left();
    double y = rect.top();
    for (const Entry& entry : std::as_const(entries)) {
        const double width = markWidth + metrics.horizontalAdvance(entry.text) + m_text;
        if (x > rect.left() && x + width > rect.right()) {
            x = rect.left();
            y += rowHeight;
        }
        drawMark(p, entry.mark, QPointF(x + markWidth / 2 - m_text * 0.2, y + rowHeight / 2), m_text * 0.6,
                 entry.colour);
        const QRectF textRect(x + markWidth, y, std::min(width - markWidth, rect.right() - x - markWidth), rowHeight);
        drawText(p, Role::Legend, entry.text, textRect, legendFont, Qt::AlignLeft | Qt::AlignVCenter, ink(), chart);
        x += width;
    }
    return y + rowHeight - rect.top();
}

StageScene::Plot StageScene::drawAxes(QPainter* p, const QRectF& rect, const Axis& x, const Axis& y, int chart)
{
    const QFont tickFont = font();
    const QFontMetricsF metrics(tickFont);
    const double line = metrics.lineSpacing();
    // y: its numbers from 0 in whole steps, as many as the height has room for.
    const double yRoom = rect.height() - line * 2.8;
    const double yStep = niceStep(y.max, std::max(1, int(yRoom / (line * 1.6))));
    Plot plot;
    plot.y = {0, std::ceil(std::max(y.max, 1.0) / yStep) * yStep, 0, y.title};
    plot.x = x;
    double tickWidth = 0;
    for (double v = 0; v <= plot.y.max + 0.5; v += yStep)
        tickWidth = std::max(tickWidth, metrics.horizontalAdvance(QLocale().toString(qint64(v))));
    QRectF area(rect.left() + line * 1.2 + tickWidth + m_text * 0.5, rect.top() + line * 0.5, 0, 0);
    area.setRight(rect.right() - m_text * 0.8);
    area.setBottom(rect.bottom() - line * 2.3);
    if (area.height() < line * 3 || area.width() < m_text * 6) {
        m_fits = false;
        return plot;
    }
    plot.area = area;

    // Grid and numbers.
    for (double v = 0; v <= plot.y.max + 0.5; v += yStep) {
        p->setPen(QPen(Palette::grey.lighter(150), std::max(1.0, m_text / 16)));
        p->drawLine(QPointF(area.left(), plot.yAt(v)), QPointF(area.right(), plot.yAt(v)));
        drawText(p, Role::Tick, QLocale().toString(qint64(v)),
                 QRectF(area.left() - tickWidth - m_text * 0.4, plot.yAt(v) - line / 2, tickWidth, line), tickFont,
                 Qt::AlignRight | Qt::AlignVCenter, ink(), chart);
    }
    // x: whole numbers from its first tick, as many as fit side by side.
    const double widest = metrics.horizontalAdvance(QLocale().toString(qint64(x.max))) + m_text;
    const double xStep = niceStep(x.max - x.firstTick, std::max(1, int(area.width() / (widest * 1.5))));
    QList<double> xTicks {x.firstTick};
    for (double v = xStep; v <= x.max + 0.001; v += xStep)
        if (v > x.firstTick)
            xTicks << v;
    for (const double v : std::as_const(xTicks)) {
        const QString number = QLocale().toString(qint64(v));
        const double width = metrics.horizontalAdvance(number) + 2;
        drawText(p, Role::Tick, number, QRectF(plot.xAt(v) - width / 2, area.bottom() + line * 0.15, width, line),
                 tickFont, Qt::AlignHCenter | Qt::AlignTop, ink(), chart);
    }
    p->setPen(QPen(ink(), std::max(1.0, m_text / 10)));
    p->drawLine(area.bottomLeft(), area.bottomRight());
    p->drawLine(area.bottomLeft(), area.topLeft());
    drawText(p, Role::AxisTitle, x.title, QRectF(area.left(), area.bottom() + line * 1.15, area.width(), line * 1.1),
             tickFont, Qt::AlignHCenter | Qt::AlignTop, ink(), chart);
    // The y title, turned along the axis, left of the numbers.
    const double length = metrics.horizontalAdvance(y.title) + 2;
    if (length > area.height())
        m_fits = false;
    p->save();
    p->translate(rect.left(), area.center().y() + length / 2);
    p->rotate(-90);
    p->setFont(tickFont);
    p->setPen(ink());
    p->drawText(QRectF(0, 0, length, line), Qt::AlignLeft | Qt::AlignTop, y.title);
    p->restore();
    add(Role::AxisTitle, y.title, QRectF(rect.left(), area.center().y() - length / 2, line, length), tickFont, chart);
    return plot;
}

void StageScene::drawCounts(QPainter* p, const QRectF& rect, const LessonRecord::Run& run, int chart)
{
    ++m_charts;
    double top = rect.top();
    if (chart < m_state.runTitles.size()) {
        const QFont titleFont = font(1.0, true);
        top += drawText(p, Role::FigureTitle, m_state.runTitles.at(chart),
                        QRectF(rect.left(), top, rect.width(), QFontMetricsF(titleFont).lineSpacing() * 1.1),
                        titleFont);
    }
    top += drawFigures(p, QRectF(rect.left(), top, rect.width(), m_text * 3),
                       m_state.record.runs.size() > 1 ? chart : -1);
    top += drawLegend(p, QRectF(rect.left(), top, rect.width(), rect.bottom() - top), run, chart, true) + m_text * 0.5;

    const int n = int(run.requests.size());
    qint64 highest = std::max<qint64>(run.limit, 1);
    for (const LessonRecord::Request& request : run.requests)
        highest = std::max({highest, request.truth, request.count});
    const Plot plot
        = drawAxes(p, QRectF(rect.left(), top, rect.width(), rect.bottom() - top),
                   {n <= 1 ? 0.0 : 1.0, n <= 1 ? 2.0 : double(n), 1, Text::tr("request, in the order sent")},
                   {0, double(highest), 0, Text::tr("requests")}, chart);
    if (plot.area.isEmpty())
        return;
    auto xAt = [&plot](double request) { return plot.xAt(request); };
    auto yAt = [&plot](double value) { return plot.yAt(value); };

    // The limit, the truth and the count.
    const double mark = std::clamp(plot.area.width() / std::max(n, 1) * 0.7, m_text * 0.25, m_text * 0.65);
    if (run.limit > 0) {
        p->setPen(QPen(Palette::limit, std::max(2.0, m_text / 7), Qt::DashLine));
        p->drawLine(QPointF(plot.area.left(), yAt(double(run.limit))),
                    QPointF(plot.area.right(), yAt(double(run.limit))));
    }
    QPolygonF truth;
    QPolygonF counted;
    for (int i = 0; i < n; ++i) {
        const LessonRecord::Request& request = run.requests.at(i);
        if (request.truth >= 0)
            truth << QPointF(xAt(i + 1), yAt(double(request.truth)));
        if (!request.failed && request.count >= 0)
            counted << QPointF(xAt(i + 1), yAt(double(request.count)));
    }
    p->setBrush(Qt::NoBrush);
    // The truth wide and under the count: where both agree, both stay in sight.
    p->setPen(QPen(Palette::truth, std::max(4.0, m_text / 2.5), Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
    p->drawPolyline(truth);
    p->setPen(QPen(Palette::counted, std::max(2.0, m_text / 7), Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
    p->drawPolyline(counted);
    for (int i = 0; i < n; ++i) {
        const LessonRecord::Request& request = run.requests.at(i);
        if (request.failed || request.count < 0)
            continue;
        const QPointF at(xAt(i + 1), yAt(double(request.count)));
        drawRequest(p, request, at, mark);
        if (request.admitted && run.limit > 0 && request.truth > run.limit)
            drawMark(p, Mark::Ring, QPointF(at.x(), yAt(double(run.limit))), mark, Palette::beyondLimit);
    }
    // The request the class looks at.
    if (m_state.cursor >= 0 && m_state.cursor < n) {
        p->setPen(QPen(Palette::attention, std::max(3.0, m_text / 5)));
        p->drawLine(QPointF(xAt(m_state.cursor + 1), plot.area.top()),
                    QPointF(xAt(m_state.cursor + 1), plot.area.bottom()));
    }
}

void StageScene::drawTimeline(QPainter* p, const QRectF& rect, const LessonRecord::Run& run)
{
    ++m_charts;
    double top = rect.top() + drawFigures(p, QRectF(rect.left(), rect.top(), rect.width(), m_text * 3), -1);
    top += drawLegend(p, QRectF(rect.left(), top, rect.width(), rect.bottom() - top), run, 0, false) + m_text * 0.5;
    // Each request in its millisecond, stacked in the order sent.
    qint64 first = std::numeric_limits<qint64>::max();
    qint64 last = std::numeric_limits<qint64>::min();
    for (const LessonRecord::Request& request : run.requests) {
        first = std::min(first, request.now);
        last = std::max(last, request.now);
    }
    if (run.requests.isEmpty())
        return;
    QHash<qint64, int> stacked;
    QVector<QPointF> at; // (ms, height) per request
    int highest = 1;
    for (const LessonRecord::Request& request : run.requests) {
        const int height = ++stacked[request.now];
        highest = std::max(highest, height);
        at.push_back(QPointF(double(request.now - first) + 0.5, height));
    }
    const Plot plot = drawAxes(p, QRectF(rect.left(), top, rect.width(), rect.bottom() - top),
                               {0, double(last - first + 1), 0, Text::tr("ms since the first request")},
                               {0, double(highest), 0, Text::tr("requests in the millisecond")}, 0);
    if (plot.area.isEmpty())
        return;
    const double mark = std::min(m_text * 0.9, plot.area.height() / (plot.y.max + 1) * 0.8);
    for (int i = 0; i < run.requests.size(); ++i) {
        const LessonRecord::Request& request = run.requests.at(i);
        const QPointF point(plot.xAt(at.at(i).x()), plot.yAt(at.at(i).y()));
        if (request.failed)
            continue;
        drawRequest(p, request, point, mark);
        if (i == m_state.cursor) {
            p->setPen(QPen(Palette::attention, std::max(3.0, m_text / 5)));
            p->setBrush(Qt::NoBrush);
            p->drawEllipse(point, mark, mark);
        }
    }
}

void StageScene::drawMembers(QPainter* p, const QRectF& rect)
{
    double top = rect.top() + drawFigures(p, QRectF(rect.left(), rect.top(), rect.width(), m_text * 3), -1);
    const QFont headerFont = font(1.0, true);
    const QFont cellFont = codeFont();
    const QFontMetricsF metrics(cellFont);
    const double row = std::max(metrics.lineSpacing(), QFontMetricsF(headerFont).lineSpacing()) * 1.3;
    const auto& members = m_state.record.members;
    QByteArray looked = m_state.pointedMember;
    if (m_state.cursor >= 0 && !m_state.record.runs.isEmpty()
        && m_state.cursor < m_state.record.runs.first().requests.size())
        looked = m_state.record.runs.first().requests.at(m_state.cursor).member;

    const QStringList headers {Text::tr("member"), Text::tr("score"), Text::tr("written by")};
    double scoreWidth = QFontMetricsF(headerFont).horizontalAdvance(headers.at(1));
    double writesWidth = QFontMetricsF(headerFont).horizontalAdvance(headers.at(2));
    for (const LessonRecord::Member& member : members) {
        scoreWidth = std::max(scoreWidth, metrics.horizontalAdvance(QString::number(member.score)));
        writesWidth = std::max(writesWidth, metrics.horizontalAdvance(QLocale().toString(member.writes)));
    }
    const double pad = m_text * 0.6;
    const double writesLeft = rect.right() - writesWidth - pad;
    const double scoreLeft = writesLeft - scoreWidth - 2 * pad;
    const double memberLeft = rect.left() + pad;
    const double columns[] = {memberLeft, scoreLeft, writesLeft};
    const double widths[] = {scoreLeft - memberLeft - pad, scoreWidth, writesWidth};
    for (int c = 0; c < 3; ++c) {
        drawText(p, Role::TableHeader, headers.at(c), QRectF(columns[c], top, widths[c] + 1, row), headerFont,
                 (c == 0 ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignVCenter);
    }
    top += row;
    p->setPen(QPen(ink(), std::max(1.0, m_text / 10)));
    p->drawLine(QPointF(rect.left(), top), QPointF(rect.right(), top));
    const double room = rect.bottom() - top;
    int shown = int(members.size());
    if (shown * row > room)
        shown = std::max(0, int(room / row) - 1); // a last row says how many more
    for (int i = 0; i < shown; ++i) {
        const LessonRecord::Member& member = members.at(i);
        const QRectF line(rect.left(), top + i * row, rect.width(), row);
        if (!looked.isEmpty() && member.member == looked)
            p->fillRect(line,
                        QColor(Palette::attention.red(), Palette::attention.green(), Palette::attention.blue(), 90));
        else if (i % 2)
            p->fillRect(line, QColor(0, 0, 0, 12));
        const QString cells[]
            = {QString::fromUtf8(member.member), QString::number(member.score), QLocale().toString(member.writes)};
        for (int c = 0; c < 3; ++c) {
            const QString cell = c == 0 ? metrics.elidedText(cells[c], Qt::ElideMiddle, widths[c]) : cells[c];
            drawText(p, Role::TableCell, cell, QRectF(columns[c], line.top(), widths[c] + 1, row), cellFont,
                     (c == 0 ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignVCenter);
        }
    }
    if (shown < members.size()) {
        drawText(p, Role::TableCell, Text::tr("… and %Ln more member(s)", nullptr, int(members.size() - shown)),
                 QRectF(memberLeft, top + shown * row, rect.width() - 2 * pad, row), font(),
                 Qt::AlignLeft | Qt::AlignVCenter, Palette::grey.darker(140));
    }
}

void StageScene::drawBars(QPainter* p, const QRectF& rect)
{
    struct Bar
    {
        QString label;
        double value;
        QString text;
        QColor colour;
    };
    QVector<Bar> bars;
    QString title;
    const LessonRecord& record = m_state.record;
    if (m_state.picture == Lesson::Spotlight::Expiry) {
        title = Text::tr("How long an idle key stays, against the window");
        bars.push_back({Text::tr("the window"), double(record.windowMs),
                        Text::tr("%L1 s").arg(double(record.windowMs) / 1000.0, 0, 'f', 0), Palette::truth});
        if (record.ttlMs > 0)
            bars.push_back({Text::tr("the key's TTL"), double(record.ttlMs),
                            Text::tr("%L1 s").arg(double(record.ttlMs) / 1000.0, 0, 'f', 0), Palette::vermillion});
    } else {
        title = Text::tr("Memory per user, bytes");
        for (const LessonRecord::Cost& cost : record.costs)
            bars.push_back({cost.algorithm, std::max(0.0, cost.bytesPerUser),
                            QLocale().toString(qint64(std::llround(std::max(0.0, cost.bytesPerUser)))),
                            cost.algorithm == QLatin1String("sliding-log") ? Palette::blue : Palette::grey});
    }
    double top = rect.top() + drawFigures(p, QRectF(rect.left(), rect.top(), rect.width(), m_text * 3), -1);
    top += drawText(p, Role::FigureTitle, title, QRectF(rect.left(), top, rect.width(), m_text * 3), font(1.0, true))
        + m_text * 0.6;
    const QFont labelFont = font();
    const QFontMetricsF metrics(labelFont);
    double labelWidth = 0;
    double valueWidth = 0;
    double most = 1;
    for (const Bar& bar : std::as_const(bars)) {
        labelWidth = std::max(labelWidth, metrics.horizontalAdvance(bar.label));
        valueWidth = std::max(valueWidth, metrics.horizontalAdvance(bar.text));
        most = std::max(most, bar.value);
    }
    const double row
        = std::min(metrics.lineSpacing() * 2.0, (rect.bottom() - top) / std::max<qsizetype>(bars.size(), 1));
    const double barsLeft = rect.left() + labelWidth + m_text;
    const double barsRight = rect.right() - valueWidth - m_text;
    for (int i = 0; i < bars.size(); ++i) {
        const Bar& bar = bars.at(i);
        const double y = top + i * row;
        drawText(p, Role::BarLabel, bar.label, QRectF(rect.left(), y, labelWidth + 1, row), labelFont,
                 Qt::AlignRight | Qt::AlignVCenter);
        const double length = std::max(2.0, (barsRight - barsLeft) * bar.value / most);
        p->fillRect(QRectF(barsLeft, y + row * 0.2, length, row * 0.6), bar.colour);
        drawText(p, Role::BarValue, bar.text, QRectF(barsLeft + length + m_text * 0.4, y, valueWidth + 1, row),
                 labelFont, Qt::AlignLeft | Qt::AlignVCenter);
    }
}

void StageScene::drawScript(QPainter* p, const QRectF& rect)
{
    const QFont code = codeFont();
    const QFontMetricsF metrics(code);
    const QStringList lines = m_state.script.split(QLatin1Char('\n'));
    const double line = metrics.lineSpacing();
    double top = rect.top();
    top += drawText(p, Role::FigureTitle, Text::tr("lua/now.lua, the article's script"),
                    QRectF(rect.left(), top, rect.width(), line * 1.3), font(1.0, true))
        + m_text * 0.3;
    if (top + lines.size() * line > rect.bottom() + 0.5)
        m_fits = false;
    p->fillRect(
        QRectF(rect.left(), top, rect.width(), std::min(lines.size() * line + m_text * 0.6, rect.bottom() - top)),
        QColor(245, 245, 245));
    top += m_text * 0.3;
    for (int i = 0; i < lines.size(); ++i) {
        const QRectF row(rect.left(), top + i * line, rect.width(), line);
        if (row.bottom() > rect.bottom() + 0.5)
            break;
        const int number = i + 1;
        if (m_state.scriptAdd.contains(number))
            p->fillRect(row,
                        QColor(Palette::attention.red(), Palette::attention.green(), Palette::attention.blue(), 110));
        else if (m_state.scriptSteps.contains(number))
            p->fillRect(row, QColor(Palette::skyBlue.red(), Palette::skyBlue.green(), Palette::skyBlue.blue(), 70));
        drawText(p, Role::Code, lines.at(i), row.adjusted(m_text * 0.5, 0, -m_text * 0.3, 0), code,
                 Qt::AlignLeft | Qt::AlignVCenter);
    }
}
