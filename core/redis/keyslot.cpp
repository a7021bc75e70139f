#include "keyslot.h"

#include <array>

namespace {
// One step of the bitwise CRC per possible byte, computed at compile time.
constexpr std::array<quint16, 256> makeTable()
{
    std::array<quint16, 256> table {};
    for (int byte = 0; byte < 256; ++byte) {
        quint16 crc = quint16(byte << 8);
        for (int bit = 0; bit < 8; ++bit)
            crc = (crc & 0x8000) ? quint16((crc << 1) ^ 0x1021) : quint16(crc << 1);
        table[std::size_t(byte)] = crc;
    }
    return table;
}
constexpr std::array<quint16, 256> table = makeTable();
static_assert(table[1] == 0x1021, "the XMODEM polynomial");
} // namespace

namespace KeySlot {

quint16 crc16(const QByteArray& data)
{
    quint16 crc = 0;
    for (const char c : data)
        crc = quint16((crc << 8) ^ table[std::size_t(((crc >> 8) ^ quint8(c)) & 0xff)]);
    return crc;
}

QByteArray hashTag(const QByteArray& key)
{
    const qsizetype open = key.indexOf('{');
    if (open < 0)
        return {};
    const qsizetype close = key.indexOf('}', open + 1);
    if (close <= open + 1)
        return {}; // no '}' after it, or "{}": the whole key is hashed
    return key.mid(open + 1, close - open - 1);
}

int of(const QByteArray& key)
{
    const QByteArray tag = hashTag(key);
    return crc16(tag.isEmpty() ? key : tag) % slotCount;
}

} // namespace KeySlot
