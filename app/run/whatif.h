#pragma once

// WhatIf: the rest of a recorded run fired again at another limiter, shown beside it.

#include "burst/limiterexperiment.h"
#include "replay/recording.h"
#include "replay/replayfork.h"
#include "results/burstsummary.h"
#include "run/runcontroller.h"

#include <QObject>

#include <memory>

class FireControl;
class QWidget;

// A what-if from request N of the run on the left: asked with ForkDialog, fired by FireControl
// on new keys with the run's timestamps, then titled and compared with the run from N on. The
// window shows it on the right and clears it with the next burst or Reset.
class WhatIf : public QObject
{
    Q_OBJECT
public:
    struct Stage
    {
        RunController* runs = nullptr; // the left run is forked from (its recording and cursor); the fork is kept there
        FireControl* fireControl = nullptr;
        QWidget* dialogParent = nullptr;
    };
    explicit WhatIf(const Stage& stage, QObject* parent = nullptr);

    bool isActive() const { return m_stage.runs->hasFork(); }
    int from() const { return m_stage.runs->forkFrom(); }
    // The recording forked from (null when none is active).
    std::shared_ptr<const Recording> recording() const { return m_stage.runs->forkedRecording(); }
    void clear() { m_stage.runs->clearFork(); }

    // Asks, with the dialog, what changes from the cursor's request on; fires it when accepted.
    void ask();
    // Fires the what-if from request `from` (0-based); false with *error when it cannot.
    bool fire(int from, const ForkChange& change, QString* error);

    // The two sides' titles: "the run (member = now)", "what if (unique member), from request 3".
    QString runTitle() const;
    QString whatIfTitle(const LimiterRef& fix) const;
    // The status line once it ended: both sides from request N on, as far as the what-if went.
    QString comparison(const BurstSummary& fired, const QString& runTitle, const QString& whatIfTitle) const;

signals:
    // Fired: the window shows both sides, the run's cursor at `from`.
    void started(int from, int requests);
    // Asked, then not fired: why.
    void failed(const QString& message);

private:
    Stage m_stage;
};
