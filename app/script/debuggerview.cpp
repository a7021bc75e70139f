#include "debuggerview.h"

#include "codeeditor.h"
#include "doctor/functionlibrary.h"
#include "luahighlighter.h"
#include "redis/serversession.h"

#include <QApplication>
#include <QCloseEvent>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QRadioButton>
#include <QSplitter>
#include <QStyledItemDelegate>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace {
const QColor currentLine(255, 221, 0, 140);

// The redis.call column: `ZADD key now now` with its key cut in the middle rather than its
// arguments at the end, which are what a step is about.
class CallDelegate : public QStyledItemDelegate
{
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override
    {
        QStyleOptionViewItem fitted(option);
        initStyleOption(&fitted, index);
        const QStyle* style = fitted.widget ? fitted.widget->style() : QApplication::style();
        const int padding = 2 * (style->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, fitted.widget) + 1);
        fitted.text = DebuggerView::fittedCall(fitted.text, fitted.fontMetrics, fitted.rect.width() - padding);
        style->drawControl(QStyle::CE_ItemViewItem, &fitted, painter, fitted.widget);
    }
};
} // namespace

QString DebuggerView::fittedCall(const QString& call, const QFontMetrics& metrics, int width)
{
    if (metrics.horizontalAdvance(call) <= width)
        return call;
    const qsizetype keyStart = call.indexOf(QLatin1Char(' ')) + 1;
    const qsizetype keyEnd = keyStart > 0 ? call.indexOf(QLatin1Char(' '), keyStart) : -1;
    if (keyStart <= 0)
        return metrics.elidedText(call, Qt::ElideRight, width);
    const QString before = call.left(keyStart);
    const QString key = keyEnd < 0 ? call.mid(keyStart) : call.mid(keyStart, keyEnd - keyStart);
    const QString after = keyEnd < 0 ? QString() : call.mid(keyEnd);
    const int room = width - metrics.horizontalAdvance(before) - metrics.horizontalAdvance(after);
    const QString ellipsis(QChar(0x2026));
    if (room < metrics.horizontalAdvance(ellipsis)) // not even the key's ellipsis: cut at the end
        return metrics.elidedText(call, Qt::ElideRight, width);
    const QString key2 = metrics.elidedText(key, Qt::ElideMiddle, room);
    return before + (key2.isEmpty() ? ellipsis : key2) + after;
}

DebuggerView::DebuggerView(ServerSession* session, QWidget* parent)
    : QDialog(parent)
    , m_session(session)
    , m_debugger(new ScriptDebugger(this))
{
    resize(1150, 720);
    auto* layout = new QVBoxLayout(this);
    m_request = new QLabel(this);
    m_request->setWordWrap(true);
    layout->addWidget(m_request);
    auto* modes = new QHBoxLayout;
    m_forked = new QRadioButton(this);
    m_sync = new QRadioButton(this);
    m_forked->setChecked(true);
    modes->addWidget(m_forked);
    modes->addWidget(m_sync);
    modes->addStretch(1);
    layout->addLayout(modes);

    auto* splitter = new QSplitter(Qt::Horizontal, this);
    m_editor = new CodeEditor(splitter);
    m_editor->setReadOnly(true);
    new LuaHighlighter(m_editor->document());
    auto* right = new QSplitter(Qt::Vertical, splitter);
    m_callList = new QTreeWidget(right);
    m_callList->setRootIsDecorated(false);
    m_locals = new QTreeWidget(right);
    m_locals->setRootIsDecorated(false);
    m_zset = new QTreeWidget(right);
    m_zset->setRootIsDecorated(false);
    for (QTreeWidget* tree : {m_callList, m_locals, m_zset})
        tree->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_callList->header()->setSectionResizeMode(1, QHeaderView::Stretch); // as wide as the list: cut by CallDelegate
    m_callList->setItemDelegateForColumn(1, new CallDelegate(m_callList));
    splitter->addWidget(m_editor);
    splitter->addWidget(right);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    layout->addWidget(splitter, 1);

    m_status = new QLabel(this);
    m_status->setWordWrap(true);
    layout->addWidget(m_status);
    auto* buttons = new QHBoxLayout;
    m_start = new QPushButton(this);
    m_step = new QPushButton(this);
    m_continue = new QPushButton(this);
    m_continue->setObjectName(QStringLiteral("ContinueButton"));
    m_stop = new QPushButton(this);
    buttons->addWidget(m_start);
    buttons->addWidget(m_step);
    buttons->addWidget(m_continue);
    buttons->addWidget(m_stop);
    buttons->addStretch(1);
    layout->addLayout(buttons);

    connect(m_start, &QPushButton::clicked, this, &DebuggerView::start);
    connect(m_step, &QPushButton::clicked, m_debugger, &ScriptDebugger::step);
    connect(m_continue, &QPushButton::clicked, m_debugger, &ScriptDebugger::continueToEnd);
    connect(m_stop, &QPushButton::clicked, m_debugger, &ScriptDebugger::stop);
    connect(m_debugger, &ScriptDebugger::stopped, this, &DebuggerView::showStep);
    connect(m_debugger, &ScriptDebugger::finished, this, [this](const DebugStep& last, const RedisReply& reply) {
        showStep(last);
        m_status->setText(tr("The script ended and replied %1. %2")
                              .arg(reply.toDisplayString(),
                                   m_forked->isChecked() ? tr("Forked mode: every change was rolled back.")
                                                         : tr("Synchronous mode: the changes were kept.")));
        setRunning(false);
    });
    connect(m_debugger, &ScriptDebugger::aborted, this, [this](const QString& why) {
        m_status->setText(tr("Debugging stopped: %1. The server is free.").arg(why));
        setRunning(false);
    });
    connect(m_debugger, &ScriptDebugger::failed, this, [this](const QString& message) {
        m_status->setText(message);
        setRunning(false);
    });
    retranslate();
    setRunning(false);
}

void DebuggerView::retranslate()
{
    setWindowTitle(tr("Step through the script"));
    m_forked->setText(tr("Forked (changes rolled back)"));
    m_forked->setToolTip(tr("SCRIPT DEBUG YES: a copy of the server runs the script; other clients are served "
                            "meanwhile and nothing the script writes is kept."));
    m_sync->setText(tr("Synchronous (changes kept)"));
    m_sync->setToolTip(tr("SCRIPT DEBUG SYNC: the server itself runs the script and serves no one else until it "
                          "ends; what the script writes is kept."));
    m_callList->setHeaderLabels({tr("reply"), tr("redis.call")});
    m_locals->setHeaderLabels({tr("local"), tr("value")});
    m_zset->setHeaderLabels({tr("member"), tr("score")});
    m_start->setText(m_library ? tr("Step as an EVAL Script") : tr("Start"));
    m_step->setText(tr("Step (F10)"));
    m_step->setShortcut(QKeySequence(Qt::Key_F10)); // after the text: setText() sets the mnemonic
    m_continue->setText(tr("Continue to the End"));
    m_stop->setText(tr("Stop"));
    m_request->setText(m_what.isEmpty() ? QString() : tr("<b>Request:</b> %1").arg(m_what.toHtmlEscaped()));
}

void DebuggerView::changeEvent(QEvent* event)
{
    QDialog::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        retranslate();
}

void DebuggerView::closeEvent(QCloseEvent* event)
{
    m_debugger->stop(); // never leave the server in a debugging session
    QDialog::closeEvent(event);
}

void DebuggerView::setRequest(const LimiterScript& script, const RedisArgs& keys, const RedisArgs& argv,
                              const QString& what, const QByteArray& function)
{
    m_script = script;
    m_keys = keys;
    m_argv = argv;
    m_what = what;
    const FunctionLibrary library = FunctionLibrary::read(script.source());
    m_library = library.isLibrary();
    const LibraryFunction* chosen = library.functionOrFirst(function);
    m_function = m_library && chosen ? chosen->name : QByteArray();
    m_editor->setPlainText(QString::fromUtf8(script.source()));
    retranslate();
    m_status->setText(
        !m_library ? QString()
            : m_function.isEmpty()
            ? tr("This library registers no function zsetlab can read, so there is nothing to step.")
            : tr("A function cannot be stepped as it is: the server's Lua debugger takes EVAL scripts only, and "
                 "FCALL never stops at a line. Start steps %1 as an EVAL script: the library's code, line for "
                 "line, with a last line that calls %1 with KEYS and ARGV.")
                  .arg(QString::fromUtf8(m_function)));
}

void DebuggerView::setRunning(bool running)
{
    m_start->setEnabled(!running);
    m_forked->setEnabled(!running);
    m_sync->setEnabled(!running);
    m_step->setEnabled(running);
    m_continue->setEnabled(running);
    m_stop->setEnabled(running);
}

void DebuggerView::start()
{
    if (!m_session->isUsable()) {
        m_status->setText(tr("Not connected to Redis: connect first."));
        return;
    }
    if (m_library) {
        if (m_function.isEmpty())
            return;
        // What the user asked for, made explicit: the body as an EVAL script, shown as it runs.
        const QByteArray eval = FunctionLibrary::read(m_script.source()).evalForm(m_function);
        m_script = LimiterScript::fromSource(
            tr("%1 (%2 as an EVAL script)").arg(m_script.name(), QString::fromUtf8(m_function)), eval);
        m_library = false;
        m_editor->setPlainText(QString::fromUtf8(eval));
        retranslate();
    }
    m_calls.clear();
    m_callList->clear();
    m_debugger->setServer(m_session->endpoint(), m_session->options());
    const auto mode = m_sync->isChecked() ? ScriptDebugger::Mode::Sync : ScriptDebugger::Mode::Forked;
    if (m_debugger->start(m_script, m_keys, m_argv, mode)) {
        setRunning(true);
        m_status->setText(mode == ScriptDebugger::Mode::Sync
                              ? tr("Synchronous mode: the server serves no one else until the script ends or you stop.")
                              : tr("Forked mode: a copy of the server runs the script; nothing it writes is kept."));
    }
}

void DebuggerView::showStep(const DebugStep& step)
{
    m_last = step;
    for (const DebugCall& call : step.calls) {
        auto* item = new QTreeWidgetItem(m_callList, {call.failed() ? call.error : call.reply, call.command});
        item->setToolTip(1, call.command);
        if (call.failed())
            item->setForeground(0, QColor(213, 94, 0));
        m_calls << QStringLiteral("%1 → %2").arg(call.command, call.failed() ? call.error : call.reply);
        m_callList->scrollToItem(item);
    }
    m_locals->clear();
    for (const DebugVariable& variable : step.locals) {
        auto* item = new QTreeWidgetItem(m_locals, {variable.name, variable.value});
        if (!variable.printed.isEmpty())
            item->setToolTip(1, tr("Redis's debugger printed %1.").arg(variable.printed));
    }
    m_zset->clear();
    for (const ZsetEntry& entry : step.zset)
        new QTreeWidgetItem(m_zset, {QString::fromUtf8(entry.member), QString::fromUtf8(entry.score)});
    if (step.line > 0) {
        m_editor->markLines({step.line}, currentLine);
        m_editor->goToLine(step.line);
    } else if (step.ended) {
        m_editor->markLines({}, currentLine); // the script ran to its end: no line is current
    }
    if (!step.ended)
        m_status->setText(tr("Stopped at line %1. ZSET: %Ln member(s). %2", nullptr, int(step.zsetSize))
                              .arg(step.line)
                              .arg(step.zsetNote));
    emit stepShown();
}

QString DebuggerView::transcript() const
{
    return m_calls.join(QLatin1Char('\n'));
}
