#pragma once

#include "results/timelinescale.h"

#include <QHash>
#include <QObject>

// The visible stretch of one or more timelines: compare mode's two views share one, so that
// zooming or panning either moves both. Until the user zooms or pans, it follows the data: it
// fits everything the views report.
class TimelineViewport : public QObject
{
    Q_OBJECT
public:
    explicit TimelineViewport(QObject* parent = nullptr);

    const TimelineRange& range() const { return m_range; }
    // The user's choice: stops following the data.
    void setRange(const TimelineRange& range);
    bool followsData() const { return m_following; }
    // What a view holds, [firstMs, lastMs]; the viewport fits it while following the data.
    void setExtent(const QObject* view, qint64 firstMs, qint64 lastMs);
    void removeExtent(const QObject* view);
    // Shows everything the views hold and follows the data again.
    void fitAll();

signals:
    void changed();

private:
    TimelineRange m_range;
    bool m_following = true;
    struct Extent
    {
        qint64 firstMs;
        qint64 lastMs;
    };
    QHash<const QObject*, Extent> m_extents;
};
