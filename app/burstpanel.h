#pragma once

#include "burstplan.h"

#include <QWidget>

class QAbstractButton;
class QButtonGroup;
class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QGroupBox;
class QLabel;
class QPushButton;
class QSpinBox;

// The controls of a burst. The member strategy comes first and largest: "member = now (the
// bug)" or "unique member" (random, request id or sequence). Every field is bounded at the
// control, so what plan() returns is always valid.
class BurstPanel : public QWidget
{
    Q_OBJECT
public:
    explicit BurstPanel(QWidget* parent = nullptr);

    BurstPlan plan() const;
    void setPlan(const BurstPlan& plan);
    bool compareMode() const;
    void setCompareMode(bool on);
    MemberStrategy uniqueStrategy() const;
    void setUniqueStrategy(MemberStrategy strategy);
    void setRunning(bool running);
    // A user's script to fire, as chosen in the script doctor; selects it.
    void setCustomScript(const LimiterScript& script, std::shared_ptr<const CallTemplate> call, ReplyStyle style);
    bool hasCustomScript() const { return m_customScript.isValid(); }

    QPushButton* fireButton() const { return m_fire; }
    QPushButton* stopButton() const { return m_stop; }
    QPushButton* resetButton() const { return m_reset; }

protected:
    void changeEvent(QEvent* event) override;

signals:
    void fireRequested();
    void stopRequested();
    void resetRequested();
    void compareModeChanged(bool on);
    void customScriptRequested();

private:
    void updatePacingField();
    void applyFonts();
    void retranslate();
    void updateStrategyHint();

    QButtonGroup* m_member = nullptr;
    QGroupBox* m_memberBox = nullptr;
    QGroupBox* m_burstBox = nullptr;
    QAbstractButton* m_nowButton = nullptr;
    QAbstractButton* m_uniqueButton = nullptr;
    QAbstractButton* m_customButton = nullptr;
    QPushButton* m_customEdit = nullptr;
    LimiterScript m_customScript;
    std::shared_ptr<const CallTemplate> m_callTemplate;
    ReplyStyle m_replyStyle = ReplyStyle::CountWithCall;
    QVector<ClientProfile> m_clients; // simulated app servers from a scenario; kept as they are
    QComboBox* m_uniqueKind = nullptr;
    QLabel* m_strategyHint = nullptr;
    QCheckBox* m_compare = nullptr;
    QSpinBox* m_requests = nullptr;
    QSpinBox* m_connections = nullptr;
    QSpinBox* m_pipeline = nullptr;
    QComboBox* m_pacing = nullptr;
    QDoubleSpinBox* m_pacingValue = nullptr;
    QComboBox* m_clock = nullptr;
    QSpinBox* m_window = nullptr;
    QSpinBox* m_limit = nullptr;
    QPushButton* m_fire = nullptr;
    QPushButton* m_stop = nullptr;
    QPushButton* m_reset = nullptr;
};
