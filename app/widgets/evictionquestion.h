#pragma once

// The window's question before writing to a server that deletes keys to make room when it is
// full (MemoryHeadroom): a run or a probe there could push out keys zsetlab did not make.

#include <QCoreApplication>
#include <QString>

class QWidget;
class RedisEndpoint;
struct ConnectOptions;

struct EvictionQuestion
{
    Q_DECLARE_TR_FUNCTIONS(EvictionQuestion)
};

// True when the server may be written (once per address and session: *confirmed remembers the
// address agreed to). A server zsetlab started, one that cannot evict, or options that already
// consent (--allow-eviction) ask nothing.
bool confirmEviction(QWidget* parent, const RedisEndpoint& endpoint, const ConnectOptions& options, QString* confirmed);
