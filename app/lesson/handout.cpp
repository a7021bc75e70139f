#include "handout.h"

#include "base/outputfile.h"

#include <QAbstractTextDocumentLayout>
#include <QBuffer>
#include <QCoreApplication>
#include <QPainter>
#include <QPdfWriter>
#include <QTextDocument>

namespace {
struct Text
{
    Q_DECLARE_TR_FUNCTIONS(Handout)
};

constexpr int dotsPerInch = 150;

// A page's text, laid out to `width` pixels at the writer's resolution (its fonts measured on the
// page, not on the screen, which would print them at 96/150 of their size).
void layOut(QTextDocument* document, const QString& html, double width, QPaintDevice* page)
{
    document->documentLayout()->setPaintDevice(page);
    QFont font = document->defaultFont();
    font.setPointSizeF(12);
    document->setDefaultFont(font);
    document->setDocumentMargin(0);
    document->setHtml(html);
    document->setTextWidth(width);
}
} // namespace

QString Handout::questionHtml(const Step& step) const
{
    QString html = QStringLiteral("<p style='color:#555'>%1</p><h2>%2</h2>%3")
                       .arg(Text::tr("Step %1 of %2").arg(step.number).arg(step.count).toHtmlEscaped(),
                            step.title.toHtmlEscaped(), step.setupHtml);
    if (!step.question.isEmpty()) {
        html += QStringLiteral("<h3>%1</h3><p>%2</p>")
                    .arg(Text::tr("Before Redis answers").toHtmlEscaped(), step.question.toHtmlEscaped());
        if (!step.choices.isEmpty()) {
            // A box to tick per choice, and no list bullet beside it.
            for (const QString& choice : step.choices)
                html += QStringLiteral("<p style='margin-left:16px'>☐ %1</p>").arg(choice.toHtmlEscaped());
        } else {
            html += QStringLiteral("<p>%1 ______________</p>").arg(Text::tr("Your guess:").toHtmlEscaped());
        }
    }
    return html;
}

QString Handout::answerHtml(const Step& step) const
{
    QString html = QStringLiteral("<p style='color:#555'>%1</p><h2>%2</h2>")
                       .arg(Text::tr("Step %1 of %2 · the answer").arg(step.number).arg(step.count).toHtmlEscaped(),
                            step.title.toHtmlEscaped());
    if (!step.question.isEmpty())
        html += QStringLiteral("<p><i>%1</i></p>").arg(step.question.toHtmlEscaped());
    if (!step.result.isEmpty())
        html += QStringLiteral("<p><b>%1</b> %2</p>")
                    .arg(Text::tr("Redis answered:").toHtmlEscaped(), step.result.toHtmlEscaped());
    if (!step.guessVersusAnswer.isEmpty())
        html += QStringLiteral("<p>%1</p>").arg(step.guessVersusAnswer.toHtmlEscaped());
    html += step.explanationHtml;
    return html;
}

QList<Handout::Page> Handout::pages() const
{
    QList<Page> pages;
    for (const Step& step : m_steps) {
        QTextDocument document;
        document.setHtml(questionHtml(step));
        pages.append({step.number, false, document.toPlainText(), false});
        if (!hasAnswerPage(step))
            continue;
        document.setHtml(answerHtml(step));
        pages.append({step.number, true, document.toPlainText(), !step.picture.isNull()});
    }
    return pages;
}

bool Handout::write(const QString& path, QString* error) const
{
    // Made in memory, then written whole, only over a regular file (OutputFile).
    if (const QString refused = OutputFile::refusal(path); !refused.isEmpty()) {
        *error = refused;
        return false;
    }
    QBuffer file;
    file.open(QIODevice::WriteOnly);
    QPdfWriter writer(&file);
    writer.setTitle(Text::tr("zsetlab lesson"));
    writer.setCreator(QStringLiteral("zsetlab"));
    writer.setPageSize(QPageSize(QPageSize::A4));
    writer.setPageMargins(QMarginsF(18, 18, 18, 18), QPageLayout::Millimeter);
    writer.setResolution(dotsPerInch);
    QPainter painter;
    if (!painter.begin(&writer)) {
        *error = Text::tr("Cannot write %1: the PDF writer did not start.").arg(path);
        return false;
    }
    const QRectF page = QRectF(QPointF(0, 0), writer.pageLayout().paintRectPixels(dotsPerInch).size());
    bool first = true;
    auto drawText = [&painter, &page](const QString& html) {
        QTextDocument document;
        layOut(&document, html, page.width(), painter.device());
        QAbstractTextDocumentLayout::PaintContext context;
        context.clip = page;
        document.documentLayout()->draw(&painter, context);
        return document.size().height();
    };
    for (const Step& step : m_steps) {
        if (!first)
            writer.newPage();
        first = false;
        drawText(questionHtml(step));
        if (!hasAnswerPage(step))
            continue;
        writer.newPage();
        const double used = drawText(answerHtml(step));
        if (step.picture.isNull())
            continue;
        // The picture below the text, as large as the page allows, never enlarged past 2x.
        const QRectF room(page.left(), used + page.height() * 0.03, page.width(),
                          page.height() - used - page.height() * 0.03);
        QSizeF size = QSizeF(step.picture.size()).scaled(room.size(), Qt::KeepAspectRatio);
        if (size.width() > step.picture.width() * 2.0)
            size = QSizeF(step.picture.size()) * 2.0;
        if (size.height() < 40)
            continue;
        painter.drawImage(QRectF(room.topLeft(), size), step.picture);
        painter.setPen(QPen(Qt::gray, 1));
        painter.drawRect(QRectF(room.topLeft(), size));
    }
    painter.end();
    return OutputFile::write(path, file.data(), error);
}
