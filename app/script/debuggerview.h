#pragma once

#include "burst/burstplan.h"
#include "debugger/ldbtranscript.h"
#include "debugger/scriptdebugger.h"

#include <QDialog>

class CodeEditor;
class QLabel;
class QPushButton;
class QRadioButton;
class QTreeWidget;
class ServerSession;

// Steps one request through the real script with Redis's own Lua debugger: the current line
// marked, each redis.call with its reply, the local variables, the ZSET after each step.
// Forked mode (the default) rolls every change back; synchronous mode keeps them and holds the
// server while the session lasts.
class QFontMetrics;

class DebuggerView : public QDialog
{
    Q_OBJECT
public:
    DebuggerView(ServerSession* session, QWidget* parent = nullptr);

    // The request to step: a script, its key and its arguments (the calling convention).
    // keys: KEYS of the call, the first being the ZSET shown at each step.
    // A Redis Functions library cannot be stepped as it is (the server's debugger takes EVAL
    // scripts): start() then steps `function` (or the first one) as an EVAL script, and says so.
    void setRequest(const LimiterScript& script, const RedisArgs& keys, const RedisArgs& argv, const QString& what,
                    const QByteArray& function = {});
    const LimiterScript& script() const { return m_script; }
    void start();
    ScriptDebugger* debugger() const { return m_debugger; }
    const DebugStep& lastStep() const { return m_last; }
    QString transcript() const; // the calls so far, one per line: "ZADD … → 0"
    // A call as its column shows it in `width` pixels: whole if it fits, else its key (the word
    // after the command) cut in the middle, so that the command and its arguments stay whole.
    static QString fittedCall(const QString& call, const QFontMetrics& metrics, int width);

signals:
    void stepShown();

protected:
    void changeEvent(QEvent* event) override;
    void closeEvent(QCloseEvent* event) override;

private:
    void showStep(const DebugStep& step);
    void retranslate();
    void setRunning(bool running);

    ServerSession* m_session;
    ScriptDebugger* m_debugger = nullptr;
    LimiterScript m_script;
    QByteArray m_function; // of a library: stepped as an EVAL script
    bool m_library = false;
    RedisArgs m_argv;
    RedisArgs m_keys;
    QString m_what;
    DebugStep m_last;
    QStringList m_calls;
    QLabel* m_request = nullptr;
    QRadioButton* m_forked = nullptr;
    QRadioButton* m_sync = nullptr;
    CodeEditor* m_editor = nullptr;
    QTreeWidget* m_callList = nullptr;
    QTreeWidget* m_locals = nullptr;
    QTreeWidget* m_zset = nullptr;
    QLabel* m_status = nullptr;
    QPushButton* m_start = nullptr;
    QPushButton* m_step = nullptr;
    QPushButton* m_continue = nullptr;
    QPushButton* m_stop = nullptr;
};
