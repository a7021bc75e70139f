#pragma once

// ScriptKeyWatch: which keys a script touched while the probe ran it, read from MONITOR.

#include "redis/redisconnection.h"

#include <QByteArray>
#include <QList>
#include <QSet>
#include <QVector>

// One key a script touched (or, with an empty key, a command that reaches the whole keyspace or
// the server, such as FLUSHDB, SCAN or PUBLISH), as MONITOR showed it.
struct KeyTouch
{
    QByteArray command; // upper case
    QByteArray key; // empty: no key, a server-wide command
    int db = 0;
    int times = 0;
};

// Watches which keys a script touches on zsetlab's own private server through MONITOR: only
// there, because zsetlab is that server's only client (MONITOR on a shared server would show
// other clients' commands). Commands the script itself ran appear as "[db lua]"; their keys
// come from the server's own COMMAND GETKEYS, so no key table has to be kept up to date.
class ScriptKeyWatch
{
public:
    // Opens the MONITOR connection.
    bool start(const RedisEndpoint& endpoint, QString* error);
    // Reads what MONITOR sent so far without waiting (keeps the server's buffer small).
    void poll();
    // Sends a marker through `other`, reads MONITOR up to it and works out the keys with
    // COMMAND GETKEYS on `other`. False with *error when MONITOR went quiet or the connection
    // failed.
    bool finish(RedisConnection& other, QString* error);

    // Commands with no key that touch nothing beyond the script: TIME, PING, ECHO.
    static bool isHarmlessWithoutKeys(const QByteArray& command);
    // What the script touched, in the order first seen.
    const QVector<KeyTouch>& touches() const { return m_touches; }
    // "TIME" "a b" -> {TIME, a b}: the arguments of one MONITOR line; false for other lines.
    static bool parseLine(const QByteArray& line, int* db, QByteArray* client, QList<QByteArray>* args);

private:
    void take(const QByteArray& line);

    RedisConnection m_monitor;
    QByteArray m_marker;
    bool m_sawMarker = false;
    QSet<QList<QByteArray>> m_seen; // distinct script commands, with their db in front
    QVector<QList<QByteArray>> m_commands;
    bool m_overflow = false;
    QVector<KeyTouch> m_touches;
};
