#include "lessonfigure.h"

#include "charts/barfigure.h"
#include "limiters/limitercatalog.h"
#include "script/codeeditor.h"
#include "script/luahighlighter.h"
#include "widgets/palette.h"

#include <QEvent>
#include <QLabel>
#include <QLocale>
#include <QRegularExpression>
#include <QStackedWidget>
#include <QVBoxLayout>

namespace {
// The four steps' marks: light enough to read the code through, on a projector too.
const QColor stepColour(255, 236, 170);
const QColor addColour(255, 205, 150); // step 2, the ZADD the lesson is about

// The colour an algorithm is drawn in, here and in Compare Algorithms alike.
QColor colourOf(const QString& algorithm)
{
    if (algorithm == QLatin1String("sliding-log"))
        return Palette::overwritten;
    if (algorithm == QLatin1String("fixed-window"))
        return Palette::blue;
    if (algorithm == QLatin1String("sliding-counter"))
        return Palette::bluishGreen;
    if (algorithm == QLatin1String("token-bucket"))
        return Palette::skyBlue;
    return Palette::reddishPurple;
}
} // namespace

LessonFigure::LessonFigure(const Lesson* lesson, QWidget* parent)
    : QWidget(parent)
    , m_lesson(lesson)
{
    setObjectName(QStringLiteral("LessonFigure"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_pages = new QStackedWidget(this);
    layout->addWidget(m_pages);

    m_scriptPage = new QWidget(m_pages);
    auto* scriptLayout = new QVBoxLayout(m_scriptPage);
    scriptLayout->setContentsMargins(0, 0, 0, 0);
    m_scriptTitle = new QLabel(m_scriptPage);
    m_scriptTitle->setWordWrap(true);
    m_script = new CodeEditor(m_scriptPage);
    m_script->setReadOnly(true);
    m_script->setObjectName(QStringLiteral("LessonScript"));
    new LuaHighlighter(m_script->document());
    scriptLayout->addWidget(m_scriptTitle);
    scriptLayout->addWidget(m_script, 1);
    m_pages->addWidget(m_scriptPage);

    m_expiry = new BarFigure(m_pages);
    m_expiry->setObjectName(QStringLiteral("ExpiryFigure"));
    m_pages->addWidget(m_expiry);
    m_price = new BarFigure(m_pages);
    m_price->setObjectName(QStringLiteral("PriceFigure"));
    m_pages->addWidget(m_price);
}

bool LessonFigure::draws(Lesson::Spotlight part)
{
    return part == Lesson::Spotlight::Script || part == Lesson::Spotlight::Expiry || part == Lesson::Spotlight::Price;
}

bool LessonFigure::showResult()
{
    switch (m_lesson->spotlight()) {
    case Lesson::Spotlight::Script:
        showScript();
        return true;
    case Lesson::Spotlight::Expiry:
        showExpiry();
        return true;
    case Lesson::Spotlight::Price:
        showPrice();
        return true;
    default:
        return false;
    }
}

QString LessonFigure::scriptForTheClass(const QString& source)
{
    // The file's comments tell what goes wrong (the header, "same millisecond, same member",
    // "1000 times longer"): the answers to steps 2, 3 and 9. The class sees the code and each
    // step's first sentence ("-- 2. Add this request."), nothing more.
    static const QRegularExpression stepComment(QStringLiteral("^(--\\s*[1-4]\\.[^.]*\\.)"));
    QStringList shown;
    bool inComment = false;
    for (const QString& line : source.split(QLatin1Char('\n'))) {
        const bool comment = line.trimmed().startsWith(QLatin1String("--"));
        if (const QRegularExpressionMatch step = stepComment.match(line); step.hasMatch()) {
            shown << step.captured(1);
            inComment = true;
        } else if (comment) {
            inComment = true; // the header, a step's further sentences
        } else {
            if (line.trimmed().isEmpty() && (inComment || shown.isEmpty() || shown.last().isEmpty()))
                continue; // no blank lines where the comments were
            shown << line;
            inComment = false;
        }
    }
    // A blank line before each step, as in the file.
    QStringList spaced;
    for (const QString& line : std::as_const(shown)) {
        if (stepComment.match(line).hasMatch() && !spaced.isEmpty() && !spaced.last().isEmpty())
            spaced << QString();
        spaced << line;
    }
    return spaced.join(QLatin1Char('\n'));
}

void LessonFigure::markScript(const QString& shown, QList<int>* steps, QList<int>* add)
{
    // "-- 1. Remove ...", its continuation comments, and the call that does it.
    static const QRegularExpression stepComment(QStringLiteral("^--\\s*[1-4]\\."));
    const QStringList lines = shown.split(QLatin1Char('\n'));
    for (int i = 0; i < lines.size(); ++i) {
        if (!stepComment.match(lines[i]).hasMatch())
            continue;
        const bool isAdd = lines[i].contains(QLatin1String("2."));
        int j = i;
        for (; j < lines.size() && !lines[j].contains(QLatin1String("redis.call")); ++j)
            *(isAdd ? add : steps) << j + 1;
        if (j < lines.size())
            *(isAdd ? add : steps) << j + 1;
    }
}

void LessonFigure::showScript()
{
    const QString source = scriptForTheClass(QString::fromUtf8(LimiterCatalog::builtin("now")->script.source()));
    if (m_script->toPlainText() != source) {
        m_script->setPlainText(source);
        QList<int> steps;
        QList<int> add;
        markScript(source, &steps, &add);
        m_marked = steps + add;
        std::sort(m_marked.begin(), m_marked.end());
        m_script->markLines(steps, stepColour);
        m_script->markLines(add, addColour);
    }
    m_scriptTitle->setText(tr("<b>lua/now.lua</b>, the article's script: its four steps marked, step 2's ZADD "
                              "darker."));
    m_pages->setCurrentWidget(m_scriptPage);
    // The header's comments above, the four steps in view.
    if (!m_marked.isEmpty())
        m_script->goToLine(std::max(1, m_marked.first() - 4));
}

void LessonFigure::showExpiry()
{
    const Lesson::Expiry expiry = m_lesson->expiry();
    const QLocale locale;
    m_expiry->setTitle(tr("The key's TTL against the window"));
    QVector<BarFigure::Bar> bars;
    bars.append(
        {tr("the window"), double(expiry.windowMs), tr("%1 ms").arg(locale.toString(expiry.windowMs)), Palette::truth});
    if (expiry.ttlMs > 0) {
        const double seconds = double(expiry.ttlMs) / 1000.0;
        bars.append(
            {tr("the key's TTL"), double(expiry.ttlMs),
             tr("%1 s (%2 min), %3 × the window")
                 .arg(locale.toString(seconds, 'f', 0), locale.toString(seconds / 60.0, 'f', 1),
                      locale.toString(double(expiry.ttlMs) / double(std::max<qint64>(expiry.windowMs, 1)), 'f', 0)),
             Palette::overwritten});
        // A command's argument, as typed: no group separator ("PEXPIRE key 1,000" reads as 1 ms).
        m_expiry->setNote(tr("PTTL read from Redis right after the request. PEXPIRE key %1 would keep it %1 ms.")
                              .arg(QString::number(expiry.windowMs)));
    } else {
        bars.append({tr("the key's TTL"), 0, expiry.ttlMs == -1 ? tr("none: the key stays") : tr("no key"),
                     Palette::overwritten});
        m_expiry->setNote(QString());
    }
    m_expiry->setBars(bars);
    m_pages->setCurrentWidget(m_expiry);
}

void LessonFigure::showPrice()
{
    const ComparisonResult& result = m_lesson->priceOfTheFix();
    const QLocale locale;
    m_price->setTitle(tr("Memory per user: MEMORY USAGE of each algorithm's key"));
    QVector<BarFigure::Bar> bars;
    QString note;
    for (const AlgorithmTally& tally : result.algorithms) {
        const double bytes = tally.memoryBytesPerKey;
        bars.append(
            {tally.id, bytes, tr("%1 bytes").arg(locale.toString(qint64(std::llround(bytes)))), colourOf(tally.id)});
        if (tally.id == QLatin1String("sliding-log") && tally.admitted > 0)
            note = tr("sliding-log: %1 members in the window, about %2 bytes each.")
                       .arg(locale.toString(tally.admitted),
                            locale.toString(qint64(std::llround(bytes / double(tally.admitted)))));
    }
    m_price->setBars(bars);
    m_price->setNote(note);
    m_pages->setCurrentWidget(m_price);
}

void LessonFigure::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange && m_lesson->hasAnswered())
        showResult();
}
