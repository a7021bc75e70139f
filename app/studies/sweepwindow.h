#pragma once

#include "burst/ratesweep.h"
#include "run/burstfields.h"
#include "studywindow.h"

class QComboBox;
class QLineEdit;
class QSpinBox;
class SimulatedServersWindow;
class SweepChart;
class SweepTableModel;

// "Collision curve": sweeps the arrival rate and plots the stored share that Redis really kept
// over the theory for member = now, with the numbers in a table beside the chart. The bursts run
// on the sweep's own threads; this window only arranges the fields, the chart and the table
// (StudyWindow: the controls, Run and Stop, the progress line, the exports).
class SweepWindow : public StudyWindow
{
    Q_OBJECT
public:
    explicit SweepWindow(ServerSession* session, QWidget* parent = nullptr);
    ~SweepWindow() override;

    // The window that belongs to `owner`, made on first use, shown and raised.
    static SweepWindow* showFor(QWidget* owner, ServerSession* session)
    {
        return StudyWindow::showFor<SweepWindow>(owner, session);
    }

    // The sweep the fields describe; false with the message that is also shown at the field.
    bool plan(SweepPlan* plan, QString* error = nullptr) const;
    void setPlan(const SweepPlan& plan);
    bool isRunning() const override { return m_sweep->isRunning(); }
    const SweepResult& result() const { return m_sweep->result(); }
    RateSweep* sweep() const { return m_sweep; }

    // Writes the table as CSV, or as JSON when the path ends in .json.
    bool writeTable(const QString& path, QString* error) const override;

    QLineEdit* ratesField() const { return m_rates; }
    QLabel* ratesMessage() const { return m_ratesMessage; }
    QComboBox* pacingField() const { return m_pacing; }
    QSpinBox* requestsField() const { return m_requests; }
    QComboBox* clockField() const { return m_clock; }
    QComboBox* limiterField() const { return m_limiter; }
    QSpinBox* windowField() const { return m_window; }
    QSpinBox* limitField() const { return m_limit; }
    SweepChart* chart() const { return m_chart; }
    SweepTableModel* model() const { return m_model; }
    // The "Simulated servers" window, made on first use.
    SimulatedServersWindow* simulatedServers();

protected:
    QString fieldsError() const override;
    QLabel* messageFor(const QString& error) const override;
    bool start(ServerSession* session) override;
    void stopWork() override;

private:
    void createControls();
    void showSimulatedServers();
    void onProgress(int index, int finished, int total);
    void onPointFinished(const SweepPoint& point);
    void onFinished();

    RateSweep* m_sweep = nullptr;
    QLineEdit* m_rates = nullptr;
    QLabel* m_ratesMessage = nullptr;
    QComboBox* m_pacing = nullptr;
    QSpinBox* m_requests = nullptr;
    QComboBox* m_clock = nullptr;
    QComboBox* m_limiter = nullptr;
    BurstFields m_fields;
    QSpinBox* m_window = nullptr;
    QSpinBox* m_limit = nullptr;
    SweepChart* m_chart = nullptr;
    SweepTableModel* m_model = nullptr;
    SimulatedServersWindow* m_servers = nullptr;
};
