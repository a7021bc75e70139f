#include "redis/redisconnection.h"
#include "redis/redisendpoint.h"

#include <QtTest>

class TestRedisEndpoint : public QObject
{
    Q_OBJECT
private slots:
    void parsesGoodUrls_data();
    void parsesGoodUrls();
    void refusesBadUrls_data();
    void refusesBadUrls();
    void socketPathUpToTheKernelsLimitIsTaken();
    void connectionRefusesAPathItWouldCutShort();
    void masksThePasswordWhenShown();
    void takesTlsUrlsAndOptions();
    void refusesTlsOptionsThatDoNotFit_data();
    void refusesTlsOptionsThatDoNotFit();
    void knowsWhatIsLocal_data();
    void knowsWhatIsLocal();
};

void TestRedisEndpoint::parsesGoodUrls_data()
{
    QTest::addColumn<QString>("url");
    QTest::addColumn<bool>("isUnix");
    QTest::addColumn<QString>("host");
    QTest::addColumn<int>("port");
    QTest::addColumn<QString>("socket");
    QTest::addColumn<QString>("user");
    QTest::addColumn<QString>("password");
    QTest::addColumn<int>("db");

    QTest::newRow("host only") << "redis://localhost" << false << "localhost" << 6379 << ""
                               << ""
                               << "" << 0;
    QTest::newRow("host and port") << "redis://10.1.2.3:6380" << false << "10.1.2.3" << 6380 << ""
                                   << ""
                                   << "" << 0;
    QTest::newRow("database in path") << "redis://127.0.0.1:6379/3" << false << "127.0.0.1" << 6379 << ""
                                      << ""
                                      << "" << 3;
    QTest::newRow("password only") << "redis://:s3cret@host" << false << "host" << 6379 << ""
                                   << ""
                                   << "s3cret" << 0;
    QTest::newRow("acl user and password") << "redis://alice:p%40ss@host:7000/1" << false << "host" << 7000 << ""
                                           << "alice"
                                           << "p@ss" << 1;
    QTest::newRow("ipv6") << "redis://[::1]:6379" << false << "::1" << 6379 << ""
                          << ""
                          << "" << 0;
    QTest::newRow("trailing slash") << "redis://host/" << false << "host" << 6379 << ""
                                    << ""
                                    << "" << 0;
    QTest::newRow("upper-case scheme") << "REDIS://host:1" << false << "host" << 1 << ""
                                       << ""
                                       << "" << 0;
    QTest::newRow("unix socket") << "unix:///var/run/redis/redis.sock" << true << "" << 0 << "/var/run/redis/redis.sock"
                                 << ""
                                 << "" << 0;
    QTest::newRow("unix socket with db") << "unix:///tmp/r.sock?db=5" << true << "" << 0 << "/tmp/r.sock"
                                         << ""
                                         << "" << 5;
}

void TestRedisEndpoint::parsesGoodUrls()
{
    QFETCH(QString, url);
    RedisEndpoint endpoint;
    QString error;
    QVERIFY2(RedisEndpoint::parse(url, &endpoint, &error), qPrintable(error));
    QFETCH(bool, isUnix);
    QFETCH(QString, host);
    QFETCH(int, port);
    QFETCH(QString, socket);
    QFETCH(QString, user);
    QFETCH(QString, password);
    QFETCH(int, db);
    QCOMPARE(endpoint.transport == RedisEndpoint::Transport::Unix, isUnix);
    QCOMPARE(endpoint.host, host);
    QCOMPARE(endpoint.port, port);
    QCOMPARE(endpoint.socketPath, socket);
    QCOMPARE(endpoint.user, user);
    QCOMPARE(endpoint.password, password);
    QCOMPARE(endpoint.db, db);
}

void TestRedisEndpoint::refusesBadUrls_data()
{
    QTest::addColumn<QString>("url");
    QTest::addColumn<QString>("messagePart");

    QTest::newRow("empty") << ""
                           << "No Redis URL";
    QTest::newRow("no scheme") << "localhost:6379"
                               << "not a Redis URL";
    QTest::newRow("http") << "http://host"
                          << "Unknown scheme";
    QTest::newRow("no host") << "redis://:6379"
                             << "no host";
    QTest::newRow("port too large") << "redis://host:70000"
                                    << "port";
    QTest::newRow("port not a number") << "redis://host:abc"
                                       << "malformed";
    QTest::newRow("db not a number") << "redis://host/abc"
                                     << "database number";
    QTest::newRow("negative db") << "redis://host/-1"
                                 << "database number";
    QTest::newRow("user without password") << "redis://alice@host"
                                           << "without a password";
    QTest::newRow("unix with a host") << "unix://tmp/r.sock"
                                      << "three slashes";
    QTest::newRow("unix without a path") << "unix://"
                                         << "no socket path";
    QTest::newRow("unix unknown option") << "unix:///tmp/r.sock?timeout=3"
                                         << "Unknown URL option";
    QTest::newRow("tcp with query") << "redis://host?db=2"
                                    << "Unexpected URL options";
    // Issue #20: hiredis cut a longer path short and reached the server listening at the prefix.
    QTest::newRow("socket path of 108 bytes")
        << QStringLiteral("unix://") + QLatin1Char('/') + QString(107, QLatin1Char('s')) << "at most 107";
    QTest::newRow("socket path of 200 bytes")
        << QStringLiteral("unix:///tmp/") + QString(195, QLatin1Char('s')) << "200 bytes";
    QTest::newRow("NUL in the socket path") << "unix:///tmp/redis.sock%00.other"
                                            << "%00";
    QTest::newRow("NUL at the start of the path") << "unix:///%00/tmp/redis.sock"
                                                  << "%00";
}

void TestRedisEndpoint::refusesBadUrls()
{
    QFETCH(QString, url);
    QFETCH(QString, messagePart);
    RedisEndpoint endpoint;
    QString error;
    QVERIFY(!RedisEndpoint::parse(url, &endpoint, &error));
    QVERIFY2(error.contains(messagePart, Qt::CaseInsensitive), qPrintable(error));
}

void TestRedisEndpoint::socketPathUpToTheKernelsLimitIsTaken()
{
    // 107 bytes and the NUL that ends it fill sun_path exactly.
    const QString path = QLatin1Char('/') + QString(106, QLatin1Char('s'));
    RedisEndpoint endpoint;
    QString error;
    QVERIFY2(RedisEndpoint::parse(QStringLiteral("unix://") + path, &endpoint, &error), qPrintable(error));
    QCOMPARE(endpoint.socketPath, path);
    QCOMPARE(RedisEndpoint::maxSocketPathBytes, 107);
}

void TestRedisEndpoint::connectionRefusesAPathItWouldCutShort()
{
    // An endpoint made without a URL (unixSocket()) gets the same check when connecting.
    RedisConnection connection;
    QVERIFY(!connection.open(RedisEndpoint::unixSocket(QStringLiteral("/tmp/") + QString(120, QLatin1Char('s')))));
    QCOMPARE(connection.lastError().kind, RedisError::Kind::BadUrl);
    QVERIFY2(connection.lastError().message.contains(QLatin1String("107")), qPrintable(connection.lastError().message));
}

void TestRedisEndpoint::masksThePasswordWhenShown()
{
    RedisEndpoint endpoint;
    QString error;
    QVERIFY(RedisEndpoint::parse(QStringLiteral("redis://alice:topsecret@host:7000/2"), &endpoint, &error));
    const QString shown = endpoint.displayUrl();
    QVERIFY2(!shown.contains(QLatin1String("topsecret")), qPrintable(shown));
    QCOMPARE(shown, QStringLiteral("redis://alice:***@host:7000/2"));
    QCOMPARE(RedisEndpoint::unixSocket(QStringLiteral("/tmp/x.sock")).displayUrl(),
             QStringLiteral("unix:///tmp/x.sock"));
}

void TestRedisEndpoint::takesTlsUrlsAndOptions()
{
    RedisEndpoint endpoint;
    QString error;
    QVERIFY2(RedisEndpoint::parse(QStringLiteral("rediss://:pw@cache.example.com:6380/2"), &endpoint, &error),
             qPrintable(error));
    QVERIFY(endpoint.tls.enabled);
    QVERIFY(!endpoint.tls.hasOptions()); // the system's CAs, names checked
    QCOMPARE(endpoint.host, QStringLiteral("cache.example.com"));
    QCOMPARE(endpoint.port, 6380);
    QCOMPARE(endpoint.db, 2);
    QCOMPARE(endpoint.displayUrl(), QStringLiteral("rediss://:***@cache.example.com:6380/2"));
    QCOMPARE(endpoint.tls.expectedName(endpoint.host), QStringLiteral("cache.example.com"));

    TlsSettings options;
    options.caFile = QStringLiteral("/etc/ca.pem");
    options.certFile = QStringLiteral("/etc/me.crt");
    options.keyFile = QStringLiteral("/etc/me.key");
    options.serverName = QStringLiteral("redis.internal");
    QVERIFY2(RedisEndpoint::parse(QStringLiteral("rediss://10.0.0.5:6380"), options, &endpoint, &error),
             qPrintable(error));
    QVERIFY(endpoint.tls.enabled);
    QCOMPARE(endpoint.tls.caFile, options.caFile);
    QCOMPARE(endpoint.tls.keyFile, options.keyFile);
    QCOMPARE(endpoint.tls.expectedName(endpoint.host), QStringLiteral("redis.internal"));

    // A plain URL stays plain; two endpoints differing in TLS alone are different servers to use.
    RedisEndpoint plain;
    QVERIFY(RedisEndpoint::parse(QStringLiteral("redis://10.0.0.5:6380"), &plain, &error));
    QVERIFY(!plain.tls.enabled);
    QVERIFY(!(plain == endpoint));
}

void TestRedisEndpoint::refusesTlsOptionsThatDoNotFit_data()
{
    QTest::addColumn<QString>("url");
    QTest::addColumn<QString>("ca");
    QTest::addColumn<QString>("cert");
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("messagePart");
    QTest::newRow("a CA with redis://") << "redis://127.0.0.1:6380"
                                        << "/ca.pem"
                                        << ""
                                        << ""
                                        << "rediss://127.0.0.1:6380";
    QTest::newRow("a CA with a socket") << "unix:///tmp/r.sock"
                                        << "/ca.pem"
                                        << ""
                                        << ""
                                        << "rediss://";
    QTest::newRow("a certificate without its key") << "rediss://127.0.0.1"
                                                   << ""
                                                   << "/me.crt"
                                                   << ""
                                                   << "--tls-key";
    QTest::newRow("a key without its certificate") << "rediss://127.0.0.1"
                                                   << ""
                                                   << ""
                                                   << "/me.key"
                                                   << "--tls-cert";
}

void TestRedisEndpoint::refusesTlsOptionsThatDoNotFit()
{
    QFETCH(QString, url);
    QFETCH(QString, ca);
    QFETCH(QString, cert);
    QFETCH(QString, key);
    QFETCH(QString, messagePart);
    TlsSettings options;
    options.caFile = ca;
    options.certFile = cert;
    options.keyFile = key;
    RedisEndpoint endpoint;
    QString error;
    QVERIFY(!RedisEndpoint::parse(url, options, &endpoint, &error));
    QVERIFY2(error.contains(messagePart), qPrintable(error));
}

void TestRedisEndpoint::knowsWhatIsLocal_data()
{
    QTest::addColumn<QString>("url");
    QTest::addColumn<bool>("local");
    QTest::newRow("loopback") << "redis://127.0.0.1" << true;
    QTest::newRow("loopback range") << "redis://127.3.4.5" << true;
    QTest::newRow("localhost") << "redis://LocalHost:6380" << true;
    QTest::newRow("ipv6 loopback") << "redis://[::1]" << true;
    QTest::newRow("tls loopback") << "rediss://127.0.0.1:6380" << true;
    QTest::newRow("unix socket") << "unix:///tmp/r.sock" << true;
    QTest::newRow("private network") << "redis://192.168.1.10" << false;
    QTest::newRow("name") << "redis://cache.example.com" << false;
    QTest::newRow("looks like loopback") << "redis://127.0.0.1.example.com" << false;
}

void TestRedisEndpoint::knowsWhatIsLocal()
{
    QFETCH(QString, url);
    QFETCH(bool, local);
    RedisEndpoint endpoint;
    QString error;
    QVERIFY2(RedisEndpoint::parse(url, &endpoint, &error), qPrintable(error));
    QCOMPARE(endpoint.isLocal(), local);
}

QTEST_GUILESS_MAIN(TestRedisEndpoint)
#include "tst_redisendpoint.moc"
