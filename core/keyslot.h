#pragma once

#include <QByteArray>

// The hash slot of a key, as the Redis Cluster specification defines it: CRC16 (the XMODEM
// variant: polynomial 0x1021, initial value 0) of the key's hash tag, modulo 16384. The hash tag
// is what lies between the first '{' and the first '}' after it, when that is not empty;
// otherwise the whole key is hashed. Keys with one hash tag share a slot, hence a node.
namespace KeySlot {
inline constexpr int count = 16384;

quint16 crc16(const QByteArray& bytes);
// The bytes hashed for `key`: its hash tag, or the whole key.
QByteArray hashTag(const QByteArray& key);
int of(const QByteArray& key);
} // namespace KeySlot
