#include "animationencoder.h"

#include "base/outputfile.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavfilter/avfilter.h>
#include <libavfilter/buffersink.h>
#include <libavfilter/buffersrc.h>
#include <libavformat/avformat.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libswscale/swscale.h>
}

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <thread>

namespace {
struct Text
{
    Q_DECLARE_TR_FUNCTIONS(AnimationEncoder)
};

QString ffmpegError(int code)
{
    char text[AV_ERROR_MAX_STRING_SIZE] = {};
    av_strerror(code, text, sizeof text);
    return QString::fromUtf8(text);
}

struct FrameFree
{
    void operator()(AVFrame* f) const { av_frame_free(&f); }
};
using FramePtr = std::unique_ptr<AVFrame, FrameFree>;

struct GraphFree
{
    void operator()(AVFilterGraph* g) const { avfilter_graph_free(&g); }
};
using GraphPtr = std::unique_ptr<AVFilterGraph, GraphFree>;

// A QImage as an AVFrame in BGRA (QImage's ARGB32 on a little-endian machine), pts set.
FramePtr bgraFrame(const QImage& image, QSize size, int64_t pts)
{
    // RGB32 (0xffRRGGBB, what a widget's picture is) and ARGB32 are that layout already: their
    // lines are copied as they are, one copy of the frame rather than three.
    const bool asIs = (image.format() == QImage::Format_RGB32 || image.format() == QImage::Format_ARGB32)
        && image.width() >= size.width() && image.height() >= size.height();
    const QImage rgb = asIs ? image : image.convertToFormat(QImage::Format_ARGB32);
    if (rgb.width() < size.width() || rgb.height() < size.height())
        return nullptr;
    FramePtr frame(av_frame_alloc());
    frame->format = AV_PIX_FMT_BGRA;
    frame->width = size.width(); // even sizes for 4:2:0: a line or a column may be left out
    frame->height = size.height();
    if (av_frame_get_buffer(frame.get(), 0) < 0)
        return nullptr;
    for (int y = 0; y < size.height(); ++y)
        memcpy(frame->data[0] + ptrdiff_t(y) * frame->linesize[0], rgb.constScanLine(y), size_t(size.width()) * 4);
    frame->pts = pts;
    return frame;
}

// The encoding half of an export, on a thread of its own: the caller draws the next frames (on
// the GUI thread, where widgets are drawn) while this thread converts and encodes the last ones.
// At most `depth` frames wait, so memory stays a few frames however long the export.
class EncodeThread
{
public:
    // Encodes one frame; false stops (its message is the export's).
    using Encode = std::function<bool(const AnimationFrame& frame)>;

    explicit EncodeThread(Encode encode)
        : m_encode(std::move(encode))
        , m_thread([this] { run(); })
    { }
    EncodeThread(const EncodeThread&) = delete;
    EncodeThread& operator=(const EncodeThread&) = delete;
    ~EncodeThread() { abandon(); }

    // Queues a frame, waiting while `depth` frames wait; false once encoding has failed.
    bool push(AnimationFrame frame)
    {
        std::unique_lock<std::mutex> lock(m_mutex);
        m_room.wait(lock, [this] { return m_queue.size() < depth || m_failed; });
        if (m_failed)
            return false;
        m_queue.push_back(std::move(frame));
        m_ready.notify_one();
        return true;
    }
    // Waits until every queued frame is encoded; true when all were. The encoder's state is the
    // caller's again afterwards.
    bool finish()
    {
        {
            const std::lock_guard<std::mutex> lock(m_mutex);
            m_closed = true;
        }
        m_ready.notify_one();
        if (m_thread.joinable())
            m_thread.join();
        return !m_failed;
    }
    // Drops the frames still waiting (an export stopped), then waits for the one being encoded.
    void abandon()
    {
        {
            const std::lock_guard<std::mutex> lock(m_mutex);
            m_queue.clear();
            m_failed = true;
        }
        finish();
    }

private:
    static constexpr size_t depth = 3;

    void run()
    {
        for (;;) {
            AnimationFrame frame;
            {
                std::unique_lock<std::mutex> lock(m_mutex);
                m_ready.wait(lock, [this] { return !m_queue.empty() || m_closed; });
                if (m_queue.empty())
                    return; // finished, and nothing left
                frame = std::move(m_queue.front());
                m_queue.pop_front();
            }
            m_room.notify_one();
            if (!m_encode(frame)) {
                const std::lock_guard<std::mutex> lock(m_mutex);
                m_failed = true;
                m_queue.clear();
                m_room.notify_one();
                return;
            }
        }
    }

    Encode m_encode;
    std::mutex m_mutex;
    std::condition_variable m_ready; // a frame waits, or no more will come
    std::condition_variable m_room; // a frame was taken, or encoding failed
    std::deque<AnimationFrame> m_queue;
    bool m_closed = false;
    bool m_failed = false;
    std::thread m_thread; // last: it starts once the members it uses are made
};

// Draws frames 0..count-1 (frame 0 given) and hands them to `encoder`, telling `progress` of
// each; true once every frame is encoded. A stop drops what waits and says "Stopped.".
bool encodeAll(EncodeThread& encoder, int count, const AnimationFrame& first,
               const AnimationEncoder::FrameSource& source, QString* error, const AnimationEncoder::Progress& progress)
{
    for (int i = 0; i < count; ++i) {
        if (!encoder.push(i == 0 ? first : source(i)))
            break;
        if (progress && !progress(i + 1, count)) {
            encoder.abandon();
            *error = Text::tr("Stopped.");
            return false;
        }
    }
    return encoder.finish();
}

// One output file: the container, the encoder and its stream.
class Output
{
public:
    ~Output()
    {
        if (m_packet)
            av_packet_free(&m_packet);
        if (m_codec)
            avcodec_free_context(&m_codec);
        if (m_format) {
            if (m_format->pb)
                avio_closep(&m_format->pb);
            avformat_free_context(m_format);
        }
    }

    // `shown`: the file the user named, not the part written beside it.
    bool open(const QString& path, const QString& shown, AnimationEncoder::Format format, QSize size, QString* error)
    {
        const char* container = format == AnimationEncoder::Format::Gif ? "gif"
            : format == AnimationEncoder::Format::Mp4                   ? "mp4"
                                                                        : "webm";
        const AVCodecID id = format == AnimationEncoder::Format::Gif ? AV_CODEC_ID_GIF
            : format == AnimationEncoder::Format::Mp4                ? AV_CODEC_ID_H264
                                                                     : AV_CODEC_ID_VP9;
        const QByteArray file = QFile::encodeName(path);
        m_shown = shown;
        if (avformat_alloc_output_context2(&m_format, nullptr, container, file.constData()) < 0 || !m_format)
            return fail(error, Text::tr("FFmpeg has no %1 writer.").arg(QLatin1String(container)));
        const AVCodec* codec = avcodec_find_encoder(id);
        if (!codec)
            return fail(error,
                        Text::tr("FFmpeg has no %1 encoder: install the distribution's libavcodec.")
                            .arg(QLatin1String(avcodec_get_name(id))));
        m_codec = avcodec_alloc_context3(codec);
        m_codec->width = size.width();
        m_codec->height = size.height();
        m_codec->sample_aspect_ratio = {1, 1};
        // Frames last as long as they say: centiseconds for a GIF, milliseconds for a video.
        m_codec->time_base = format == AnimationEncoder::Format::Gif ? AVRational {1, 100} : AVRational {1, 1000};
        m_codec->pix_fmt = format == AnimationEncoder::Format::Gif ? AV_PIX_FMT_PAL8 : AV_PIX_FMT_YUV420P;
        if (format == AnimationEncoder::Format::Mp4) {
            av_opt_set(m_codec->priv_data, "preset", "veryfast", 0);
            av_opt_set(m_codec->priv_data, "crf", "20", 0);
            av_opt_set(m_codec->priv_data, "tune", "stillimage", 0);
            // Frames in the order they are shown: with B-frames the last frame to be shown is not
            // the last one written, and FFmpeg 7's MP4 writer ends the video at the last one
            // written, so the final frame lost its hold (4.5 s of frames played as 3 s).
            m_codec->max_b_frames = 0;
        } else if (format == AnimationEncoder::Format::WebM) {
            av_opt_set(m_codec->priv_data, "deadline", "realtime", 0);
            av_opt_set(m_codec->priv_data, "cpu-used", "8", 0);
            av_opt_set(m_codec->priv_data, "crf", "30", 0);
            m_codec->bit_rate = 0;
        }
        if (m_format->oformat->flags & AVFMT_GLOBALHEADER)
            m_codec->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
        if (const int code = avcodec_open2(m_codec, codec, nullptr); code < 0)
            return fail(
                error,
                Text::tr("Could not start the %1 encoder: %2").arg(QLatin1String(codec->name), ffmpegError(code)));
        m_stream = avformat_new_stream(m_format, nullptr);
        avcodec_parameters_from_context(m_stream->codecpar, m_codec);
        m_stream->time_base = m_codec->time_base;
        if (const int code = avio_open(&m_format->pb, file.constData(), AVIO_FLAG_WRITE); code < 0)
            return fail(error, Text::tr("Could not write %1: %2").arg(shown, ffmpegError(code)));
        AVDictionary* options = nullptr;
        if (format == AnimationEncoder::Format::Gif)
            av_dict_set(&options, "loop", "0", 0); // for ever, as slides want
        const int code = avformat_write_header(m_format, &options);
        av_dict_free(&options);
        if (code < 0)
            return fail(error, Text::tr("Could not write %1: %2").arg(shown, ffmpegError(code)));
        m_packet = av_packet_alloc();
        return true;
    }

    AVRational timeBase() const { return m_codec->time_base; }

    // Encodes `frame` (null: the end) lasting `duration` in the time base; writes what comes out.
    bool write(AVFrame* frame, int64_t duration, QString* error)
    {
        if (frame)
            m_durations[frame->pts] = duration;
        if (const int code = avcodec_send_frame(m_codec, frame); code < 0)
            return fail(error, Text::tr("The encoder refused a frame: %1").arg(ffmpegError(code)));
        for (;;) {
            const int code = avcodec_receive_packet(m_codec, m_packet);
            if (code == AVERROR(EAGAIN) || code == AVERROR_EOF)
                return true;
            if (code < 0)
                return fail(error, Text::tr("The encoder failed: %1").arg(ffmpegError(code)));
            if (const auto found = m_durations.find(m_packet->pts); found != m_durations.end()) {
                m_packet->duration = found->second;
                m_durations.erase(found);
            }
            av_packet_rescale_ts(m_packet, m_codec->time_base, m_stream->time_base);
            m_packet->stream_index = m_stream->index;
            if (const int written = av_interleaved_write_frame(m_format, m_packet); written < 0)
                return fail(error, Text::tr("Could not write a frame: %1").arg(ffmpegError(written)));
        }
    }

    // finalDelayCs: a GIF's last frame's delay, which only its trailer writes (-1: a video's).
    bool finish(QString* error, int finalDelayCs = -1)
    {
        if (!write(nullptr, 0, error))
            return false;
        if (finalDelayCs >= 0)
            av_opt_set_int(m_format->priv_data, "final_delay", finalDelayCs, 0);
        if (const int code = av_write_trailer(m_format); code < 0)
            return fail(error, Text::tr("Could not finish the file: %1").arg(ffmpegError(code)));
        // A write that failed (a full disk) may only show when the buffer is flushed and closed.
        avio_flush(m_format->pb);
        if (const int code = m_format->pb->error; code < 0)
            return fail(error, Text::tr("Could not write %1: %2").arg(m_shown, ffmpegError(code)));
        if (const int code = avio_closep(&m_format->pb); code < 0)
            return fail(error, Text::tr("Could not write %1: %2").arg(m_shown, ffmpegError(code)));
        return true;
    }

private:
    static bool fail(QString* error, const QString& message)
    {
        if (error)
            *error = message;
        return false;
    }

    QString m_shown;
    AVFormatContext* m_format = nullptr;
    AVCodecContext* m_codec = nullptr;
    AVStream* m_stream = nullptr;
    AVPacket* m_packet = nullptr;
    std::map<int64_t, int64_t> m_durations; // by pts: the frames sent, until their packet comes
};

// A filter graph from BGRA frames ("in", and "palette" when given) to a sink, as `description`.
struct Graph
{
    GraphPtr graph;
    AVFilterContext* in = nullptr;
    AVFilterContext* palette = nullptr;
    AVFilterContext* out = nullptr;
};

bool buffer(AVFilterGraph* graph, const char* name, QSize size, int format, AVFilterContext** context)
{
    const QByteArray args = QStringLiteral("video_size=%1x%2:pix_fmt=%3:time_base=1/100:pixel_aspect=1/1")
                                .arg(size.width())
                                .arg(size.height())
                                .arg(format)
                                .toLatin1();
    return avfilter_graph_create_filter(context, avfilter_get_by_name("buffer"), name, args.constData(), nullptr, graph)
        >= 0;
}

bool makeGraph(Graph* g, QSize size, const AVFrame* palette, const char* description, QString* error)
{
    g->graph.reset(avfilter_graph_alloc());
    AVFilterGraph* graph = g->graph.get();
    graph->nb_threads = 1; // the GUI thread draws the next frame meanwhile
    bool made = buffer(graph, "in", size, AV_PIX_FMT_BGRA, &g->in)
        && (!palette || buffer(graph, "palette", QSize(palette->width, palette->height), palette->format, &g->palette))
        && avfilter_graph_create_filter(&g->out, avfilter_get_by_name("buffersink"), "out", nullptr, nullptr, graph)
            >= 0;
    AVFilterInOut* outputs = avfilter_inout_alloc();
    AVFilterInOut* inputs = avfilter_inout_alloc();
    outputs->name = av_strdup("in");
    outputs->filter_ctx = g->in;
    if (palette) {
        outputs->next = avfilter_inout_alloc();
        outputs->next->name = av_strdup("palette");
        outputs->next->filter_ctx = g->palette;
    }
    inputs->name = av_strdup("out");
    inputs->filter_ctx = g->out;
    made = made && avfilter_graph_parse_ptr(graph, description, &inputs, &outputs, nullptr) >= 0
        && avfilter_graph_config(graph, nullptr) >= 0;
    avfilter_inout_free(&inputs);
    avfilter_inout_free(&outputs);
    if (!made && error)
        *error = Text::tr("FFmpeg's filters %1 are missing: install the distribution's libavfilter.")
                     .arg(QLatin1String(description));
    return made;
}

// The size every frame is cut to: the first frame's, even (4:2:0 video halves both).
QSize evenSize(const QImage& image)
{
    return QSize(std::max(2, image.width() & ~1), std::max(2, image.height() & ~1));
}

// GIF: a palette from up to 16 frames spread over the animation, then every frame mapped to it.
bool writeGif(const QString& path, const QString& shown, int count, const AnimationEncoder::FrameSource& source,
              QString* error, const AnimationEncoder::Progress& progress)
{
    const AnimationFrame first = source(0);
    const QSize size = evenSize(first.image);
    Graph stats;
    if (!makeGraph(&stats, size, nullptr, "[in]palettegen=max_colors=256:stats_mode=full[out]", error))
        return false;
    // The samples are drawn here while the palette's statistics take the last ones in.
    const int samples = std::min(count, 16);
    {
        int s = 0;
        EncodeThread statistics([&](const AnimationFrame& sample) {
            FramePtr frame = bgraFrame(sample.image, size, s++);
            return frame && av_buffersrc_add_frame(stats.in, frame.get()) >= 0;
        });
        for (int k = 0; k < samples; ++k) {
            const int index = samples > 1 ? int(qint64(k) * (count - 1) / (samples - 1)) : 0;
            if (!statistics.push(index == 0 ? first : source(index)))
                break;
        }
        if (!statistics.finish())
            return false;
    }
    FramePtr palette(av_frame_alloc());
    if (av_buffersrc_add_frame(stats.in, nullptr) < 0 || av_buffersink_get_frame(stats.out, palette.get()) < 0) {
        *error = Text::tr("FFmpeg made no palette for the GIF.");
        return false;
    }

    Graph map;
    if (!makeGraph(&map, size, palette.get(),
                   "[in][palette]paletteuse=dither=bayer:bayer_scale=4:diff_mode=rectangle[out]", error))
        return false;
    palette->pts = 0;
    if (av_buffersrc_add_frame(map.palette, palette.get()) < 0 || av_buffersrc_add_frame(map.palette, nullptr) < 0)
        return false;

    Output output;
    if (!output.open(path, shown, AnimationEncoder::Format::Gif, size, error))
        return false;
    // What follows is the encoding thread's until finish(): the mapping, the timing, the file.
    int64_t pts = 0;
    int64_t lastCs = 2;
    std::map<int64_t, int64_t> durations;
    auto drain = [&]() {
        FramePtr mapped(av_frame_alloc());
        while (av_buffersink_get_frame(map.out, mapped.get()) >= 0) {
            const int64_t duration = durations[mapped->pts];
            if (!output.write(mapped.get(), duration, error))
                return false;
            av_frame_unref(mapped.get());
        }
        return true;
    };
    EncodeThread encoder([&](const AnimationFrame& shot) {
        const int64_t cs = std::max(2, shot.durationMs / 10); // browsers slow down shorter delays
        FramePtr frame = bgraFrame(shot.image, size, pts);
        durations[pts] = cs;
        lastCs = cs;
        if (!frame || av_buffersrc_add_frame(map.in, frame.get()) < 0 || !drain())
            return false;
        pts += cs;
        return true;
    });
    if (!encodeAll(encoder, count, first, source, error, progress))
        return false;
    return av_buffersrc_add_frame(map.in, nullptr) >= 0 && drain() && output.finish(error, int(lastCs));
}

// MP4 and WebM: each frame converted to YUV 4:2:0 and lasting its own duration.
bool writeVideo(const QString& path, const QString& shown, AnimationEncoder::Format format, int count,
                const AnimationEncoder::FrameSource& source, QString* error, const AnimationEncoder::Progress& progress)
{
    const AnimationFrame shot = source(0);
    const QSize size = evenSize(shot.image);
    Output output;
    if (!output.open(path, shown, format, size, error))
        return false;
    SwsContext* scale = sws_getContext(size.width(), size.height(), AV_PIX_FMT_BGRA, size.width(), size.height(),
                                       AV_PIX_FMT_YUV420P, SWS_BICUBIC, nullptr, nullptr, nullptr);
    std::unique_ptr<SwsContext, void (*)(SwsContext*)> scaleOwner(scale, sws_freeContext);
    FramePtr yuv(av_frame_alloc());
    int64_t pts = 0; // the encoding thread's until finish(), as the frame, the scaler and the file
    EncodeThread encoder([&](const AnimationFrame& frame) {
        FramePtr bgra = bgraFrame(frame.image, size, pts);
        av_frame_unref(yuv.get());
        yuv->format = AV_PIX_FMT_YUV420P;
        yuv->width = size.width();
        yuv->height = size.height();
        if (!bgra || av_frame_get_buffer(yuv.get(), 0) < 0)
            return false;
        sws_scale(scale, bgra->data, bgra->linesize, 0, size.height(), yuv->data, yuv->linesize);
        yuv->pts = pts;
        const int64_t ms = std::max(1, frame.durationMs);
        if (!output.write(yuv.get(), ms, error))
            return false;
        pts += ms;
        return true;
    });
    if (!encodeAll(encoder, count, shot, source, error, progress))
        return false;
    return output.finish(error);
}
} // namespace

std::optional<AnimationEncoder::Format> AnimationEncoder::formatOf(const QString& path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("gif"))
        return Format::Gif;
    if (suffix == QLatin1String("mp4"))
        return Format::Mp4;
    if (suffix == QLatin1String("webm"))
        return Format::WebM;
    return std::nullopt;
}

bool AnimationEncoder::write(const QString& path, int count, const FrameSource& frame, QString* error,
                             const Progress& progress)
{
    QString why;
    const std::optional<Format> format = formatOf(path);
    if (!format) {
        why = Text::tr("%1: name the file .gif, .mp4 or .webm.").arg(path);
    } else if (count < 1) {
        why = Text::tr("Nothing to export: no request in the range.");
    } else {
        av_log_set_level(AV_LOG_ERROR);
        // Written beside (a new file of its own), then renamed: a failed or stopped export leaves
        // no half a file, the file it would have replaced stays, and only a regular file is
        // replaced (OutputFile: a device, a pipe or a link at the path is refused).
        const QString part = OutputFile::createPart(path, &why);
        if (!part.isEmpty()) {
            const bool written = *format == Format::Gif ? writeGif(part, path, count, frame, &why, progress)
                                                        : writeVideo(part, path, *format, count, frame, &why, progress);
            if (written && OutputFile::commitPart(part, path, &why))
                return true;
            OutputFile::discardPart(part);
            if (why.isEmpty())
                why = Text::tr("Could not encode %1.").arg(path);
        }
    }
    if (error)
        *error = why;
    return false;
}
