#pragma once

#include "limiters/limitercatalog.h"

#include <QWidget>

class PlanModel;
class QAbstractButton;
class QButtonGroup;
class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QGroupBox;
class QLabel;
class QPushButton;
class QSpinBox;

// The controls of a burst: an editor of the window's PlanModel, which owns the plan. The member
// strategy comes first and largest: "member = now (the bug)", "unique member" (the catalog's
// fixes) or the user's script. Every field is bounded at the control; a change of a field edits
// the model, and a change of the model (a scenario, the saved settings) shows in the fields.
class BurstPanel : public QWidget
{
    Q_OBJECT
public:
    explicit BurstPanel(PlanModel* model, QWidget* parent = nullptr);

    void setRunning(bool running);

    QPushButton* fireButton() const { return m_fire; }
    QPushButton* stopButton() const { return m_stop; }
    QPushButton* resetButton() const { return m_reset; }
    QComboBox* uniqueField() const { return m_uniqueKind; }

protected:
    void changeEvent(QEvent* event) override;

signals:
    void fireRequested();
    void stopRequested();
    void resetRequested();
    void customScriptRequested();

private:
    void showPlan(); // the model's plan into the fields
    void fillLimiters();
    void editMember();
    void editPacing();
    LimiterRef chosenFix() const;
    void updatePacingField();
    void applyFonts();
    void retranslate();
    void updateStrategyHint();

    PlanModel* m_model;
    bool m_showing = false; // showPlan() is setting the fields: their signals edit nothing
    bool m_running = false;
    QButtonGroup* m_member = nullptr;
    QGroupBox* m_memberBox = nullptr;
    QGroupBox* m_burstBox = nullptr;
    QAbstractButton* m_nowButton = nullptr;
    QAbstractButton* m_uniqueButton = nullptr;
    QAbstractButton* m_customButton = nullptr;
    QPushButton* m_customEdit = nullptr;
    QComboBox* m_uniqueKind = nullptr; // item data: index into m_fixes
    QVector<LimiterRef> m_fixes;
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
    QSpinBox* m_users = nullptr;
    QPushButton* m_fire = nullptr;
    QPushButton* m_stop = nullptr;
    QPushButton* m_reset = nullptr;
};
