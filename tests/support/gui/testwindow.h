#pragma once

#include "mainwindow.h"
#include "serversession.h"
#include "testredis.h"

#include <QTest>

// Shows `window` and connects it to the test fixture's Redis, as a user pointing it there would;
// false when it is not connected within 10 s.
inline bool showConnected(MainWindow& window)
{
    window.show();
    RedisServerChoice::Request request;
    request.url = TestRedis::endpoint().displayUrl();
    window.connectToServer(request);
    return QTest::qWaitFor([&window] { return window.session()->isUsable(); }, 10000);
}
