#include "stagescene.h"

#include "widgets/palette.h"

#include <QAbstractTextDocumentLayout>
#include <QCoreApplication>
#include <QFontDatabase>
#include <QFontMetricsF>
#include <QGuiApplication>
#include <QPainter>
#include <QPainterPath>
#include <QTextDocument>

namespace {
struct Text
{
    Q_DECLARE_TR_FUNCTIONS(LessonStage)
};

// The text's height in the frame: a 720-line projector reads 20 px text from the back row, and a
// larger screen gets the same text relative to its size.
constexpr double linesPerFrame = 36;
constexpr double charactersPerFrame = 64; // a narrow frame keeps about this many across
constexpr double leftShare = 0.40; // the text column's share of the width
} // namespace

StageScene::StageScene(const State& state, QSizeF size)
    : m_state(state)
    , m_size(size)
{
    m_text
        = std::max(8.0, std::min(size.height() / linesPerFrame, size.width() / charactersPerFrame) * state.textScale);
    m_margin = 1.2 * m_text;
}

QFont StageScene::font(double scale, bool bold) const
{
    QFont font = QGuiApplication::font();
    font.setPixelSize(std::max(1, qRound(m_text * scale)));
    font.setBold(bold);
    return font;
}

QFont StageScene::codeFont() const
{
    QFont font = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    font.setPixelSize(std::max(1, qRound(m_text)));
    return font;
}

void StageScene::add(Role role, const QString& text, const QRectF& rect, const QFont& font, int chart)
{
    m_labels.push_back({role, text, rect, double(font.pixelSize()), chart});
}

double StageScene::drawText(QPainter* p, Role role, const QString& text, const QRectF& rect, const QFont& font,
                            int flags, const QColor& colour, int chart)
{
    if (text.isEmpty())
        return 0;
    const QFontMetricsF metrics(font);
    const QRectF needed = metrics.boundingRect(rect, flags | Qt::TextWordWrap, text);
    if (needed.height() > rect.height() + 0.5 || needed.width() > rect.width() + 0.5) {
        m_fits = false;
        m_cut << text;
    }
    p->setFont(font);
    p->setPen(colour);
    p->drawText(rect, flags | Qt::TextWordWrap, text);
    add(role, text, needed.intersected(rect.adjusted(-1, -1, 1, 1)), font, chart);
    return needed.height();
}

double StageScene::drawRichText(QPainter* p, const QString& html, const QRectF& rect)
{
    QTextDocument document;
    document.setDefaultFont(font());
    document.setDocumentMargin(0);
    document.setDefaultStyleSheet(
        QStringLiteral("code { font-family: monospace; } p { margin-bottom: %1px; }").arg(qRound(m_text * 0.5)));
    document.setHtml(html);
    document.setTextWidth(rect.width());
    const double height = document.size().height();
    if (height > rect.height() + 0.5) {
        m_fits = false;
        m_cut << document.toPlainText().left(60);
    }
    p->save();
    p->translate(rect.topLeft());
    p->setClipRect(QRectF(QPointF(0, 0), rect.size()));
    QAbstractTextDocumentLayout::PaintContext context;
    context.palette.setColor(QPalette::Text, ink());
    context.clip = QRectF(QPointF(0, 0), rect.size());
    document.documentLayout()->draw(p, context);
    p->restore();
    add(Role::Body, document.toPlainText(),
        QRectF(rect.topLeft(), QSizeF(rect.width(), std::min(height, rect.height()))), font());
    return height;
}

void StageScene::paint(QPainter* painter)
{
    m_labels.clear();
    m_charts = 0;
    m_fits = true;
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setRenderHint(QPainter::TextAntialiasing);
    painter->fillRect(QRectF(QPointF(0, 0), m_size), paper());

    // The title across the top, the step's number before it.
    const QRectF top(m_margin, m_margin * 0.6, m_size.width() - 2 * m_margin, m_text * 1.6);
    const QString counter = Text::tr("Step %1 of %2").arg(m_state.step).arg(m_state.steps);
    const QFont counterFont = font(0.9);
    const double counterWidth = QFontMetricsF(counterFont).horizontalAdvance(counter) + m_text;
    drawText(painter, Role::Counter, counter, QRectF(top.left(), top.top() + m_text * 0.25, counterWidth, top.height()),
             counterFont, Qt::AlignLeft | Qt::AlignTop, Palette::grey.darker(130));
    drawText(painter, Role::Title, m_state.title,
             QRectF(top.left() + counterWidth, top.top(), top.width() - counterWidth, top.height()), font(1.3, true));
    painter->setPen(QPen(Palette::grey.lighter(140), std::max(1.0, m_text / 12)));
    painter->drawLine(QPointF(m_margin, top.bottom() + m_text * 0.3),
                      QPointF(top.right(), top.bottom() + m_text * 0.3));

    const double bodyTop = top.bottom() + m_text * 0.9;
    const double split = m_size.width() * leftShare;
    drawLeft(painter, QRectF(m_margin, bodyTop, split - 1.5 * m_margin, m_size.height() - bodyTop - m_margin * 0.6));
    drawRight(painter,
              QRectF(split, bodyTop, m_size.width() - split - m_margin, m_size.height() - bodyTop - m_margin * 0.6));
    painter->restore();
}

void StageScene::drawLeft(QPainter* p, QRectF rect)
{
    // From the bottom up: the verdict, the guess and the question keep their room; the text
    // takes what is left.
    double bottom = rect.bottom();
    const double line = QFontMetricsF(font()).lineSpacing();
    if (!m_state.verdict.isEmpty()) {
        const QFont verdictFont = font(1.0, true);
        const double height = QFontMetricsF(verdictFont)
                                  .boundingRect(QRectF(0, 0, rect.width(), 1e6), Qt::TextWordWrap, m_state.verdict)
                                  .height();
        drawText(p, Role::Verdict, m_state.verdict, QRectF(rect.left(), bottom - height, rect.width(), height),
                 verdictFont);
        bottom -= height + line * 0.6;
    }
    if (!m_state.question.isEmpty()) {
        QStringList guessLines;
        if (m_state.choices.isEmpty()) {
            guessLines << (m_state.guess >= 0 ? Text::tr("Class's guess: %L1").arg(m_state.guess)
                                              : Text::tr("Class's guess: type a number"));
        } else {
            for (int i = 0; i < m_state.choices.size(); ++i)
                guessLines << QStringLiteral("%1   %2").arg(i + 1).arg(m_state.choices.at(i));
        }
        // The guess lines, bottom up.
        const double rowHeight = line * 1.25;
        const double guessHeight = rowHeight * guessLines.size();
        double y = bottom - guessHeight;
        for (int i = 0; i < guessLines.size(); ++i) {
            const QRectF row(rect.left(), y + i * rowHeight, rect.width(), rowHeight);
            const bool chosen = !m_state.choices.isEmpty() && m_state.guess == i;
            if (chosen || m_state.choices.isEmpty()) {
                p->setPen(QPen(chosen ? Palette::blue : Palette::grey, std::max(1.0, m_text / 8)));
                p->setBrush(chosen
                                ? QBrush(QColor(Palette::blue.red(), Palette::blue.green(), Palette::blue.blue(), 40))
                                : QBrush(Qt::NoBrush));
                p->drawRoundedRect(row.adjusted(0, line * 0.08, 0, -line * 0.08), m_text * 0.3, m_text * 0.3);
            }
            drawText(p, m_state.choices.isEmpty() ? Role::Guess : Role::Choice, guessLines.at(i),
                     row.adjusted(m_text * 0.5, 0, -m_text * 0.5, 0), font(1.0, chosen),
                     Qt::AlignLeft | Qt::AlignVCenter);
        }
        bottom = y - line * 0.4;
        const QFont questionFont = font(1.0, true);
        const double height = QFontMetricsF(questionFont)
                                  .boundingRect(QRectF(0, 0, rect.width(), 1e6), Qt::TextWordWrap, m_state.question)
                                  .height();
        drawText(p, Role::Question, m_state.question, QRectF(rect.left(), bottom - height, rect.width(), height),
                 questionFont, Qt::AlignLeft | Qt::AlignTop, Palette::blue.darker(140));
        bottom -= height + line * 0.8;
    }
    drawRichText(p, m_state.bodyHtml, QRectF(rect.left(), rect.top(), rect.width(), bottom - rect.top()));
}

void StageScene::drawRight(QPainter* p, QRectF rect)
{
    // Under the picture: the request looked at, or the result line.
    const QString under = m_state.cursor >= 0 && !m_state.caption.isEmpty() ? m_state.caption : m_state.result;
    const QFont underFont = font();
    // Two lines at least, so the picture does not jump as the class steps through the run; more
    // when the line needs them.
    const double underHeight = std::max(
        QFontMetricsF(underFont).lineSpacing() * 2.2,
        QFontMetricsF(underFont).boundingRect(QRectF(0, 0, rect.width(), 1e6), Qt::TextWordWrap, under).height() + 2);
    if (m_state.answered || m_state.running || !m_state.result.isEmpty()) {
        drawText(p, under == m_state.caption && m_state.cursor >= 0 ? Role::Caption : Role::Result, under,
                 QRectF(rect.left(), rect.bottom() - underHeight, rect.width(), underHeight), underFont,
                 Qt::AlignLeft | Qt::AlignBottom);
    }
    const QRectF picture(rect.left(), rect.top(), rect.width(), rect.height() - underHeight - m_text * 0.4);
    m_pictureRect = picture;
    if (!m_state.answered) {
        drawWaiting(p, picture);
        return;
    }
    drawPicture(p, picture);
}

void StageScene::drawWaiting(QPainter* p, const QRectF& rect)
{
    p->setPen(QPen(Palette::grey, std::max(1.0, m_text / 10), Qt::DashLine));
    p->setBrush(Qt::NoBrush);
    p->drawRoundedRect(rect, m_text * 0.6, m_text * 0.6);
    if (m_state.actionLabel.isEmpty())
        return;
    const QString text
        = m_state.running ? Text::tr("Redis is answering…") : Text::tr("Press Enter: %1").arg(m_state.actionLabel);
    drawText(p, Role::Action, text, rect.adjusted(m_text * 2, m_text * 2, -m_text * 2, -m_text * 2), font(1.1),
             Qt::AlignCenter, Palette::grey.darker(150));
}

double StageScene::drawFigures(QPainter* p, const QRectF& rect, int chart)
{
    const QFont valueFont = font(2.0, true);
    const QFont captionFont = font();
    const double rowHeight = QFontMetricsF(valueFont).height();
    const double captionHeight = QFontMetricsF(captionFont).height();
    double x = rect.left();
    double y = rect.top();
    double height = 0;
    for (const Figure& figure : std::as_const(m_state.figures)) {
        if (figure.chart != chart)
            continue;
        const double valueWidth = QFontMetricsF(valueFont).horizontalAdvance(figure.value) + 1;
        const double captionWidth = QFontMetricsF(captionFont).horizontalAdvance(figure.caption) + 2;
        const double width = valueWidth + captionWidth + m_text * 0.35;
        if (x + width > rect.right() + 0.5 && x > rect.left()) {
            x = rect.left(); // a longer language: the next figure on a line of its own
            y += rowHeight;
        }
        const QColor colour = figure.attention ? Palette::vermillion.darker(115) : ink();
        drawText(p, Role::Figure, figure.value, QRectF(x, y, valueWidth, rowHeight), valueFont,
                 Qt::AlignLeft | Qt::AlignBottom, colour);
        drawText(
            p, Role::Figure, figure.caption,
            QRectF(x + valueWidth + m_text * 0.35, y + rowHeight - captionHeight * 1.15, captionWidth, captionHeight),
            captionFont, Qt::AlignLeft | Qt::AlignTop, colour);
        x += width + m_text * 1.5;
        height = y + rowHeight - rect.top();
    }
    return height > 0 ? height + m_text * 0.4 : 0;
}

double StageScene::fittingScale(QList<State> states, QSizeF size)
{
    QImage scratch(1, 1, QImage::Format_ARGB32_Premultiplied);
    for (const double scale : {1.0, 0.92, 0.85, 0.78, 0.72, 0.66, 0.6}) {
        bool all = true;
        for (State& state : states) {
            state.textScale = scale;
            StageScene scene(state, size);
            QPainter painter(&scratch);
            scene.paint(&painter);
            all = all && scene.fits();
        }
        if (all)
            return scale;
    }
    return 0.6;
}
