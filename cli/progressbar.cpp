#include "progressbar.h"

#include <cstdio>
#include <unistd.h>

ProgressBar::ProgressBar()
    : m_enabled(::isatty(STDERR_FILENO))
{
    m_clock.start();
}

void ProgressBar::update(qint64 done, qint64 total)
{
    const qint64 elapsed = m_clock.elapsed();
    if (!m_enabled || total <= 0 || elapsed < 1000 || elapsed - m_lastDrawMs < 100)
        return;
    m_lastDrawMs = elapsed;
    constexpr int width = 30;
    const int filled = static_cast<int>(width * done / total);
    char bar[width + 1];
    for (int i = 0; i < width; ++i)
        bar[i] = i < filled ? '#' : '.';
    bar[width] = '\0';
    const double rate = double(done) * 1000.0 / double(elapsed);
    std::fprintf(stderr, "\r[%s] %3d%%  %lld/%lld  %.0f req/s ", bar, int(100 * done / total),
                 static_cast<long long>(done), static_cast<long long>(total), rate);
    std::fflush(stderr);
    m_drawn = true;
}

void ProgressBar::clear()
{
    if (m_drawn)
        std::fprintf(stderr, "\r%*s\r", 79, "");
    m_drawn = false;
}
