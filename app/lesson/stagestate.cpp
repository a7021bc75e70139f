// What the stage shows of a Lesson: its step, its guess, and Redis's answer as figures.
#include "lessonfigure.h"
#include "stagescene.h"

#include "limiters/limitercatalog.h"

#include <QCoreApplication>
#include <QLocale>
#include <QSet>

namespace {
struct Text
{
    Q_DECLARE_TR_FUNCTIONS(LessonStage)
};

using Figure = StageScene::Figure;

QString number(qint64 value)
{
    return QLocale().toString(value);
}

// What one run did with request i, in a few words.
QString requestDid(const LessonRecord::Run& run, int i, bool named)
{
    const LessonRecord::Request& request = run.requests.at(i);
    if (named) {
        // Two runs side by side: a few words each, so both fit under the charts.
        return request.failed ? Text::tr("%1: failed").arg(run.limiter)
                              : Text::tr("%1: counted %L2, %3")
                                    .arg(run.limiter)
                                    .arg(request.count)
                                    .arg(request.admitted ? Text::tr("admitted") : Text::tr("refused"));
    }
    QString text;
    if (request.failed) {
        text = Text::tr("failed");
    } else {
        const QString zadd = request.added == 1 ? Text::tr("ZADD replied 1 (a new member)")
            : request.added == 0                ? Text::tr("ZADD replied 0 (it overwrote a member)")
                                                : Text::tr("ZADD's reply unknown");
        text = Text::tr("%1; the script counted %L2, really in the window %L3: %4")
                   .arg(zadd)
                   .arg(request.count)
                   .arg(request.truth)
                   .arg(request.admitted ? Text::tr("admitted") : Text::tr("refused"));
    }
    return text;
}

QString captionOf(const StageScene::State& state)
{
    const auto& runs = state.record.runs;
    const int cursor = state.cursor;
    if (runs.isEmpty() || cursor < 0 || cursor >= runs.first().requests.size())
        return QString();
    const int total = int(runs.first().requests.size());
    QString head = Text::tr("Request %1 of %2").arg(cursor + 1).arg(total);
    if (state.picture == Lesson::Spotlight::Zset) {
        const LessonRecord::Request& request = runs.first().requests.at(cursor);
        return Text::tr("%1: member %2 (now = %3); %4")
            .arg(head, QString::fromUtf8(request.member), QString::number(request.now),
                 request.added == 1       ? Text::tr("ZADD replied 1 (a new member)")
                     : request.added == 0 ? Text::tr("ZADD replied 0 (it overwrote a member)")
                                          : Text::tr("ZADD's reply unknown"));
    }
    QStringList parts;
    for (const LessonRecord::Run& run : runs) {
        if (cursor < run.requests.size())
            parts << requestDid(run, cursor, runs.size() > 1);
    }
    if (runs.size() > 1 && !runs.first().requests.isEmpty())
        head += Text::tr(", %L1 really in the window").arg(runs.first().requests.at(cursor).truth);
    return Text::tr("%1: %2").arg(head, parts.join(QStringLiteral(" · ")));
}

QVector<Figure> figuresOf(const Lesson& lesson, const LessonRecord& record)
{
    QVector<Figure> figures;
    const LessonRecord::Run* first = record.runs.isEmpty() ? nullptr : &record.runs.first();
    switch (lesson.stepShows()) {
    case Lesson::Spotlight::Timeline:
    case Lesson::Spotlight::Numbers:
        if (!first)
            break;
        figures.push_back(
            {number(first->members), Text::tr("member(s) in the ZSET", nullptr, int(first->members)), -1, true});
        figures.push_back({number(first->sent), Text::tr("request(s) sent", nullptr, int(first->sent))});
        if (lesson.stepShows() == Lesson::Spotlight::Numbers) {
            QSet<int> connections;
            for (const LessonRecord::Request& request : first->requests)
                connections.insert(request.connection);
            figures.push_back(
                {number(connections.size()), Text::tr("connection(s)", nullptr, int(connections.size()))});
        }
        break;
    case Lesson::Spotlight::Counts:
    case Lesson::Spotlight::Runs:
        for (int i = 0; i < record.runs.size(); ++i) {
            const LessonRecord::Run& run = record.runs.at(i);
            const int chart = lesson.stepShows() == Lesson::Spotlight::Runs ? i : -1;
            figures.push_back({number(run.admitted), Text::tr("admitted"), chart, i == record.runs.size() - 1});
            figures.push_back({number(run.refused), Text::tr("refused"), chart});
        }
        break;
    case Lesson::Spotlight::Zset:
        if (!first)
            break;
        if (!lesson.pointedMember().isEmpty()) {
            figures.push_back(
                {number(lesson.answer()), Text::tr("request(s) wrote it", nullptr, int(lesson.answer())), -1, true});
        } else {
            QSet<qint64> nows;
            for (const LessonRecord::Request& request : first->requests)
                nows.insert(request.now);
            figures.push_back(
                {number(first->members), Text::tr("member(s) in the ZSET", nullptr, int(first->members)), -1, true});
            if (lesson.stepLimiter() == QLatin1String("microseconds"))
                figures.push_back({number(nows.size()), Text::tr("different timestamps")});
            else
                figures.push_back({number(first->sent), Text::tr("request(s) sent", nullptr, int(first->sent))});
        }
        break;
    case Lesson::Spotlight::Expiry:
        if (record.ttlMs > 0)
            figures.push_back(
                {Text::tr("%L1 s").arg(double(record.ttlMs) / 1000.0, 0, 'f', 0), Text::tr("the key's TTL"), -1, true});
        figures.push_back({Text::tr("%L1 s").arg(double(record.windowMs) / 1000.0, 0, 'f', 0), Text::tr("the window")});
        break;
    case Lesson::Spotlight::Price:
        for (const LessonRecord::Cost& cost : record.costs) {
            if (cost.algorithm != QLatin1String("sliding-log"))
                continue;
            figures.push_back({number(cost.entries), Text::tr("entries in one user's log"), -1, true});
            figures.push_back({number(qint64(std::llround(cost.bytesPerUser))), Text::tr("bytes per user")});
        }
        break;
    case Lesson::Spotlight::Script:
    case Lesson::Spotlight::None:
        break;
    }
    return figures;
}
} // namespace

StageScene::State stageStateOf(const Lesson& lesson, int cursor)
{
    StageScene::State state;
    state.step = lesson.currentStep() + 1;
    state.steps = lesson.stepCount();
    state.title = lesson.stepTitle();
    state.bodyHtml = lesson.stepBody();
    if (lesson.asksFirst() && lesson.hasQuestion()) {
        state.question = lesson.questionText();
        state.choices = lesson.questionChoices();
        state.guess = lesson.guess();
        state.verdict = lesson.guessVersusAnswer();
    }
    state.answered = lesson.hasAnswered();
    state.running = lesson.isRunning();
    state.actionLabel = lesson.actionLabel();
    state.result = lesson.resultText();
    state.picture = lesson.stepShows();
    if (state.answered) {
        state.record = lesson.record();
        state.figures = figuresOf(lesson, state.record);
        if (state.record.runs.size() > 1) {
            for (const LessonRecord::Run& run : std::as_const(state.record.runs))
                state.runTitles << run.limiter;
        }
        state.pointedMember = lesson.pointedMember();
    }
    if (state.picture == Lesson::Spotlight::Script) {
        state.script
            = LessonFigure::scriptForTheClass(QString::fromUtf8(LimiterCatalog::builtin("now")->script.source()));
        LessonFigure::markScript(state.script, &state.scriptSteps, &state.scriptAdd);
    }
    state.cursor = cursor < stageRequests(state) ? cursor : -1;
    state.caption = captionOf(state);
    return state;
}

int stageRequests(const StageScene::State& state)
{
    if (!state.answered || state.record.runs.isEmpty())
        return 0;
    return int(state.record.runs.first().requests.size());
}

int stageRequests(const Lesson& lesson)
{
    if (!lesson.hasAnswered() || lesson.record().runs.isEmpty())
        return 0;
    return int(lesson.record().runs.first().requests.size());
}

double stageTextScale(const Lesson& lesson, QSizeF size)
{
    StageScene::State before = stageStateOf(lesson);
    before.answered = false;
    before.running = false;
    before.bodyHtml = lesson.stepSetup();
    before.verdict.clear();
    before.result.clear();
    StageScene::State after = before;
    after.bodyHtml = lesson.stepExplanation();
    if (!after.question.isEmpty()) {
        // The longest verdict the step can show.
        const QString said = after.choices.isEmpty() ? QLocale().toString(qint64(10000)) : after.choices.value(0);
        after.verdict
            = QCoreApplication::translate("LessonPanel", "Class: %1 · Redis: %2 · not what the class expected")
                  .arg(said, said);
        after.guess = 0;
    }
    after.result = QStringLiteral("-");
    return StageScene::fittingScale({before, after}, size);
}
