#include "lessonexport.h"

#include "animation/animationencoder.h"
#include "base/interrupts.h"
#include "base/outputfile.h"
#include "lesson/lesson.h"
#include "redis/serversession.h"
#include "run/runcontroller.h"
#include "widgets/pictureexport.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <QPainter>
#include <QTextStream>
#include <QWidget>

namespace {
// As zsetlab's other exports (HeadlessExport): a file asked for that could not be written, and a signal.
constexpr int notWrittenExitCode = 7;
constexpr int interruptedExitCode = 130;
} // namespace

LessonExport::LessonExport(Stage stage, Job job, QObject* parent)
    : QObject(parent)
    , m_stage(std::move(stage))
    , m_job(std::move(job))
{
    m_timeout.setSingleShot(true);
    m_timeout.setInterval(m_job.timeoutMs);
    connect(&m_timeout, &QTimer::timeout, this,
            [this] { fail(tr("The lesson did not end within %1 s.").arg(m_job.timeoutMs / 1000), 1); });
}

void LessonExport::start()
{
    m_stage.window->resize(m_job.size);
    m_timeout.start();
    ServerSession* session = m_stage.session;
    connect(session, &ServerSession::failed, this, [this](const QString& message) { fail(message, 3); });
    if (session->isUsable())
        begin();
    else
        connect(session, &ServerSession::connected, this, &LessonExport::begin, Qt::SingleShotConnection);
}

QString LessonExport::pictureOf(int index) const
{
    if (m_job.step > 0)
        return m_job.png;
    return QDir(m_job.png).filePath(QStringLiteral("step-%1.png").arg(index + 1, 2, 10, QLatin1Char('0')));
}

QString LessonExport::animationOf(int index) const
{
    if (m_job.step > 0)
        return m_job.gif;
    return QDir(m_job.gif).filePath(QStringLiteral("step-%1.gif").arg(index + 1, 2, 10, QLatin1Char('0')));
}

void LessonExport::begin()
{
    if (m_done)
        return;
    Lesson* lesson = m_stage.lesson;
    const int count = lesson->stepCount();
    if (m_job.step > count)
        return fail(tr("--lesson: the lesson has %1 steps, there is no step %2.").arg(count).arg(m_job.step), 2);
    if (m_job.step > 0) {
        const int index = m_job.step - 1;
        lesson->goToStep(index);
        m_queue << index;
    } else {
        if (!m_job.png.isEmpty() && !QDir().mkpath(m_job.png))
            return fail(tr("Cannot make the folder %1.").arg(m_job.png), 1);
        if (!m_job.gif.isEmpty() && !QDir().mkpath(m_job.gif))
            return fail(tr("Cannot make the folder %1.").arg(m_job.gif), 1);
        for (int i = 0; i < count; ++i)
            m_queue << i;
    }
    m_stage.showLesson();
    runNext();
}

void LessonExport::runNext()
{
    if (m_done)
        return;
    if (m_queue.isEmpty())
        return done();
    m_current = m_queue.takeFirst();
    m_pictureCurrent = m_job.step <= 0 || m_current == m_job.step - 1;
    Lesson* lesson = m_stage.lesson;
    lesson->goToStep(m_current);
    // Let the views take the last batch and lay out before the picture.
    auto settle = [this] { QTimer::singleShot(150, this, &LessonExport::record); };
    if (!lesson->hasAction())
        return settle();
    connect(lesson, &Lesson::actionFinished, this, settle, Qt::SingleShotConnection);
    lesson->runAction();
}

void LessonExport::record()
{
    if (m_done)
        return;
    if (interrupted()) // the step's burst was stopped by the signal: not the step's run
        return interrupt();
    Lesson* lesson = m_stage.lesson;
    const RunController* runs = m_stage.runs;
    const QString named = lesson->stepLimiter();
    if (!named.isEmpty()) {
        const BurstFailure failure = runs->summary(RunController::Left).failure;
        if (failure.isFailure())
            return fail(tr("Step %1: %2").arg(m_current + 1).arg(failure.message),
                        failure.kind == BurstFailure::Kind::Connection ? 3 : 4);
    }
    if (m_pictureCurrent) {
        QString error;
        // The pictures are the stage's: what the class sees, at the export's size, its text
        // sized once for the step.
        m_textScale = stageTextScale(*lesson, m_job.size);
        const StageScene::State stage = stageState();
        if (!m_job.png.isEmpty() && !PictureExport::writeImage(picture(stage), pictureOf(m_current), &error))
            return fail(error, notWrittenExitCode);
        if (!m_job.png.isEmpty())
            m_written << pictureOf(m_current);
        // A step that fired a burst, request by request (the others show no run to animate).
        if (!m_job.gif.isEmpty() && stageRequests(*lesson) > 0) {
            if (!animate(animationOf(m_current), &error))
                return interrupted() ? interrupt()
                                     : fail(tr("Step %1: %2").arg(m_current + 1).arg(error), notWrittenExitCode);
            m_written << animationOf(m_current);
        }

        QJsonObject step;
        step[QStringLiteral("step")] = m_current + 1;
        step[QStringLiteral("title")] = lesson->stepTitle();
        step[QStringLiteral("result")] = lesson->resultText();
        if (!named.isEmpty()) {
            // What ran, as the engines say: the fix's side in a comparison.
            const auto side = runs->isCompare() ? RunController::Right : RunController::Left;
            step[QStringLiteral("strategy")] = runs->summary(side).limiter;
            QJsonArray ran;
            ran.append(runs->summary(RunController::Left).toJson());
            if (runs->isCompare() && runs->hasRun(RunController::Right))
                ran.append(runs->summary(RunController::Right).toJson());
            step[QStringLiteral("runs")] = ran;
        }
        if (!m_job.pdf.isEmpty())
            m_handout.add(handoutStep());
        // Where the stage draws the step's picture, in the picture's pixels: a writer may crop to it.
        if (stage.answered && stage.picture != Lesson::Spotlight::None) {
            StageScene scene(stage, m_job.size);
            QImage scratch(1, 1, QImage::Format_ARGB32_Premultiplied);
            QPainter painter(&scratch);
            scene.paint(&painter);
            const QRectF where = scene.pictureRect();
            QJsonObject highlight;
            highlight[QStringLiteral("x")] = qRound(where.x() * m_job.scale);
            highlight[QStringLiteral("y")] = qRound(where.y() * m_job.scale);
            highlight[QStringLiteral("width")] = qRound(where.width() * m_job.scale);
            highlight[QStringLiteral("height")] = qRound(where.height() * m_job.scale);
            step[QStringLiteral("highlight")] = highlight;
        }
        if (lesson->hasQuestion()) {
            QJsonObject question;
            question[QStringLiteral("text")] = lesson->questionText();
            if (!lesson->questionChoices().isEmpty())
                question[QStringLiteral("choices")] = QJsonArray::fromStringList(lesson->questionChoices());
            question[QStringLiteral("answer")] = lesson->answer();
            step[QStringLiteral("question")] = question;
        }
        m_steps.append(step);
    }
    runNext();
}

StageScene::State LessonExport::stageState(int cursor) const
{
    StageScene::State state = stageStateOf(*m_stage.lesson, cursor);
    state.textScale = m_textScale;
    return state;
}

QImage LessonExport::picture(const StageScene::State& state) const
{
    QImage image((QSizeF(m_job.size) * m_job.scale).toSize(), QImage::Format_RGB32);
    image.fill(StageScene::paper());
    QPainter painter(&image);
    painter.scale(m_job.scale, m_job.scale);
    StageScene scene(state, m_job.size);
    scene.paint(&painter);
    return image;
}

bool LessonExport::animate(const QString& path, QString* error) const
{
    // The stage before the class steps in, then request after request with its caption, then a
    // hold on the last; a long run is sampled to at most maxFrames requests.
    constexpr int maxFrames = 60;
    const int requests = stageRequests(*m_stage.lesson);
    const int every = std::max(1, (requests + maxFrames - 1) / maxFrames);
    QList<int> cursors {-1};
    for (int i = 0; i < requests; i += every)
        cursors << i;
    if (cursors.last() != requests - 1)
        cursors << requests - 1;
    auto frame = [this, &cursors](int index) {
        const int cursor = cursors.at(index);
        const bool edge = index == 0 || index == cursors.size() - 1;
        return AnimationFrame {picture(stageState(cursor)), edge ? 1500 : (cursors.size() > 20 ? 250 : 700)};
    };
    return AnimationEncoder::write(path, int(cursors.size()), frame, error, [](int, int) { return !interrupted(); });
}

Handout::Step LessonExport::handoutStep() const
{
    // The question page is the stage before Redis answered: the setup, the question, no guess.
    Handout::Step step;
    step.answer = stageStateOf(*m_stage.lesson);
    step.answer.textScale = stageTextScale(*m_stage.lesson, Handout::sceneSize);
    step.question = step.answer;
    step.question.answered = false;
    step.question.running = false;
    step.question.bodyHtml = m_stage.lesson->stepSetup();
    step.question.guess = -1;
    step.question.verdict.clear();
    step.question.result.clear();
    step.question.figures.clear();
    step.question.record = {};
    return step;
}

void LessonExport::done()
{
    // A signal while the last step ran (its burst stopped) or was drawn: the files of a cut
    // lesson are not the lesson's; none is left.
    if (interrupted())
        return interrupt();
    if (!m_job.pdf.isEmpty()) {
        QString error;
        if (!m_handout.write(m_job.pdf, &error))
            return fail(error, notWrittenExitCode);
        m_written << m_job.pdf;
    }
    if (!m_job.json.isEmpty()) {
        QJsonObject root;
        root[QStringLiteral("schema")] = QStringLiteral("zsetlab.lesson/1");
        root[QStringLiteral("language")] = QLocale().name().left(2);
        root[QStringLiteral("server")] = m_stage.session->server().version;
        root[QStringLiteral("steps")] = m_steps;
        QString error;
        if (!OutputFile::write(m_job.json, QJsonDocument(root).toJson(), &error))
            return fail(error, notWrittenExitCode);
        m_written << m_job.json;
    }
    m_done = true;
    m_timeout.stop();
    QTextStream(stderr) << "zsetlab: wrote " << m_written.join(QStringLiteral(", ")) << '\n';
    emit finished(0);
}

void LessonExport::interrupt()
{
    if (m_done) // written whole: the files stay
        return;
    for (const QString& written : std::as_const(m_written))
        QFile::remove(written);
    fail(tr("Interrupted: the lesson was stopped before its end; nothing was written."), interruptedExitCode);
}

void LessonExport::fail(const QString& message, int code)
{
    if (m_done)
        return;
    m_done = true;
    m_timeout.stop();
    QTextStream(stderr) << "zsetlab: " << message << '\n';
    emit finished(code);
}
