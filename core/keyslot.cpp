#include "keyslot.h"

#include <array>

namespace {
// One table entry per byte value: the CRC of that byte shifted through the polynomial.
constexpr std::array<quint16, 256> makeTable()
{
    std::array<quint16, 256> table {};
    for (int byte = 0; byte < 256; ++byte) {
        quint16 crc = quint16(byte << 8);
        for (int bit = 0; bit < 8; ++bit)
            crc = (crc & 0x8000) ? quint16((crc << 1) ^ 0x1021) : quint16(crc << 1);
        table[size_t(byte)] = crc;
    }
    return table;
}
constexpr std::array<quint16, 256> table = makeTable();
} // namespace

namespace KeySlot {
quint16 crc16(const QByteArray& bytes)
{
    quint16 crc = 0;
    for (const char c : bytes)
        crc = quint16((crc << 8) ^ table[((crc >> 8) ^ quint8(c)) & 0xff]);
    return crc;
}

QByteArray hashTag(const QByteArray& key)
{
    const qsizetype open = key.indexOf('{');
    if (open < 0)
        return key;
    const qsizetype close = key.indexOf('}', open + 1);
    if (close < 0 || close == open + 1) // no '}', or "{}": the whole key
        return key;
    return key.mid(open + 1, close - open - 1);
}

int of(const QByteArray& key)
{
    return crc16(hashTag(key)) % count;
}
} // namespace KeySlot
