#pragma once

// AnimationExport: a replay as an animation, request by request: which requests get a frame and
// for how long (slow where they are few, spread where they are many), each frame the window's
// own picture at that request, encoded by AnimationEncoder.

#include "animationencoder.h"

#include <QSize>
#include <QString>
#include <QVector>

struct AnimationJob
{
    QString path; // .gif, .mp4 or .webm
    int from = 0; // 0-based, inclusive
    int to = -1; // -1: the last request
    double speed = 1; // 2: twice as fast
    QSize size; // the frames' size (empty: the pictures' own); a picture of another size is fitted in
    bool wholeWindow = false; // frames of the whole window (menus, panels) instead of the run alone
};

struct AnimationShot
{
    int request = 0; // 0-based
    int durationMs = 0;
};

namespace AnimationExport {
// At most this many frames, whatever the range.
constexpr int maxFrames = 300;
// The speeds an animation takes: at the slowest, 300 frames last 5 minutes in all.
constexpr double slowestSpeed = 0.1;
constexpr double fastestSpeed = 1000;
// The most requests of a run an animation draws: each frame's charts show the whole run, which
// costs some 300 bytes a request (bench_bounds: 336 MB for 1,000,000, 3 GB for 10,400,000), so
// an animation holds at most about 700 MB. A longer run is refused (its web page plays it).
constexpr qint64 maxRequests = 2'000'000;
// Empty when a run of `requests` may be animated; else why not and what to do instead.
QString sizeRefusal(qint64 requests);
// The frames for requests from..to: one per request, a second each at speed 1, while they are
// few; spread evenly over the range when they are many (at least 100 ms a frame); the last one
// held 1.5 s longer, to be read.
QVector<AnimationShot> schedule(int from, int to, double speed);
// Checks the job against a replay of `requests` requests (to = -1 becomes the last); the message
// names what to change.
QString refusal(AnimationJob* job, int requests);
// Writes the job, asking `pictureAt(request)` for each frame's picture.
bool write(const AnimationJob& job, const std::function<QImage(int request)>& pictureAt, QString* error,
           const AnimationEncoder::Progress& progress = {});
} // namespace AnimationExport
