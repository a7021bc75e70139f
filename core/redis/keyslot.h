#pragma once

#include <QByteArray>
#include <QtGlobal>

// The hash slot of a key, as Redis Cluster computes it (the cluster spec's key distribution model):
// CRC16 (the XMODEM variant) of the key modulo 16384, or of its hash tag when it has one. Keys
// that share a hash tag share a slot, which is what lets one script or MULTI touch several of
// them on a cluster.
namespace KeySlot {
inline constexpr int slotCount = 16384;

// CRC16-CCITT as XMODEM has it: polynomial 0x1021, initial value 0, no reflection, no final xor
// ("123456789" gives 0x31C3).
quint16 crc16(const QByteArray& data);
// The bytes between the first '{' and the first '}' after it, when there are any; empty when the
// key has no '{', no '}' after it, or nothing between them ("foo{}{bar}" has none, so the whole
// key is hashed; "foo{{bar}}zap" has "{bar").
QByteArray hashTag(const QByteArray& key);
// 0 to 16383.
int of(const QByteArray& key);
} // namespace KeySlot
