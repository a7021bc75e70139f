#pragma once

#include "doctor/scriptdoctor.h"
#include "doctor/scriptprobe.h"
#include "limiters/calltemplate.h"
#include "limiters/limiterscript.h"
#include "limiters/replyreading.h"
#include "redis/redisconnection.h"
#include "widgets/retranslator.h"

#include <QDialog>

#include <atomic>
#include <functional>
#include <memory>
#include <thread>

class CodeEditor;
class QComboBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QPushButton;
class QTextBrowser;
class QTreeWidget;
class ServerSession;

// Bring your own limiter script: edit or open it, say how it is called (KEYS and ARGV templates),
// read it for known mistakes, probe it on the real Redis, and fire it like any strategy.
class ScriptDoctorDialog : public QDialog
{
    Q_OBJECT
public:
    ScriptDoctorDialog(ServerSession* session, QWidget* parent = nullptr);
    ~ScriptDoctorDialog() override;

    void setSource(const QString& name, const QByteArray& source);
    bool openFile(const QString& path);
    QByteArray source() const;
    // Reads the script now (static findings); false when the templates are invalid.
    bool check();
    // Probes on the session's server, on a worker thread; probeFinished() when done.
    void probe();
    const ScriptExamination& examination() const { return m_examination; }
    const ProbeReport& probeReport() const { return m_report; }
    bool isProbing() const { return m_probeThread.joinable() && !m_probeDone; }
    // A Redis Functions library: the function chosen to check and probe; empty for every one (the
    // probe then calls the first) and for an EVAL script.
    QByteArray chosenFunction() const;
    void chooseFunction(const QByteArray& name);
    // "Use for Bursts": the script as the main window fires and steps it; a library's function as
    // an EVAL script (FunctionLibrary::evalForm), since bursts and the debugger run EVAL scripts.
    // False with the reason in the details pane.
    bool useForBursts();
    // A public library's script: its call templates (keys, arguments, setup, reply) in the fields,
    // and the script read again with them. False when the script is no library's or its call is
    // not known.
    bool useLibraryCall();

signals:
    void probeFinished();
    // "Use for bursts": the script, how to call it and how it answers.
    void scriptChosen(const LimiterScript& script, std::shared_ptr<const CallTemplate> call, ReplyStyle style);

protected:
    void changeEvent(QEvent* event) override;

private:
    static QString severityText(ScriptFinding::Severity severity);
    bool readTemplate(CallTemplate* call);
    void showFindings();
    void showFinding(int index);
    void showReport();
    void forgetOtherScript();
    QString reportHtml() const;
    // The details pane: `html` is called again on a language change.
    void showDetails(std::function<QString()> html);
    void joinProbe();
    // Fills the function choice from the script's text; hidden for an EVAL script.
    void readFunctions();

    ServerSession* m_session;
    QString m_name = QStringLiteral("script.lua");
    QString m_confirmedEviction; // the server the user let the probe write to although it evicts keys
    bool m_named = false; // setSource() gave the script a name for the title
    CodeEditor* m_editor = nullptr;
    QLineEdit* m_keys = nullptr;
    QLineEdit* m_args = nullptr;
    QLineEdit* m_appKey = nullptr; // a key as the application names it, for cluster slots (optional)
    QLineEdit* m_setup = nullptr; // commands run before each scenario, apart by ';'
    ReplyStyle m_replyStyle = ReplyStyle::Unknown; // a library's reply, when the probe cannot learn it
    qint64 m_windowMs = 0; // a library's window, when its call needs one; 0: the probe's own
    QFormLayout* m_form = nullptr;
    QComboBox* m_function = nullptr; // a library's functions
    bool m_isLibrary = false;
    QLabel* m_templateError = nullptr;
    QTreeWidget* m_findings = nullptr;
    QTextBrowser* m_details = nullptr;
    QPushButton* m_probeButton = nullptr;
    QPushButton* m_useButton = nullptr;
    ScriptExamination m_examination;
    bool m_examined = false;
    QByteArray m_examinedSource; // what check() read, to read again in another language
    CallTemplate m_examinedCall;
    QByteArray m_examinedAppKey;
    QByteArray m_examinedFunction;
    ProbeReport m_report;
    bool m_probed = false;
    std::unique_ptr<ScriptProbe> m_probe;
    std::thread m_probeThread;
    std::atomic<bool> m_probeDone {false};
    Retranslator m_texts;
    std::function<QString()> m_detailsHtml;
};
