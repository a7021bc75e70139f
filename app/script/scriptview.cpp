#include "scriptview.h"

#include "codeeditor.h"
#include "luahighlighter.h"

#include <QComboBox>
#include <QEvent>
#include <QGridLayout>
#include <QLabel>
#include <QSet>
#include <QSplitter>

namespace {
const QColor changedColour(255, 236, 170);

// The code lines of a script (comments and blank lines left out), trimmed.
QSet<QString> codeLines(const QStringList& lines)
{
    QSet<QString> code;
    for (const QString& line : lines) {
        const QString trimmed = line.trimmed();
        if (!trimmed.isEmpty() && !trimmed.startsWith(QLatin1String("--")))
            code.insert(trimmed);
    }
    return code;
}

QList<int> linesMissingFrom(const QStringList& lines, const QSet<QString>& other)
{
    QList<int> changed;
    for (int i = 0; i < lines.size(); ++i) {
        const QString trimmed = lines[i].trimmed();
        if (!trimmed.isEmpty() && !trimmed.startsWith(QLatin1String("--")) && !other.contains(trimmed))
            changed << i + 1;
    }
    return changed;
}
} // namespace

ScriptView::ScriptView(QWidget* parent)
    : QDialog(parent)
{
    resize(1200, 720);
    auto* layout = new QGridLayout(this);
    auto* flow = new QLabel(this);
    flow->setWordWrap(true);
    m_right = new QComboBox(this);
    for (const LimiterRef& limiter : LimiterCatalog::all()) {
        if (limiter->role != LimiterEntry::Role::Bug)
            m_right->addItem(limiter->id, limiter->id);
    }
    auto* splitter = new QSplitter(Qt::Horizontal, this);
    m_leftEditor = new CodeEditor(splitter);
    m_rightEditor = new CodeEditor(splitter);
    for (CodeEditor* editor : {m_leftEditor, m_rightEditor}) {
        editor->setReadOnly(true);
        new LuaHighlighter(editor->document());
    }
    m_summary = new QLabel(this);
    m_summary->setWordWrap(true);
    layout->addWidget(flow, 0, 0, 1, 2);
    auto* left = new QLabel(this);
    layout->addWidget(left, 1, 0);
    layout->addWidget(m_right, 1, 1);
    layout->addWidget(splitter, 2, 0, 1, 2);
    layout->addWidget(m_summary, 3, 0, 1, 2);
    layout->setRowStretch(2, 1);
    connect(m_right, &QComboBox::currentIndexChanged, this, &ScriptView::compare);
    m_leftEditor->setPlainText(QString::fromUtf8(LimiterCatalog::builtin("now")->script.source()));
    m_texts.add([this, flow, left] {
        setWindowTitle(tr("Limiter scripts"));
        flow->setText(tr("The article's flow, in every script: <b>1. remove</b> old entries → <b>2. add</b> "
                         "this request → <b>3. count</b> → <b>4. expire</b>. Only the member changes."));
        m_right->setToolTip(tr("The unique strategy shown on the right."));
        left->setText(tr("lua/now.lua: member = now (the bug)"));
    });
    compare();
}

void ScriptView::changeEvent(QEvent* event)
{
    QDialog::changeEvent(event);
    if (event->type() == QEvent::LanguageChange) {
        m_texts.retranslate();
        compare(); // the summary line
    }
}

void ScriptView::showLimiter(const QString& id)
{
    const int index = m_right->findData(id);
    if (index >= 0)
        m_right->setCurrentIndex(index);
    compare();
}

QString ScriptView::rightSource() const
{
    return m_rightEditor->toPlainText();
}

void ScriptView::compare()
{
    const LimiterRef limiter = LimiterCatalog::builtin(m_right->currentData().toString());
    m_rightEditor->setPlainText(QString::fromUtf8(limiter->script.source()));
    const QStringList left = m_leftEditor->toPlainText().split(QLatin1Char('\n'));
    const QStringList right = m_rightEditor->toPlainText().split(QLatin1Char('\n'));
    m_changedRight = linesMissingFrom(right, codeLines(left));
    const QList<int> changedLeft = linesMissingFrom(left, codeLines(right));
    m_leftEditor->markLines(changedLeft, changedColour);
    m_rightEditor->markLines(m_changedRight, changedColour);
    QStringList numbers;
    for (const int line : m_changedRight)
        numbers << QString::number(line);
    m_summary->setText(tr("Marked: the code lines of %1 that differ from now.lua (lines %2).")
                           .arg(limiter->id + QStringLiteral(".lua"), numbers.join(QStringLiteral(", "))));
}
