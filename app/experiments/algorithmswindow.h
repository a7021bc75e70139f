#pragma once

#include "algorithmcomparison.h"
#include "retranslator.h"

#include <QElapsedTimer>
#include <QMainWindow>
#include <QMap>

#include <functional>

class AlgorithmsChart;
class AlgorithmsTableModel;
class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTableView;
class ServerSession;

// "Compare algorithms": fires the same traffic at each chosen limiter algorithm and plots how
// often each decided otherwise than the exact sliding log against the memory it kept per user,
// with the numbers in a table beside the chart. The comparison runs on its own thread
// (AlgorithmComparison); this window only arranges the fields, the chart and the table. It fires
// at the main window's server (its ServerSession).
class AlgorithmsWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit AlgorithmsWindow(ServerSession* session, QWidget* parent = nullptr);
    ~AlgorithmsWindow() override;

    // The window that belongs to `owner`, made on first use, shown and raised.
    static AlgorithmsWindow* showFor(QWidget* owner, ServerSession* session);
    // The shipped traffic that shows the algorithms apart (resource paths of scenario files).
    static QStringList scenarioPaths();

    // The comparison the fields describe; false with the message.
    bool plan(ComparisonPlan* plan, QString* error = nullptr) const;
    void setPlan(const ComparisonPlan& plan);
    // Takes the traffic of a shipped scenario (an index into scenarioPaths()); false if unreadable.
    bool chooseScenario(int index);
    bool isRunning() const { return m_comparison->isRunning(); }
    const ComparisonResult& result() const { return m_comparison->result(); }
    AlgorithmComparison* comparison() const { return m_comparison; }

    // Writes the table as CSV, or as JSON (ComparisonResult::toJson()) when the path ends in .json.
    bool writeTable(const QString& path, QString* error) const;

    QComboBox* scenarioField() const { return m_scenario; }
    QSpinBox* requestsField() const { return m_requests; }
    QLineEdit* paceField() const { return m_pace; }
    QComboBox* clockField() const { return m_clock; }
    QSpinBox* windowField() const { return m_window; }
    QSpinBox* limitField() const { return m_limit; }
    QSpinBox* usersField() const { return m_users; }
    // One checkbox per algorithm of the catalog, by id.
    QCheckBox* algorithmBox(const QString& id) const { return m_algorithms.value(id); }
    QPushButton* runButton() const { return m_run; }
    QPushButton* stopButton() const { return m_stop; }
    QLabel* progressLine() const { return m_progress; }
    AlgorithmsChart* chart() const { return m_chart; }
    QTableView* table() const { return m_table; }
    AlgorithmsTableModel* model() const { return m_model; }

public slots:
    void run();
    void stop();

protected:
    void changeEvent(QEvent* event) override;
    void closeEvent(QCloseEvent* event) override;

private:
    QWidget* createControls();
    QWidget* createAlgorithmBoxes(QWidget* parent);
    void createMenus();
    void validate();
    void setRunning(bool running);
    // The progress line, made again in the new language on a language change.
    // The status of the last run (kept: a plan warning shows in its place while the plan is invalid).
    void showProgress(std::function<QString()> text, bool warning = false);
    void showLine(std::function<QString()> text, bool warning);
    void onProgress(int index, int answered, int total);
    void onAlgorithmFinished(const AlgorithmTally& tally);
    void onFinished();
    void fitTable();
    void exportTable();
    void exportPicture();

    ServerSession* m_session;
    AlgorithmComparison* m_comparison = nullptr;
    QComboBox* m_scenario = nullptr;
    QSpinBox* m_requests = nullptr;
    QLineEdit* m_pace = nullptr;
    QComboBox* m_clock = nullptr;
    QSpinBox* m_window = nullptr;
    QSpinBox* m_limit = nullptr;
    QSpinBox* m_users = nullptr;
    QMap<QString, QCheckBox*> m_algorithms;
    QStringList m_order; // the catalog's order of the boxes
    QPushButton* m_run = nullptr;
    QPushButton* m_stop = nullptr;
    QLabel* m_progress = nullptr;
    AlgorithmsChart* m_chart = nullptr;
    QTableView* m_table = nullptr;
    AlgorithmsTableModel* m_model = nullptr;
    QElapsedTimer m_elapsed;
    std::function<QString()> m_status = [] { return QString(); };
    bool m_statusWarning = false;
    Retranslator m_texts;
    QString m_confirmedRemote; // the remote endpoint the user agreed to load
    BurstPlan m_traffic; // what the fields do not show (seed, pipeline), from the last plan set
};
