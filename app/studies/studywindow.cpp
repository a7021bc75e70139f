#include "studywindow.h"

#include "redis/serversession.h"
#include "run/firecontrol.h"
#include "widgets/chartandtable.h"
#include "widgets/pictureexport.h"
#include "widgets/presentation.h"
#include "widgets/screenfit.h"

#include <QCloseEvent>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenuBar>
#include <QPushButton>
#include <QStatusBar>
#include <QTableView>
#include <QVBoxLayout>

namespace {
// A warning in a colour that reads on light and dark.
QString warningStyle(const QWidget* widget, bool warning)
{
    if (!warning)
        return QString();
    const bool dark = Presentation::isDark(widget->palette());
    return QStringLiteral("color: %1;").arg(dark ? QStringLiteral("#f0a070") : QStringLiteral("#b34700"));
}
} // namespace

StudyWindow::StudyWindow(ServerSession* session, const QString& objectName, QWidget* parent)
    : QMainWindow(parent)
    , m_session(session)
{
    setObjectName(objectName);
    m_runAction = new QAction(this);
    m_runAction->setShortcut(QKeySequence(Qt::Key_F5));
    connect(m_runAction, &QAction::triggered, this, &StudyWindow::run);
    m_stopAction = new QAction(this);
    m_stopAction->setShortcut(QKeySequence(Qt::Key_Escape));
    connect(m_stopAction, &QAction::triggered, this, &StudyWindow::stop);
    m_texts.add([this] {
        m_runAction->setText(tr("&Run"));
        m_stopAction->setText(tr("&Stop"));
    });
}

StudyWindow::~StudyWindow() = default;

void StudyWindow::present(QWidget* window, QWidget* owner)
{
    if (!window->isVisible())
        ScreenFit::placeOnScreen(window, owner);
    window->show();
    window->raise();
    window->activateWindow();
}

QFormLayout* StudyWindow::createControls(int width)
{
    m_controls = new QWidget(this);
    m_controls->setMaximumWidth(width);
    m_column = new QVBoxLayout(m_controls);
    m_column->setContentsMargins(0, 0, 6, 0);
    auto* form = new QFormLayout;
    form->setRowWrapPolicy(QFormLayout::DontWrapRows);
    m_column->addLayout(form);
    return form;
}

QLayout* StudyWindow::fieldWithMessage(QWidget* field, QLabel** message, const QString& objectName)
{
    auto* label = new QLabel(m_controls);
    label->setWordWrap(true);
    label->setObjectName(objectName);
    label->hide();
    auto* box = new QVBoxLayout;
    box->setSpacing(2);
    box->addWidget(field);
    box->addWidget(label);
    m_messages.append({label, field});
    *message = label;
    return box;
}

void StudyWindow::addRunButtons(QString (*runText)())
{
    auto* buttons = new QHBoxLayout;
    m_run = new QPushButton(m_controls);
    m_run->setDefault(true);
    m_stop = new QPushButton(m_controls);
    m_texts.add([this, runText] {
        m_run->setText(runText());
        m_stop->setText(tr("Stop"));
    });
    buttons->addWidget(m_run);
    buttons->addWidget(m_stop);
    m_column->addLayout(buttons);
    m_progress = new QLabel(m_controls);
    m_progress->setWordWrap(true);
    m_progress->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_column->addWidget(m_progress);
    m_column->addStretch(1);
    connect(m_run, &QPushButton::clicked, this, &StudyWindow::run);
    connect(m_stop, &QPushButton::clicked, this, &StudyWindow::stop);
    // Without menus the shortcuts still work.
    addAction(m_runAction);
    addAction(m_stopAction);
}

void StudyWindow::addExportButtons()
{
    auto* exports = new QHBoxLayout;
    auto* table = new QPushButton(m_controls);
    auto* picture = new QPushButton(m_controls);
    m_texts.add([table, picture] {
        table->setText(tr("Export table…"));
        picture->setText(tr("Export picture…"));
    });
    exports->addWidget(table);
    exports->addWidget(picture);
    m_column->addLayout(exports);
    connect(table, &QPushButton::clicked, this, &StudyWindow::exportTable);
    connect(picture, &QPushButton::clicked, this, &StudyWindow::exportPicture);
    auto* close = new QAction(this);
    close->setShortcut(QKeySequence::Close);
    connect(close, &QAction::triggered, this, &QWidget::close);
    addAction(close);
}

QMenu* StudyWindow::createMenus(QString (*title)())
{
    QMenu* file = menuBar()->addMenu(QString());
    QAction* exportTable = file->addAction(QString(), this, &StudyWindow::exportTable);
    QAction* exportPicture
        = file->addAction(QString(), QKeySequence(Qt::CTRL | Qt::Key_E), this, &StudyWindow::exportPicture);
    file->addSeparator();
    QAction* close = file->addAction(QString(), QKeySequence::Close, this, &QWidget::close);
    QMenu* work = menuBar()->addMenu(QString());
    work->addAction(m_runAction);
    work->addAction(m_stopAction);
    m_texts.add([=] {
        file->setTitle(tr("&File"));
        exportTable->setText(tr("Export &Table (CSV or JSON)…"));
        exportPicture->setText(tr("Export &Picture…"));
        close->setText(tr("&Close"));
        work->setTitle(title());
    });
    return work;
}

void StudyWindow::setPictureParts(QWidget* chart, QString (*name)())
{
    m_chart = chart;
    m_chartName = name;
}

QTableView* StudyWindow::arrange(QWidget* chart, QAbstractItemModel* model, const QList<int>& sizes, int widest)
{
    m_table = ChartAndTable::arrange(this, m_controls, chart, model, sizes);
    m_tableWidest = widest;
    fitTable();
    return m_table;
}

void StudyWindow::setTableExport(const QString& defaultName, QString (*emptyText)())
{
    m_tableFile = defaultName;
    m_emptyText = emptyText;
}

void StudyWindow::fitTable()
{
    if (m_table && m_tableWidest > 0)
        ChartAndTable::fitTable(m_table, m_tableWidest);
}

QLabel* StudyWindow::messageFor(const QString&) const
{
    return nullptr;
}

void StudyWindow::validate()
{
    const QString error = fieldsError();
    QLabel* at = error.isEmpty() ? nullptr : messageFor(error);
    // The message sits under the field it is about.
    for (const auto& [message, field] : std::as_const(m_messages)) {
        const bool shown = message == at;
        message->setText(shown ? QStringLiteral("⚠ ") + error : QString());
        message->setStyleSheet(warningStyle(this, shown));
        message->setVisible(shown);
        field->setAccessibleDescription(shown ? error : QString());
    }
    if (!error.isEmpty() && !at)
        showLine([this]() -> QString { return QStringLiteral("⚠ ") + fieldsError(); }, true);
    else
        showLine(m_status, m_statusWarning); // the last run's status, once the plan is fine again
    m_run->setEnabled(error.isEmpty() && !isRunning());
}

void StudyWindow::setRunning(bool running)
{
    for (QWidget* field : std::as_const(m_fields))
        field->setEnabled(!running);
    m_stop->setEnabled(running);
    validate();
}

void StudyWindow::run()
{
    if (isRunning())
        return;
    if (!fieldsError().isEmpty()) {
        validate(); // shows why
        return;
    }
    if (!m_session->isUsable()) {
        showProgress([] { return tr("Not connected to Redis: connect in the main window first."); }, true);
        return;
    }
    if (!confirmRemoteLoad(this, m_session->endpoint(), &m_confirmedRemote))
        return;
    if (!start(m_session))
        return;
    m_elapsed.start();
    setRunning(true);
}

void StudyWindow::stop()
{
    stopWork();
}

void StudyWindow::exportTable()
{
    ChartAndTable::saveTable(this, !m_table || m_table->model()->rowCount() == 0,
                             {tr("Export Table"), m_emptyText ? m_emptyText() : QString(), m_tableFile,
                              tr("CSV tables (*.csv);;JSON documents (*.json)"), tr("Saved %1")},
                             [this](const QString& path, QString* error) { return writeTable(path, error); });
}

void StudyWindow::exportPicture()
{
    QList<PicturePart> parts {{tr("Whole window"), this}};
    if (m_chart)
        parts.append({m_chartName(), m_chart});
    if (m_table)
        parts.append({tr("Table"), m_table});
    const QString saved = PictureExport::exportWithDialog(parts, this);
    if (!saved.isEmpty())
        statusBar()->showMessage(tr("Saved %1").arg(saved), 5000);
}

void StudyWindow::showProgress(std::function<QString()> text, bool warning)
{
    m_status = text;
    m_statusWarning = warning;
    showLine(std::move(text), warning);
}

void StudyWindow::showLine(std::function<QString()> text, bool warning)
{
    m_progress->setProperty("warning", warning);
    m_progress->setStyleSheet(warningStyle(this, warning));
    m_texts.setLive(m_progress, [this, text = std::move(text)] { m_progress->setText(text()); });
}

void StudyWindow::changeEvent(QEvent* event)
{
    QMainWindow::changeEvent(event);
    if (event->type() != QEvent::LanguageChange)
        return;
    m_texts.retranslate();
    validate();
    if (m_table && m_table->model())
        emit m_table->model()->headerDataChanged(Qt::Horizontal, 0, m_table->model()->columnCount() - 1);
    fitTable();
    retranslated();
}

void StudyWindow::closeEvent(QCloseEvent* event)
{
    // A hidden window should not keep loading the server.
    stopWork();
    event->accept();
}
