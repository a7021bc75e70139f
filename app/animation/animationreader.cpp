#include "animationreader.h"

#include <QFile>

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/imgutils.h>
#include <libswscale/swscale.h>
}

#include <functional>
#include <memory>

namespace {
// Decodes every frame of the file's video stream, handing each to `visit` with its packet's
// duration in ms; `visit` returns false to stop.
bool decode(const QString& path, AnimationFileInfo* info, const std::function<bool(const AVFrame*)>& visit,
            QString* error)
{
    AVFormatContext* format = nullptr;
    const QByteArray file = QFile::encodeName(path);
    if (avformat_open_input(&format, file.constData(), nullptr, nullptr) < 0) {
        *error = QStringLiteral("%1 does not open as a video or a GIF.").arg(path);
        return false;
    }
    std::unique_ptr<AVFormatContext*, void (*)(AVFormatContext**)> formatOwner(&format, avformat_close_input);
    avformat_find_stream_info(format, nullptr);
    const int stream = av_find_best_stream(format, AVMEDIA_TYPE_VIDEO, -1, -1, nullptr, 0);
    if (stream < 0) {
        *error = QStringLiteral("%1 holds no video.").arg(path);
        return false;
    }
    const AVCodecParameters* parameters = format->streams[stream]->codecpar;
    const AVRational timeBase = format->streams[stream]->time_base;
    const AVCodec* codec = avcodec_find_decoder(parameters->codec_id);
    AVCodecContext* context = codec ? avcodec_alloc_context3(codec) : nullptr;
    std::unique_ptr<AVCodecContext*, void (*)(AVCodecContext**)> contextOwner(&context, avcodec_free_context);
    if (!context || avcodec_parameters_to_context(context, parameters) < 0
        || avcodec_open2(context, codec, nullptr) < 0) {
        *error = QStringLiteral("No decoder for %1.").arg(path);
        return false;
    }
    info->codec = QString::fromLatin1(avcodec_get_name(parameters->codec_id));
    info->size = QSize(parameters->width, parameters->height);
    info->frames = 0;
    info->durationMs = 0;
    AVPacket* packet = av_packet_alloc();
    AVFrame* frame = av_frame_alloc();
    bool going = true;
    auto receive = [&] {
        while (going && avcodec_receive_frame(context, frame) >= 0) {
            ++info->frames;
            going = visit(frame);
            av_frame_unref(frame);
        }
    };
    while (going && av_read_frame(format, packet) >= 0) {
        if (packet->stream_index == stream) {
            info->durationMs += av_rescale_q(packet->duration, timeBase, {1, 1000});
            avcodec_send_packet(context, packet);
            receive();
        }
        av_packet_unref(packet);
    }
    if (going) {
        avcodec_send_packet(context, nullptr);
        receive();
    }
    // A GIF's packets carry their delays; MP4 and WebM keep the length in the container.
    if (format->duration > 0 && format->duration != AV_NOPTS_VALUE
        && (info->durationMs == 0 || info->codec != QLatin1String("gif")))
        info->durationMs = av_rescale(format->duration, 1000, AV_TIME_BASE);
    av_frame_free(&frame);
    av_packet_free(&packet);
    return true;
}
} // namespace

bool AnimationReader::probe(const QString& path, AnimationFileInfo* info, QString* error)
{
    return decode(
        path, info, [](const AVFrame*) { return true; }, error);
}

QImage AnimationReader::frameAt(const QString& path, int index, QString* error)
{
    AnimationFileInfo info;
    QImage image;
    const bool read = decode(
        path, &info,
        [&](const AVFrame* frame) {
            if (info.frames - 1 < index)
                return true;
            image = QImage(frame->width, frame->height, QImage::Format_ARGB32);
            SwsContext* scale = sws_getContext(frame->width, frame->height, AVPixelFormat(frame->format), frame->width,
                                               frame->height, AV_PIX_FMT_BGRA, SWS_BICUBIC, nullptr, nullptr, nullptr);
            uint8_t* planes[4] = {image.bits(), nullptr, nullptr, nullptr};
            int strides[4] = {int(image.bytesPerLine()), 0, 0, 0};
            sws_scale(scale, frame->data, frame->linesize, 0, frame->height, planes, strides);
            sws_freeContext(scale);
            return false;
        },
        error);
    if (read && image.isNull())
        *error = QStringLiteral("%1 has %2 frame(s), not %3.").arg(path).arg(info.frames).arg(index + 1);
    return image;
}
