#pragma once

#include "mainwindow.h"
#include "redis/serversession.h"
#include "testredis.h"

#include <QPushButton>
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

// The button of `parent` that reads `text`, as a user finds it; nullptr when there is none.
inline QPushButton* buttonWithText(QWidget* parent, const QString& text)
{
    for (QPushButton* button : parent->findChildren<QPushButton*>()) {
        if (button->text() == text)
            return button;
    }
    return nullptr;
}
