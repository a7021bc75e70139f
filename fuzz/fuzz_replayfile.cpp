// Fuzzes ReplayFile::decode: a replay is a file someone gave the user. An input that starts as
// gzip does (0x1f) is decoded as it is; any other is packed first, so that the mutations reach the
// reader of the unpacked replay instead of stopping at gzip's checksum. Beyond "does not crash",
// checks that a refusal says why and that what opens can be stepped through and saved again.
#include "replay/replayfile.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const QByteArray input(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
    const QByteArray file = size > 0 && data[0] == 0x1f ? input : ReplayFile::pack(input);
    Recording recording;
    QString error;
    if (!ReplayFile::decode(file, &recording, &error)) {
        if (error.isEmpty() || !recording.isEmpty())
            abort();
        return 0;
    }
    const int n = recording.requests();
    for (const int i : {0, n / 2, n - 1}) {
        const ReplayState state = recording.stateAt(i, true);
        if (n > 0 && (state.request != i + 1 || qint64(state.memberList.size()) != std::max<qint64>(state.members, 0)))
            abort();
    }
    (void)recording.nextOverwrite(-1);
    (void)recording.nextBeyondLimit(-1);
    Recording again;
    if (!ReplayFile::decode(ReplayFile::encode(recording), &again, &error) || again.requests() != n)
        abort();
    return 0;
}
