#pragma once

#include "widgets/retranslator.h"

#include <QElapsedTimer>
#include <QList>
#include <QMainWindow>

#include <functional>

class QAbstractItemModel;
class QAction;
class QFormLayout;
class QLabel;
class QMenu;
class QPushButton;
class QTableView;
class QVBoxLayout;
class ServerSession;

// A study: one of the app's measuring tools (Compare Algorithms, Rate Sweep, Simulated Servers),
// many runs summed up in one table, in a window of its own (the main window's runs, one burst or
// two side by side, are core/burst's LimiterExperiment).
// Each is a column of fields on the left with Run and Stop and a progress line under them, and
// the result beside it: a chart (or lanes) and a table of the same numbers, which the user exports
// as CSV or JSON and as pictures. The work runs on its own threads against the main window's
// server (its ServerSession); this class keeps the controls in step with it:
// - Run is enabled while the fields make a plan and nothing runs; Stop only while something runs,
//   when the fields are disabled too;
// - a field's error shows under the field it is about, or as a warning in the progress line until
//   the fields make a plan again (the last run's status comes back then);
// - Run checks the connection and asks before loading a remote server, then the subclass starts;
// - closing the window stops the work: nobody would see the rest;
// - texts follow the language (Retranslator), the progress line and the table's headers too.
// A subclass makes its fields, says what is wrong with them, starts and stops its work, says
// whether it runs, and writes its table.
class StudyWindow : public QMainWindow
{
    Q_OBJECT
public:
    ~StudyWindow() override;

    virtual bool isRunning() const = 0;
    // Writes the table as CSV, or as JSON when the path ends in .json (ResultFile).
    virtual bool writeTable(const QString& path, QString* error) const = 0;

    QPushButton* runButton() const { return m_run; }
    QPushButton* stopButton() const { return m_stop; }
    QLabel* progressLine() const { return m_progress; }
    QTableView* table() const { return m_table; }

public slots:
    // Starts the work the fields describe, or says why not.
    void run();
    void stop();
    void exportTable();
    void exportPicture();

protected:
    StudyWindow(ServerSession* session, const QString& objectName, QWidget* parent);

    // The window of type W that belongs to `owner`, made on first use, shown and raised.
    template<typename W>
    static W* showFor(QWidget* owner, ServerSession* session)
    {
        auto* window = owner->findChild<W*>(QString(), Qt::FindDirectChildrenOnly);
        if (!window)
            window = new W(session, owner);
        present(window, owner);
        return window;
    }

    ServerSession* session() const { return m_session; }
    // What is wrong with the fields (a plan's error), empty when they make a plan.
    virtual QString fieldsError() const = 0;
    // The message label under the field that `error` is about (made by fieldWithMessage()), or
    // nullptr for the progress line.
    virtual QLabel* messageFor(const QString& error) const;
    // Starts the work on the session's server (connected, and confirmed when remote), after
    // clearing the last result; false once it said why not in the progress line.
    virtual bool start(ServerSession* session) = 0;
    virtual void stopWork() = 0;
    // After the texts were made again in a new language.
    virtual void retranslated() { }

    // The controls column, `width` wide at most, with its form of fields (the form is the first
    // item of column()).
    QFormLayout* createControls(int width);
    QWidget* controls() const { return m_controls; }
    QVBoxLayout* column() const { return m_column; }
    // A field with a message label under it, hidden until the field is wrong: the layout for a
    // form row; *message is the label.
    QLayout* fieldWithMessage(QWidget* field, QLabel** message, const QString& objectName = {});
    // Run and Stop in a row, the progress line under them and a stretch, at the end of column().
    void addRunButtons(QString (*runText)());
    // Export buttons (table, picture) at the end of column(), for a window without menus.
    void addExportButtons();
    // The File menu (export, close) and the run menu titled `title` (Run F5, Stop Escape), which
    // is returned for more; a window without menus gets the shortcuts all the same.
    QMenu* createMenus(QString (*title)());
    // The fields that are disabled while the work runs.
    void setFields(const QList<QWidget*>& fields) { m_fields = fields; }
    // The chart (or lanes) as a picture part, named by `name`, and the table.
    void setPictureParts(QWidget* chart, QString (*name)());
    // The controls, then `chart` and beside it the table of `model`, `sizes` wide; the table fits
    // its columns up to `widest`.
    QTableView* arrange(QWidget* chart, QAbstractItemModel* model, const QList<int>& sizes, int widest);
    // For a window that arranges its table itself.
    void setTable(QTableView* table) { m_table = table; }
    // The table's file name offered and what is said when it is empty.
    void setTableExport(const QString& defaultName, QString (*emptyText)());
    void fitTable();

    // Enables Run, Stop and the fields for the state of the work, and shows what is wrong.
    void setRunning(bool running);
    // Shows the fields' error, if any, and enables Run when there is none and nothing runs.
    void validate();
    // The progress line: the status of the work, made again in the new language on a language
    // change, kept while a field's warning shows in its place.
    void showProgress(std::function<QString()> text, bool warning = false);
    // Seconds since the work started.
    double elapsedSeconds() const { return double(m_elapsed.elapsed()) / 1000.0; }

    void changeEvent(QEvent* event) override;
    void closeEvent(QCloseEvent* event) override;

    Retranslator m_texts;

private:
    static void present(QWidget* window, QWidget* owner);
    void showLine(std::function<QString()> text, bool warning);

    ServerSession* m_session;
    QWidget* m_controls = nullptr;
    QVBoxLayout* m_column = nullptr;
    QList<QWidget*> m_fields;
    QList<QPair<QLabel*, QWidget*>> m_messages; // a field's message label, and the field
    QPushButton* m_run = nullptr;
    QPushButton* m_stop = nullptr;
    QLabel* m_progress = nullptr;
    QAction* m_runAction = nullptr;
    QAction* m_stopAction = nullptr;
    QTableView* m_table = nullptr;
    int m_tableWidest = 0; // 0: the table sizes its columns itself
    QWidget* m_chart = nullptr;
    QString (*m_chartName)() = nullptr;
    QString m_tableFile;
    QString (*m_emptyText)() = nullptr;
    QElapsedTimer m_elapsed;
    std::function<QString()> m_status = [] { return QString(); };
    bool m_statusWarning = false;
    QString m_confirmedRemote; // the remote endpoint the user agreed to load
};
