#pragma once

#include "burstengine.h"
#include "burstfields.h"
#include "retranslator.h"

#include <QDialog>

#include <functional>

class TimelineView;
class ClientTallyModel;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTableView;
class ServerSession;

// "Simulated servers": K app servers firing at one limiter key, each on its own connection with
// its own arrivals, clock offset and drift (BurstPlan::clients, typed as "rate=2;rate=2,offset=40").
// Shows one timeline lane per server and a table of what each server's requests became, so that
// collisions across servers whose clocks agree, and the effect of a skewed clock, can be seen.
// The burst runs on the engine's threads; non-modal.
class SimulatedServersWindow : public QDialog
{
    Q_OBJECT
public:
    explicit SimulatedServersWindow(ServerSession* session, QWidget* parent = nullptr);
    ~SimulatedServersWindow() override;

    // The burst the fields describe; false with the message that is also shown at the field.
    bool plan(BurstPlan* plan, QString* error = nullptr) const;
    void setPlan(const BurstPlan& plan);
    const BurstEngine& engine() const { return m_engine; }
    bool isRunning() const { return m_engine.isRunning(); }

    // Writes the servers table as CSV, or as JSON (with the burst's summary) for a .json path.
    bool writeTable(const QString& path, QString* error) const;

    QComboBox* examplesField() const { return m_examples; }
    QLineEdit* serversField() const { return m_servers; }
    QLabel* serversMessage() const { return m_serversMessage; }
    QSpinBox* requestsField() const { return m_requests; }
    QComboBox* clockField() const { return m_clock; }
    QComboBox* strategyField() const { return m_strategy; }
    QSpinBox* windowField() const { return m_window; }
    QSpinBox* limitField() const { return m_limit; }
    QPushButton* fireButton() const { return m_fire; }
    QPushButton* stopButton() const { return m_stop; }
    QLabel* statusLine() const { return m_status; }
    TimelineView* lanes() const { return m_lanes; }
    QTableView* table() const { return m_table; }
    ClientTallyModel* model() const { return m_model; }

signals:
    void burstFinished(const BurstSummary& summary);

public slots:
    void fire();
    void stop();
    void reject() override;

protected:
    void changeEvent(QEvent* event) override;

private:
    QWidget* createControls();
    void loadExamples();
    void validateServers();
    void setRunning(bool running);
    // The status line, made again in the new language on a language change.
    void showStatus(std::function<QString()> text);
    void onRecords(int finished, int total);
    void onFinished(const BurstSummary& summary);
    void exportTable();
    void exportPicture();

    ServerSession* m_session;
    BurstEngine m_engine;
    BurstPlan m_firedPlan;
    BurstPlan m_basePlan; // the last plan set whole (an example's): the fields edit a copy of it
    QComboBox* m_examples = nullptr;
    QLineEdit* m_servers = nullptr;
    QLabel* m_serversMessage = nullptr;
    QSpinBox* m_requests = nullptr;
    QComboBox* m_clock = nullptr;
    QComboBox* m_strategy = nullptr;
    BurstFields m_fields;
    QSpinBox* m_window = nullptr;
    QSpinBox* m_limit = nullptr;
    QPushButton* m_fire = nullptr;
    QPushButton* m_stop = nullptr;
    QLabel* m_status = nullptr;
    TimelineView* m_lanes = nullptr;
    QTableView* m_table = nullptr;
    ClientTallyModel* m_model = nullptr;
    QString m_confirmedRemote;
    Retranslator m_texts;
};
