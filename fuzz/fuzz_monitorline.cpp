// Fuzzes MonitorLine::parse and the shadow behind it: MONITOR lines come from a server zsetlab
// does not control. Beyond "does not crash", checks that a refusal says why.
#include "watch/monitorline.h"
#include "watch/watchshadow.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const QByteArray line(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
    MonitorLine parsed;
    QString error;
    if (!MonitorLine::parse(line, &parsed, &error)) {
        if (error.isEmpty())
            abort();
        return 0;
    }
    if (parsed.arguments.isEmpty() || parsed.db < 0 || parsed.source.isEmpty())
        abort();
    // Every line, replayed twice onto a shadow that follows every key: no command may crash it.
    WatchShadow shadow;
    shadow.feed(parsed);
    shadow.feed(parsed);
    (void)shadow.snapshot();
    return 0;
}
