#pragma once

#include "algorithms/algorithmcomparison.h"
#include "studywindow.h"

#include <QMap>

class AlgorithmsChart;
class AlgorithmsTableModel;
class QCheckBox;
class QComboBox;
class QLineEdit;
class QSpinBox;

// "Compare algorithms": fires the same traffic at each chosen limiter algorithm and plots how
// often each decided otherwise than the exact sliding log against the memory it kept per user,
// with the numbers in a table beside the chart. The comparison runs on its own thread
// (AlgorithmComparison); this window only arranges the fields, the chart and the table
// (StudyWindow: the controls, Run and Stop, the progress line, the exports).
class AlgorithmsWindow : public StudyWindow
{
    Q_OBJECT
public:
    explicit AlgorithmsWindow(ServerSession* session, QWidget* parent = nullptr);
    ~AlgorithmsWindow() override;

    // The window that belongs to `owner`, made on first use, shown and raised.
    static AlgorithmsWindow* showFor(QWidget* owner, ServerSession* session)
    {
        return StudyWindow::showFor<AlgorithmsWindow>(owner, session);
    }
    // The shipped traffic that shows the algorithms apart (resource paths of scenario files).
    static QStringList scenarioPaths();

    // The comparison the fields describe; false with the message.
    bool plan(ComparisonPlan* plan, QString* error = nullptr) const;
    void setPlan(const ComparisonPlan& plan);
    // Takes the traffic of a shipped scenario (an index into scenarioPaths()); false if unreadable.
    bool chooseScenario(int index);
    bool isRunning() const override { return m_comparison->isRunning(); }
    const ComparisonResult& result() const { return m_comparison->result(); }
    AlgorithmComparison* comparison() const { return m_comparison; }

    // Writes the table as CSV, or as JSON (ComparisonResult::toJson()) when the path ends in .json.
    bool writeTable(const QString& path, QString* error) const override;

    QComboBox* scenarioField() const { return m_scenario; }
    QSpinBox* requestsField() const { return m_requests; }
    QLineEdit* paceField() const { return m_pace; }
    QComboBox* clockField() const { return m_clock; }
    QSpinBox* windowField() const { return m_window; }
    QSpinBox* limitField() const { return m_limit; }
    QSpinBox* usersField() const { return m_users; }
    // One checkbox per algorithm of the catalog, by id.
    QCheckBox* algorithmBox(const QString& id) const { return m_algorithms.value(id); }
    AlgorithmsChart* chart() const { return m_chart; }
    AlgorithmsTableModel* model() const { return m_model; }

protected:
    QString fieldsError() const override;
    bool start(ServerSession* session) override;
    void stopWork() override;

private:
    void createControls();
    QWidget* createAlgorithmBoxes(QWidget* parent);
    QStringList chosenAlgorithms() const;
    void onProgress(int index, int answered, int total);
    void onAlgorithmFinished(const AlgorithmTally& tally);
    void onFinished();

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
    AlgorithmsChart* m_chart = nullptr;
    AlgorithmsTableModel* m_model = nullptr;
    BurstPlan m_traffic; // what the fields do not show (seed, pipeline), from the last plan set
};
