#include "scriptdoctordialog.h"

#include "doctor/probeverdict.h"

#include "codeeditor.h"
#include "doctor/functionlibrary.h"
#include "doctor/knownlimiters.h"
#include "limiters/limitercatalog.h"
#include "luahighlighter.h"
#include "redis/serversession.h"
#include "widgets/evictionquestion.h"

#include <QComboBox>
#include <QDesktopServices>
#include <QDialogButtonBox>
#include <QEvent>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QRegularExpression>
#include <QSplitter>
#include <QTextBrowser>
#include <QTreeWidget>
#include <QUrl>
#include <QVBoxLayout>

namespace {
const QColor errorMark(255, 200, 190);
const QColor warningMark(255, 236, 170);

// Text for the details, with its web addresses (an upstream report, a library's source) as links.
QString linked(const QString& text)
{
    static const QRegularExpression address(QStringLiteral("(https://[^\\s<>\"&]+[^\\s<>\"&.,;:)])"));
    QString html = text.toHtmlEscaped();
    return html.replace(address, QStringLiteral("<a href=\"\\1\">\\1</a>"));
}

// A finding about the whole script (a public library's limiter) marks no line of it.
bool marksItsLine(const ScriptFinding& finding)
{
    return !finding.code.endsWith(QLatin1String("-limiter"));
}
} // namespace

ScriptDoctorDialog::ScriptDoctorDialog(ServerSession* session, QWidget* parent)
    : QDialog(parent)
    , m_session(session)
{
    m_texts.add([this] { setWindowTitle(m_named ? tr("Script Doctor — %1").arg(m_name) : tr("Script Doctor")); });
    resize(1100, 760);
    auto* layout = new QVBoxLayout(this);

    auto* top = new QHBoxLayout;
    auto* open = new QPushButton(this);
    auto* builtin = new QComboBox(this);
    builtin->addItem(QString());
    for (const LimiterRef& limiter : LimiterCatalog::all())
        builtin->addItem(limiter->id, limiter->id);
    m_texts.add([open, builtin] {
        open->setText(tr("Open…"));
        open->setToolTip(tr("Open a Lua limiter script from a file."));
        builtin->setItemText(0, tr("Start from a built-in script…"));
        builtin->setToolTip(tr("Load one of zsetlab's own scripts (lua/) to compare with yours."));
    });
    top->addWidget(open);
    top->addWidget(builtin);
    top->addStretch(1);
    layout->addLayout(top);

    auto* splitter = new QSplitter(Qt::Horizontal, this);
    m_editor = new CodeEditor(splitter);
    new LuaHighlighter(m_editor->document());
    m_texts.add([this] { m_editor->setPlaceholderText(tr("Paste your limiter script here, or open a file.")); });
    auto* right = new QWidget(splitter);
    auto* rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    m_findings = new QTreeWidget(right);
    m_texts.add([this] { m_findings->setHeaderLabels({tr("Line"), tr("Severity"), tr("Finding")}); });
    m_findings->setRootIsDecorated(false);
    m_findings->header()->setSectionResizeMode(2, QHeaderView::Stretch);
    m_details = new QTextBrowser(right);
    m_details->setOpenLinks(false);
    // Only web addresses open, in the browser: an upstream report, a library's source.
    connect(m_details, &QTextBrowser::anchorClicked, this, [this](const QUrl& url) {
        if (url.scheme() == QLatin1String("https"))
            QDesktopServices::openUrl(url);
        else if (url == QUrl(QStringLiteral("zsetlab:library-call")))
            useLibraryCall();
    });
    rightLayout->addWidget(m_findings, 1);
    rightLayout->addWidget(m_details, 2);
    splitter->addWidget(m_editor);
    splitter->addWidget(right);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    layout->addWidget(splitter, 1);

    auto* form = new QFormLayout;
    m_keys = new QLineEdit(CallTemplate::defaultKeys(), this);
    m_args = new QLineEdit(CallTemplate::defaultArgs(), this);
    m_texts.add([this] {
        m_keys->setToolTip(tr("KEYS in the order your script expects. Every key must start with {key}, so the "
                              "script writes only under zsetlab:."));
        m_args->setToolTip(tr("ARGV in the order your script expects: %1, or literals (quote text with spaces).")
                               .arg(CallTemplate::placeholderNames().join(QStringLiteral(", "))));
    });
    m_texts.addRow(form, m_keys, m_keys, [] { return tr("&KEYS"); });
    m_texts.addRow(form, m_args, m_args, [] { return tr("&ARGV"); });
    m_appKey = new QLineEdit(this);
    m_texts.add([this] {
        m_appKey->setPlaceholderText(tr("optional, e.g. rl:{user42}"));
        m_appKey->setToolTip(tr("A key as your application passes it for {key}: the findings then say whether the "
                                "keys of one call share a Redis Cluster slot. Nothing is written to it."));
    });
    m_texts.addRow(form, m_appKey, m_appKey, [] { return tr("&Your key"); });
    m_setup = new QLineEdit(this);
    m_texts.add([this] {
        m_setup->setPlaceholderText(tr("optional, e.g. HSET {key}:config limit {limit}"));
        m_setup->setToolTip(tr("Commands the probe runs before each scenario's first call, apart by ';': what your "
                               "app sets up once. They may touch only the probe's keys ({key}...)."));
    });
    m_texts.addRow(form, m_setup, m_setup, [] { return tr("&Setup"); });
    m_function = new QComboBox(this);
    m_texts.add([this] {
        m_function->setItemText(0, tr("Every function (the probe calls the first)"));
        m_function->setToolTip(tr("A Redis Functions library: the function to check and to probe with FCALL."));
    });
    m_function->addItem(QString());
    m_texts.addRow(form, m_function, m_function, [] { return tr("&Function"); });
    m_form = form;
    form->setRowVisible(m_function, false);
    m_templateError = new QLabel(this);
    m_templateError->setWordWrap(true);
    QPalette red = m_templateError->palette();
    red.setColor(QPalette::WindowText, QColor(180, 40, 0));
    m_templateError->setPalette(red);
    m_templateError->hide();
    form->addRow(QString(), m_templateError);
    layout->addLayout(form);

    auto* buttons = new QHBoxLayout;
    auto* check = new QPushButton(this);
    m_probeButton = new QPushButton(this);
    m_useButton = new QPushButton(this);
    m_texts.add([this, check] {
        check->setText(tr("Check the Script"));
        check->setToolTip(tr("Read the script for mistakes that make ZSET limiters count wrong (nothing is run)."));
        m_probeButton->setText(tr("Probe on Redis"));
        m_probeButton->setToolTip(tr("Run the script on fresh zsetlab: keys: calls sharing one now, calls at "
                                     "several rates, with and without a limit; then read what it stored."));
        if (m_isLibrary) {
            m_useButton->setText(tr("Use as EVAL Script for Bursts"));
            m_useButton->setToolTip(tr("Bursts and the Lua debugger run EVAL scripts, and the server's debugger "
                                       "cannot step a function (FCALL). zsetlab fires the library's code with a "
                                       "last line that calls the chosen function with KEYS and ARGV: the same "
                                       "counts, and the server's functions are left alone."));
        } else {
            m_useButton->setText(tr("Use for Bursts"));
            m_useButton->setToolTip(tr("Fire this script from the main window, alone or in compare mode."));
        }
    });
    auto* close = new QDialogButtonBox(QDialogButtonBox::Close, this);
    buttons->addWidget(check);
    buttons->addWidget(m_probeButton);
    buttons->addWidget(m_useButton);
    buttons->addStretch(1);
    buttons->addWidget(close);
    layout->addLayout(buttons);

    connect(open, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open Script"), QString(),
                                                          tr("Lua scripts (*.lua);;All files (*)"));
        if (!path.isEmpty())
            openFile(path);
    });
    connect(builtin, &QComboBox::activated, this, [this, builtin](int index) {
        if (const LimiterRef limiter = LimiterCatalog::find(builtin->itemData(index).toString())) {
            setSource(limiter->id + QStringLiteral(".lua"), limiter->script.source());
            // Read it with the keys and arguments zsetlab calls it with (the sequence counter is KEYS[2]).
            const CallTemplate call = limiter->callTemplate();
            m_keys->setText(call.keysText());
            m_args->setText(call.argsText());
        }
        builtin->setCurrentIndex(0);
    });
    connect(check, &QPushButton::clicked, this, &ScriptDoctorDialog::check);
    connect(m_probeButton, &QPushButton::clicked, this, &ScriptDoctorDialog::probe);
    connect(m_useButton, &QPushButton::clicked, this, &ScriptDoctorDialog::useForBursts);
    connect(close, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_findings, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem* item) {
        if (item)
            showFinding(m_findings->indexOfTopLevelItem(item));
    });
    connect(this, &ScriptDoctorDialog::probeFinished, this, &ScriptDoctorDialog::showReport);
    connect(m_editor, &QPlainTextEdit::textChanged, this, &ScriptDoctorDialog::forgetOtherScript);
    connect(m_editor, &QPlainTextEdit::textChanged, this, &ScriptDoctorDialog::readFunctions);
    // Another function chosen: the findings on the screen read it at once.
    connect(m_function, &QComboBox::activated, this, [this] {
        if (m_examined && m_examinedSource == source())
            this->check();
    });
}

bool ScriptDoctorDialog::useLibraryCall()
{
    const KnownLimiter* limiter = KnownLimiters::recognize(source()).limiter;
    if (!limiter || !limiter->call.isKnown())
        return false;
    m_keys->setText(QString::fromUtf8(limiter->call.keys));
    m_args->setText(QString::fromUtf8(limiter->call.args));
    m_setup->setText(limiter->call.setupCommands().join(QStringLiteral("; ")));
    ReplyStyle style = ReplyStyle::Unknown;
    if (*limiter->call.reply)
        parseReplyStyle(QString::fromUtf8(limiter->call.reply), &style);
    m_replyStyle = style;
    m_windowMs = limiter->call.windowMs;
    return check();
}

bool ScriptDoctorDialog::useForBursts()
{
    CallTemplate call;
    if (!readTemplate(&call) || source().trimmed().isEmpty())
        return false;
    if (m_probed && !m_report.foreign.isEmpty()) {
        // A burst runs the script on the connected server: it would change those keys there.
        showDetails([] {
            return tr("<p>The probe saw this script touch keys it was not given, so zsetlab does not fire it "
                      "at a server. Pass every key in KEYS and probe again.</p>");
        });
        return false;
    }
    const ReplyStyle style
        = m_probed && m_report.replyStyle != ReplyStyle::Unknown ? m_report.replyStyle : ReplyStyle::CountWithCall;
    LimiterScript script = LimiterScript::fromSource(m_name, source());
    const FunctionLibrary library = FunctionLibrary::read(source());
    if (library.isLibrary()) {
        // Bursts and the server's Lua debugger run EVAL scripts; FCALL would need the library loaded
        // on the server (FUNCTION LOAD changes what every client of it sees).
        const LibraryFunction* chosen = library.functionOrFirst(chosenFunction());
        if (!chosen) {
            showDetails([] {
                return tr("<p>The library registers no function zsetlab can read: there is nothing to fire.</p>");
            });
            return false;
        }
        script = LimiterScript::fromSource(tr("%1 (%2 as an EVAL script)").arg(m_name, QString::fromUtf8(chosen->name)),
                                           library.evalForm(chosen->name));
    }
    emit scriptChosen(script, std::make_shared<const CallTemplate>(call), style);
    accept();
    return true;
}

void ScriptDoctorDialog::readFunctions()
{
    // At every keystroke: an EVAL script (no "#!" line, no registration) is not read again.
    const QByteArray text = source();
    const bool wasLibrary = m_isLibrary;
    const FunctionLibrary library
        = text.startsWith("#!") || text.contains("register_function") ? FunctionLibrary::read(text) : FunctionLibrary();
    const QByteArray chosen = chosenFunction();
    m_isLibrary = library.isLibrary();
    while (m_function->count() > 1)
        m_function->removeItem(1);
    for (const LibraryFunction& function : library.functions())
        m_function->addItem(QString::fromUtf8(function.name), function.name);
    const int again = m_function->findData(chosen);
    m_function->setCurrentIndex(again > 0 ? again : 0);
    m_form->setRowVisible(m_function, m_isLibrary);
    if (m_isLibrary != wasLibrary)
        m_texts.retranslate(); // the Use button says what it fires
}

QByteArray ScriptDoctorDialog::chosenFunction() const
{
    return m_function->currentData().toByteArray();
}

void ScriptDoctorDialog::chooseFunction(const QByteArray& name)
{
    const int index = m_function->findData(name);
    m_function->setCurrentIndex(index > 0 ? index : 0);
}

void ScriptDoctorDialog::forgetOtherScript()
{
    // Findings and a probe's report describe the script they read: once the text is another,
    // they would point at lines that now say something else.
    if (!m_examined && !m_probed)
        return;
    if (m_examined && source() == m_examinedSource)
        return;
    m_examined = false;
    m_probed = false;
    m_replyStyle = ReplyStyle::Unknown; // a library's, for the text it was chosen with
    m_windowMs = 0;
    m_findings->clear();
    m_editor->clearMarks();
    showDetails([] {
        return tr("<p>The script changed: <i>Check the Script</i> and <i>Probe on Redis</i> read it again.</p>");
    });
}

ScriptDoctorDialog::~ScriptDoctorDialog()
{
    if (m_probe)
        m_probe->cancel();
    joinProbe();
}

void ScriptDoctorDialog::joinProbe()
{
    if (m_probeThread.joinable())
        m_probeThread.join();
}

void ScriptDoctorDialog::setSource(const QString& name, const QByteArray& source)
{
    m_name = name;
    m_named = true;
    m_examined = false;
    m_probed = false;
    m_editor->setPlainText(QString::fromUtf8(source));
    m_texts.retranslate(); // the title names the script
    m_findings->clear();
    m_editor->clearMarks();
    showDetails({});
}

bool ScriptDoctorDialog::openFile(const QString& path)
{
    LimiterScript script;
    QString error;
    if (!LimiterScript::fromFile(path, &script, &error)) {
        QMessageBox::warning(this, windowTitle(), error);
        return false;
    }
    setSource(script.name(), script.source());
    return true;
}

QByteArray ScriptDoctorDialog::source() const
{
    return m_editor->toPlainText().toUtf8();
}

bool ScriptDoctorDialog::readTemplate(CallTemplate* call)
{
    QString error;
    if (!CallTemplate::parse(m_keys->text(), m_args->text(), call, &error)) {
        m_templateError->setText(error);
        m_templateError->show();
        return false;
    }
    m_templateError->hide();
    return true;
}

bool ScriptDoctorDialog::check()
{
    CallTemplate call;
    if (!readTemplate(&call))
        return false;
    m_examinedSource = source();
    m_examinedCall = call;
    m_examinedAppKey = m_appKey->text().trimmed().toUtf8();
    m_examined = true;
    m_examinedFunction = chosenFunction();
    m_examination = ScriptDoctor::examine(m_examinedSource, call, m_examinedAppKey, m_examinedFunction);
    if (m_probed)
        ScriptDoctor::weighProbe(&m_examination, m_report);
    showFindings();
    return true;
}

void ScriptDoctorDialog::showFindings()
{
    m_findings->clear();
    QList<int> errors;
    QList<int> warnings;
    for (const ScriptFinding& finding : m_examination.findings) {
        auto* item = new QTreeWidgetItem(m_findings);
        item->setText(0, QString::number(finding.line));
        item->setText(1, severityText(finding.severity));
        item->setText(2,
                      finding.function.isEmpty()
                          ? finding.title
                          : tr("%1: %2").arg(QString::fromUtf8(finding.function), finding.title));
        if (!marksItsLine(finding))
            continue;
        if (finding.severity == ScriptFinding::Severity::Error)
            errors << finding.line;
        else if (finding.severity == ScriptFinding::Severity::Warning)
            warnings << finding.line;
    }
    m_editor->markLines(warnings, warningMark);
    m_editor->markLines(errors, errorMark);
    if (m_examination.findings.isEmpty())
        showDetails([] {
            return tr("<p><b>No known mistake found.</b> A clean reading is not a proof: <i>Probe on Redis</i> runs "
                      "the script and counts what it stored.</p>");
        });
    else
        m_findings->setCurrentItem(m_findings->topLevelItem(0));
}

void ScriptDoctorDialog::showFinding(int index)
{
    if (index < 0 || index >= m_examination.findings.size())
        return;
    const ScriptFinding& finding = m_examination.findings[index];
    m_editor->goToLine(finding.line);
    const LibraryCall call
        = m_examination.known.limiter && !marksItsLine(finding) ? m_examination.known.limiter->call : LibraryCall {};
    const QString library
        = m_examination.known.limiter ? QString::fromUtf8(m_examination.known.limiter->library) : QString();
    showDetails([finding, call, library]() -> QString {
        const QString useCall = call.isKnown()
            ? tr("<p><a href=\"zsetlab:library-call\">Call it as %1 does</a>: fill KEYS, ARGV and Setup with "
                 "its call and read the script again.</p>")
                  .arg(library.toHtmlEscaped())
            : QString();
        if (!finding.function.isEmpty())
            return tr("<h3>Line %1, in %2: %3</h3><pre>%4</pre><p>%5</p><p><b>Change:</b> %6</p>")
                       .arg(finding.line)
                       .arg(QString::fromUtf8(finding.function).toHtmlEscaped(), finding.title.toHtmlEscaped(),
                            finding.excerpt.toHtmlEscaped(), linked(finding.explanation), linked(finding.suggestion))
                + useCall;
        return tr("<h3>Line %1: %2</h3><pre>%3</pre><p>%4</p><p><b>Change:</b> %5</p>")
                   .arg(finding.line)
                   .arg(finding.title.toHtmlEscaped(), finding.excerpt.toHtmlEscaped(), linked(finding.explanation),
                        linked(finding.suggestion))
            + useCall;
    });
}

void ScriptDoctorDialog::probe()
{
    if (isProbing())
        return;
    CallTemplate call;
    if (!readTemplate(&call) || source().trimmed().isEmpty())
        return;
    if (!m_session->isUsable()) {
        showDetails([] { return tr("<p>Not connected to Redis: connect first (Burst > Connect to Redis).</p>"); });
        return;
    }
    joinProbe();
    ProbeSettings settings;
    settings.function = chosenFunction();
    settings.replyStyle = m_replyStyle;
    if (m_windowMs > 0)
        settings.windowMs = m_windowMs;
    for (const QString& text : m_setup->text().split(QLatin1Char(';'), Qt::SkipEmptyParts)) {
        if (text.trimmed().isEmpty())
            continue;
        SetupCommand command;
        QString error;
        if (!SetupCommand::parse(text, &command, &error)) {
            m_templateError->setText(error);
            m_templateError->show();
            return;
        }
        settings.setup << text.trimmed();
    }
    // A member with few random values: the probe draws enough times to see them repeat.
    // (read again only when the findings shown are of another text or call)
    const bool examinedAlike = m_examined && m_examinedSource == source() && m_examinedFunction == settings.function
        && m_examinedCall.keysText() == call.keysText() && m_examinedCall.argsText() == call.argsText();
    settings.randomMemberValues = examinedAlike
        ? m_examination.randomMemberValues
        : ScriptDoctor::examine(source(), call, QByteArray(), settings.function).randomMemberValues;
    const RedisEndpoint endpoint = m_session->endpoint();
    ConnectOptions options = m_session->options();
    if (!confirmEviction(this, endpoint, options, &m_confirmedEviction))
        return;
    options.allowEviction = options.allowEviction || m_confirmedEviction == endpoint.address();
    m_probe = std::make_unique<ScriptProbe>(LimiterScript::fromSource(m_name, source()), call, settings);
    m_probeDone = false;
    m_probeButton->setEnabled(false);
    showDetails([address = m_session->endpoint().address()] {
        return tr("<p>Probing on %1…</p>").arg(address.toHtmlEscaped());
    });
    ScriptProbe* probe = m_probe.get();
    m_probeThread = std::thread([this, probe, endpoint, options] {
        ProbeReport report = probe->run(endpoint, options);
        QMetaObject::invokeMethod(
            this,
            [this, report] {
                m_report = report;
                m_probed = true;
                m_probeDone = true;
                emit probeFinished();
            },
            Qt::QueuedConnection);
    });
}

void ScriptDoctorDialog::showReport()
{
    joinProbe();
    m_probeButton->setEnabled(true);
    // The probe's count beats the reading of the same text.
    if (m_examined && m_examinedSource == source() && ScriptDoctor::weighProbe(&m_examination, m_report) > 0) {
        showFindings();
    }
    if (m_report.failure != ProbeReport::Failure::None && m_report.failureLine > 0) {
        m_editor->markLines({m_report.failureLine}, errorMark);
        m_editor->goToLine(m_report.failureLine);
    }
    showDetails([this] { return reportHtml(); });
}

QString ScriptDoctorDialog::reportHtml() const
{
    // The verdict's sentences are the probe's record, in the language of the moment it ran.
    if (m_report.failure != ProbeReport::Failure::None)
        return tr("<h3>The probe could not finish</h3><p>%1</p>").arg(m_report.failureMessage.toHtmlEscaped());
    // Keys not its own come first: the probe stops there (on the given server Redis refused them),
    // so its counts are those of the calls before.
    QString html = !m_report.foreign.isEmpty() ? tr("<h3>It touches keys it was not given</h3>")
        : m_report.countsWrong()               ? tr("<h3>It counts wrong</h3>")
        : !m_report.admissionsRead             ? tr("<h3>Its replies did not say which calls were admitted</h3>")
        : m_report.ttlProblem                  ? tr("<h3>It counts right, but its expiry is wrong</h3>")
                                               : tr("<h3>It counts right</h3>");
    html += QStringLiteral("<ul>");
    for (const QString& sentence : m_report.verdict)
        html += QStringLiteral("<li>") + sentence.toHtmlEscaped() + QStringLiteral("</li>");
    html += QStringLiteral("</ul>");
    if (!m_report.function.isEmpty())
        html += tr("<p>Function %1, called with FCALL.</p>").arg(QString::fromUtf8(m_report.function).toHtmlEscaped());
    html += tr("<p>Replies read as: %1. Redis %2.</p>")
                .arg(ProbeVerdict::replyReadingText(m_report).toHtmlEscaped(), m_report.serverVersion.toHtmlEscaped());
    return html;
}

QString ScriptDoctorDialog::severityText(ScriptFinding::Severity severity)
{
    switch (severity) {
    case ScriptFinding::Severity::Info:
        return tr("info");
    case ScriptFinding::Severity::Warning:
        return tr("warning");
    case ScriptFinding::Severity::Error:
        return tr("error");
    }
    return {};
}

void ScriptDoctorDialog::showDetails(std::function<QString()> html)
{
    m_detailsHtml = std::move(html);
    if (m_detailsHtml)
        m_details->setHtml(m_detailsHtml());
    else
        m_details->clear();
}

void ScriptDoctorDialog::changeEvent(QEvent* event)
{
    QDialog::changeEvent(event);
    if (event->type() != QEvent::LanguageChange)
        return;
    m_texts.retranslate();
    if (!m_templateError->isHidden()) {
        CallTemplate call;
        readTemplate(&call); // its message comes from the core, in the new language
    }
    if (m_examined) {
        // The findings are made in the core in the language of the moment: read the same text again.
        const int current = m_findings->indexOfTopLevelItem(m_findings->currentItem());
        m_examination = ScriptDoctor::examine(m_examinedSource, m_examinedCall, m_examinedAppKey, m_examinedFunction);
        if (m_probed)
            ScriptDoctor::weighProbe(&m_examination, m_report);
        const auto details = m_detailsHtml;
        showFindings();
        if (current >= 0 && current < m_findings->topLevelItemCount())
            m_findings->setCurrentItem(m_findings->topLevelItem(current));
        else
            showDetails(details);
    }
    if (m_detailsHtml)
        m_details->setHtml(m_detailsHtml());
}
