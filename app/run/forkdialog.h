#pragma once

// ForkDialog: "from request N on, with …": the limiter, limit and window of a what-if.

#include "replay/replayfork.h"

#include <QDialog>

class QComboBox;
class QSpinBox;

class ForkDialog : public QDialog
{
    Q_OBJECT
public:
    // `from`: the fork's first request (0-based) in `recording`, whose limiter, limit and window
    // the fields start from.
    ForkDialog(const Recording& recording, int from, QWidget* parent = nullptr);
    ForkChange change() const;

private:
    QComboBox* m_limiter = nullptr;
    QSpinBox* m_limit = nullptr;
    QSpinBox* m_window = nullptr;
    QString m_originalLimiter;
    qint64 m_originalLimit = 0;
    qint64 m_originalWindowMs = 0;
};
