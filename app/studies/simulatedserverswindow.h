#pragma once

#include "burst/burstengine.h"
#include "run/burstfields.h"
#include "studywindow.h"

class ClientTallyModel;
class QComboBox;
class QLineEdit;
class QSpinBox;
class TimelineView;

// "Simulated servers": K app servers firing at one limiter key, each on its own connection with
// its own arrivals, clock offset and drift (BurstPlan::clients, typed as "rate=2;rate=2,offset=40").
// Shows one timeline lane per server and a table of what each server's requests became, so that
// collisions across servers whose clocks agree, and the effect of a skewed clock, can be seen.
// The burst runs on the engine's threads (StudyWindow: the controls, Fire and Stop, the
// status line, the export buttons); it has no menus.
class SimulatedServersWindow : public StudyWindow
{
    Q_OBJECT
public:
    explicit SimulatedServersWindow(ServerSession* session, QWidget* parent = nullptr);
    ~SimulatedServersWindow() override;

    // The burst the fields describe; false with the message that is also shown at the field.
    bool plan(BurstPlan* plan, QString* error = nullptr) const;
    void setPlan(const BurstPlan& plan);
    bool isRunning() const override { return m_engine.isRunning(); }

    // Writes the servers table as CSV, or as JSON (with the burst's summary) for a .json path.
    bool writeTable(const QString& path, QString* error) const override;

    QComboBox* examplesField() const { return m_examples; }
    QLineEdit* serversField() const { return m_servers; }
    QLabel* serversMessage() const { return m_serversMessage; }
    QSpinBox* requestsField() const { return m_requests; }
    QComboBox* clockField() const { return m_clock; }
    QComboBox* limiterField() const { return m_limiter; }
    QSpinBox* windowField() const { return m_window; }
    QSpinBox* limitField() const { return m_limit; }
    QPushButton* fireButton() const { return runButton(); }
    QLabel* statusLine() const { return progressLine(); }
    TimelineView* lanes() const { return m_lanes; }
    ClientTallyModel* model() const { return m_model; }

signals:
    void burstFinished(const BurstSummary& summary);

public slots:
    void fire() { run(); }

protected:
    QString fieldsError() const override;
    QLabel* messageFor(const QString& error) const override;
    bool start(ServerSession* session) override;
    void stopWork() override;
    void retranslated() override;

private:
    void createControls();
    void loadExamples();
    void onRecords(int finished, int total);
    void onFinished(const BurstSummary& summary);

    BurstEngine m_engine;
    BurstPlan m_firedPlan;
    BurstPlan m_basePlan; // the last plan set whole (an example's): the fields edit a copy of it
    QComboBox* m_examples = nullptr;
    QLineEdit* m_servers = nullptr;
    QLabel* m_serversMessage = nullptr;
    QSpinBox* m_requests = nullptr;
    QComboBox* m_clock = nullptr;
    QComboBox* m_limiter = nullptr;
    BurstFields m_fields;
    QSpinBox* m_window = nullptr;
    QSpinBox* m_limit = nullptr;
    TimelineView* m_lanes = nullptr;
    ClientTallyModel* m_model = nullptr;
};
