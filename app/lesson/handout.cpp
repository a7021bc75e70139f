#include "handout.h"

#include "base/outputfile.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QPainter>
#include <QPdfWriter>

namespace {
struct Text
{
    Q_DECLARE_TR_FUNCTIONS(Handout)
};

constexpr int dotsPerInch = 150;

Handout::Page pageOf(const StageScene::State& state, bool answer, const QString& footer)
{
    QImage scratch(1, 1, QImage::Format_ARGB32_Premultiplied);
    QPainter painter(&scratch);
    StageScene scene(state, Handout::sceneSize);
    scene.paint(&painter);
    QStringList text;
    for (const StageScene::Label& label : scene.labels())
        text << label.text;
    text << footer;
    // The step's picture is drawn once Redis answered (before, its place waits for Enter).
    return {state.step, answer, text.join(QLatin1Char('\n')),
            state.answered && state.picture != Lesson::Spotlight::None};
}
} // namespace

QString Handout::footer(const StageScene::State& state, bool answer)
{
    return answer ? Text::tr("zsetlab lesson · step %1 of %2 · the answer").arg(state.step).arg(state.steps)
                  : Text::tr("zsetlab lesson · step %1 of %2 · the question").arg(state.step).arg(state.steps);
}

QList<Handout::Page> Handout::pages() const
{
    QList<Page> pages;
    for (const Step& step : m_steps) {
        pages.append(pageOf(step.question, false, footer(step.question, false)));
        if (hasAnswerPage(step))
            pages.append(pageOf(step.answer, true, footer(step.answer, true)));
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
    writer.setPageLayout(QPageLayout(QPageSize(QPageSize::A4), QPageLayout::Landscape, QMarginsF(12, 12, 12, 12),
                                     QPageLayout::Millimeter));
    writer.setResolution(dotsPerInch);
    QPainter painter;
    if (!painter.begin(&writer)) {
        *error = Text::tr("Cannot write %1: the PDF writer did not start.").arg(path);
        return false;
    }
    const QRectF page = QRectF(QPointF(0, 0), writer.pageLayout().paintRectPixels(dotsPerInch).size());
    const double scale = std::min(page.width() / sceneSize.width(), page.height() * 0.94 / sceneSize.height());
    bool first = true;
    auto draw = [&](const StageScene::State& state, bool answer) {
        if (!first)
            writer.newPage();
        first = false;
        painter.save();
        painter.scale(scale, scale);
        StageScene scene(state, sceneSize);
        scene.paint(&painter);
        painter.setPen(QPen(Qt::gray, 1.5));
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(QRectF(QPointF(0, 0), sceneSize));
        QFont font = painter.font();
        font.setPixelSize(18);
        painter.setFont(font);
        painter.setPen(QColor(90, 90, 90));
        painter.drawText(QRectF(0, sceneSize.height() + 8, sceneSize.width(), 30), Qt::AlignRight | Qt::AlignTop,
                         footer(state, answer));
        painter.restore();
    };
    for (const Step& step : m_steps) {
        draw(step.question, false);
        if (hasAnswerPage(step))
            draw(step.answer, true);
    }
    painter.end();
    return OutputFile::write(path, file.data(), error);
}
