#pragma once

// WhatIf: the rest of a recorded run fired again at another limiter, shown beside it.

#include "burstsummary.h"
#include "limiterexperiment.h"
#include "recording.h"
#include "replayfork.h"

#include <QObject>

#include <memory>
#include <optional>

class FireControl;
class QWidget;
class RunModel;

// A what-if from request N of the run on the left: asked with ForkDialog, fired by FireControl
// on new keys with the run's timestamps, then titled and compared with the run from N on. The
// window shows it on the right and clears it with the next burst or Reset.
class WhatIf : public QObject
{
    Q_OBJECT
public:
    struct Stage
    {
        RunModel* run = nullptr; // the run forked from (its recording and cursor)
        FireControl* fireControl = nullptr;
        QWidget* dialogParent = nullptr;
    };
    explicit WhatIf(const Stage& stage, QObject* parent = nullptr);

    bool isActive() const { return m_fork.has_value(); }
    int from() const { return m_fork ? m_fork->from : -1; }
    // The recording forked from (null when none is active).
    std::shared_ptr<const Recording> recording() const;
    void clear() { m_fork.reset(); }

    // Asks, with the dialog, what changes from the cursor's request on; fires it when accepted.
    void ask();
    // Fires the what-if from request `from` (0-based); false with *error when it cannot.
    bool fire(int from, const ForkChange& change, QString* error);

    // The two sides' titles: "the run (member = now)", "what if (unique member), from request 3".
    QString runTitle() const;
    QString whatIfTitle(const LimiterRef& fix) const;
    // Where the what-if's timeline starts: the run's own origin, so that both line up.
    qint64 originMs() const;
    // The members the what-if's keys held before its first request (for its recording).
    std::vector<SeededMember> seeded(const BurstPlan& fired) const;
    // The status line once it ended: both sides from request N on, as far as the what-if went.
    QString comparison(const BurstSummary& fired, const QString& runTitle, const QString& whatIfTitle) const;

signals:
    // Fired: the window shows both sides, the run's cursor at `from`.
    void started(int from, int requests);
    // Asked, then not fired: why.
    void failed(const QString& message);

private:
    struct Fork
    {
        int from = 0;
        std::shared_ptr<const Recording> recording;
    };
    Stage m_stage;
    std::optional<Fork> m_fork;
};
