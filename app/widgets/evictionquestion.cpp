#include "evictionquestion.h"

#include "redis/memoryheadroom.h"
#include "redis/redisconnection.h"

#include <QMessageBox>

#include <algorithm>

bool confirmEviction(QWidget* parent, const RedisEndpoint& endpoint, const ConnectOptions& options, QString* confirmed)
{
    if (options.ownServer || options.allowEviction || *confirmed == endpoint.address())
        return true;
    ConnectOptions quick = options;
    quick.connectTimeout = std::min(options.connectTimeout, std::chrono::milliseconds(1000));
    quick.commandTimeout = std::min(options.commandTimeout, std::chrono::milliseconds(1000));
    RedisConnection connection;
    const MemoryHeadroom memory
        = connection.open(endpoint, quick) ? MemoryHeadroom::read(connection) : MemoryHeadroom {};
    if (memory.known && !memory.evicts())
        return true;
    const QString state = memory.known
        ? memory.describe()
        : EvictionQuestion::tr("zsetlab could not read it: %1")
              .arg(memory.unknownWhy.isEmpty() ? connection.lastError().message : memory.unknownWhy);
    const auto answer = QMessageBox::warning(
        parent, EvictionQuestion::tr("Write to a server that evicts keys?"),
        EvictionQuestion::tr("%1 deletes keys to make room when it is full (memory: %2). A run there could push out "
                             "keys zsetlab did not make, and a script of yours may write any amount in one call.\n\n"
                             "If you go on, zsetlab stops a run once the server has grown by half of the memory it had "
                             "left, and deletes the run's keys. Go on only if the keys on this server may be lost.")
            .arg(endpoint.address(), state),
        QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel);
    if (answer != QMessageBox::Yes)
        return false;
    *confirmed = endpoint.address();
    return true;
}
