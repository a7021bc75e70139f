#pragma once

#include "limiters/limitercatalog.h"

#include <QCoreApplication>

class QComboBox;
class QFormLayout;
class QSpinBox;
class QWidget;
class Retranslator;

// The clock, member, window and limit rows that the sweep window and the simulated servers
// dialog share: the same choices (item data: ClockKind, the limiter's catalog id), ranges and
// labels, with their texts kept in the window's Retranslator.
struct BurstFields
{
    Q_DECLARE_TR_FUNCTIONS(BurstFields)

public:
    QComboBox* clock = nullptr;
    QComboBox* limiterBox = nullptr;
    QSpinBox* window = nullptr; // ms
    QSpinBox* limit = nullptr; // 0: none

    static BurstFields addRows(QFormLayout* form, QWidget* panel, Retranslator& texts);
    // The limiter chosen in `limiterBox`, and choosing one.
    LimiterRef limiter() const;
    void setLimiter(const LimiterRef& limiter) const;
};
