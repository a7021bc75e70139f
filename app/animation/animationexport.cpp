#include "animationexport.h"

#include <QCoreApplication>
#include <QLocale>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace {
struct Text
{
    Q_DECLARE_TR_FUNCTIONS(AnimationExport)
};
} // namespace

QVector<AnimationShot> AnimationExport::schedule(int from, int to, double speed)
{
    QVector<AnimationShot> shots;
    if (to < from || speed <= 0)
        return shots;
    const qint64 requests = qint64(to) - from + 1;
    const int frames = int(std::min<qint64>(requests, maxFrames));
    // 20 s for the whole range at speed 1, a frame lasting from 0.1 s (many requests) to 1 s (few).
    const double perFrameMs = std::clamp(20000.0 / frames, 100.0, 1000.0) / speed;
    const int duration = std::max(20, int(std::lround(perFrameMs)));
    shots.reserve(frames);
    for (int f = 0; f < frames; ++f) {
        const int request = frames > 1 ? int(from + qint64(f) * (requests - 1) / (frames - 1)) : from;
        shots.append({request, duration});
    }
    shots.last().durationMs += 1500;
    return shots;
}

QString AnimationExport::sizeRefusal(qint64 requests)
{
    if (requests <= maxRequests)
        return {};
    const QLocale locale;
    return Text::tr("The replay holds %1 requests; an animation draws at most %2 (its charts hold the whole run, some "
                    "300 bytes a request). Export the run as a web page instead (zsetlab-cli replay FILE "
                    "--export-html PAGE.html), or record a shorter run.")
        .arg(locale.toString(requests), locale.toString(maxRequests));
}

QString AnimationExport::refusal(AnimationJob* job, int requests)
{
    const QLocale locale;
    if (requests < 1)
        return Text::tr("The replay holds no request to animate.");
    if (QString tooMany = sizeRefusal(requests); !tooMany.isEmpty())
        return tooMany;
    if (job->to < 0)
        job->to = requests - 1;
    if (job->from < 0 || job->from >= requests || job->to >= requests || job->to < job->from)
        return Text::tr("The replay has requests 1 to %1: requests %2 to %3 are not a part of it.")
            .arg(locale.toString(requests), locale.toString(job->from + 1), locale.toString(job->to + 1));
    if (!(job->speed >= slowestSpeed) || job->speed > fastestSpeed)
        return Text::tr("The speed must be from %1 to %2 (got %3).")
            .arg(locale.toString(slowestSpeed), locale.toString(fastestSpeed), locale.toString(job->speed));
    if (!AnimationEncoder::formatOf(job->path))
        return Text::tr("%1: name the file .gif, .mp4 or .webm.").arg(job->path);
    return {};
}

bool AnimationExport::write(const AnimationJob& job, const std::function<QImage(int request)>& pictureAt,
                            QString* error, const AnimationEncoder::Progress& progress)
{
    const QVector<AnimationShot> shots = schedule(job.from, job.to, job.speed);
    return AnimationEncoder::write(
        job.path, int(shots.size()),
        [&](int index) {
            const AnimationShot& shot = shots[index];
            QImage picture = pictureAt(shot.request);
            if (job.size.isValid() && picture.size() != job.size) {
                // A window that cannot be that small (or large) is scaled into the frame, centred.
                QImage frame(job.size, QImage::Format_RGB32);
                frame.fill(picture.pixel(0, 0));
                const QImage fitted = picture.scaled(job.size, Qt::KeepAspectRatio, Qt::SmoothTransformation);
                QPainter painter(&frame);
                painter.drawImage((job.size.width() - fitted.width()) / 2, (job.size.height() - fitted.height()) / 2,
                                  fitted);
                picture = frame;
            }
            return AnimationFrame {picture, shot.durationMs};
        },
        error, progress);
}
