#pragma once

#include "ratesweep.h"
#include "retranslator.h"

#include "burstfields.h"
#include <QElapsedTimer>

#include <QMainWindow>

#include <functional>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTableView;
class ServerSession;
class SimulatedServersWindow;
class SweepChart;
class SweepTableModel;

// "Collision curve": sweeps the arrival rate and plots the stored share that Redis really kept
// over the theory for member = now, with the numbers in a table beside the chart. The bursts run
// on the sweep's own threads; this window only arranges the fields, the chart and the table.
// It fires at the main window's server (its ServerSession).
class SweepWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit SweepWindow(ServerSession* session, QWidget* parent = nullptr);
    ~SweepWindow() override;

    // The window that belongs to `owner`, made on first use, shown and raised.
    static SweepWindow* showFor(QWidget* owner, ServerSession* session);

    // The sweep the fields describe; false with the message that is also shown at the field.
    bool plan(SweepPlan* plan, QString* error = nullptr) const;
    void setPlan(const SweepPlan& plan);
    bool isRunning() const { return m_sweep->isRunning(); }
    const SweepResult& result() const { return m_sweep->result(); }
    RateSweep* sweep() const { return m_sweep; }

    // Writes the table as CSV, or as JSON when the path ends in .json.
    bool writeTable(const QString& path, QString* error) const;

    QLineEdit* ratesField() const { return m_rates; }
    QLabel* ratesMessage() const { return m_ratesMessage; }
    QComboBox* pacingField() const { return m_pacing; }
    QSpinBox* requestsField() const { return m_requests; }
    QComboBox* clockField() const { return m_clock; }
    QComboBox* strategyField() const { return m_strategy; }
    QSpinBox* windowField() const { return m_window; }
    QSpinBox* limitField() const { return m_limit; }
    QPushButton* runButton() const { return m_run; }
    QPushButton* stopButton() const { return m_stop; }
    QLabel* progressLine() const { return m_progress; }
    SweepChart* chart() const { return m_chart; }
    QTableView* table() const { return m_table; }
    SweepTableModel* model() const { return m_model; }
    // The "Simulated servers" window, made on first use.
    SimulatedServersWindow* simulatedServers();

public slots:
    void run();
    void stop();

protected:
    void changeEvent(QEvent* event) override;
    void closeEvent(QCloseEvent* event) override;

private:
    QWidget* createControls();
    void createMenus();
    void validateRates();
    void setRunning(bool running);
    // The progress line, made again in the new language on a language change.
    void showProgress(std::function<QString()> text);
    void onProgress(int index, int finished, int total);
    void onPointFinished(const SweepPoint& point);
    void fitTable();
    void onFinished();
    void exportTable();
    void exportPicture();

    ServerSession* m_session;
    RateSweep* m_sweep = nullptr;
    QLineEdit* m_rates = nullptr;
    QLabel* m_ratesMessage = nullptr;
    QComboBox* m_pacing = nullptr;
    QSpinBox* m_requests = nullptr;
    QComboBox* m_clock = nullptr;
    QComboBox* m_strategy = nullptr;
    BurstFields m_fields;
    QSpinBox* m_window = nullptr;
    QSpinBox* m_limit = nullptr;
    QPushButton* m_run = nullptr;
    QPushButton* m_stop = nullptr;
    QLabel* m_progress = nullptr;
    SweepChart* m_chart = nullptr;
    QTableView* m_table = nullptr;
    SweepTableModel* m_model = nullptr;
    SimulatedServersWindow* m_servers = nullptr;
    QElapsedTimer m_elapsed;
    Retranslator m_texts;
    QString m_confirmedRemote; // the remote endpoint the user agreed to load
};
