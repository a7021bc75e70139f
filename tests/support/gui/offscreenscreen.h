#pragma once

#include <QByteArray>
#include <QFile>
#include <QSize>
#include <QString>
#include <QTemporaryDir>

// A GUI test's screen: configures Qt's offscreen platform to one screen of `size` (a projector,
// a laptop) before the QApplication exists. Keep the returned folder alive while the test runs.
inline std::unique_ptr<QTemporaryDir> useOffscreenScreen(QSize size)
{
    auto dir = std::make_unique<QTemporaryDir>();
    const QString config = dir->filePath(QStringLiteral("screen.json"));
    QFile file(config);
    if (!file.open(QIODevice::WriteOnly))
        qFatal("cannot write %s", qPrintable(config));
    file.write(QStringLiteral("{\"screens\":[{\"name\":\"Screen\",\"x\":0,\"y\":0,\"width\":%1,\"height\":%2,"
                              "\"logicalDpi\":96,\"logicalBaseDpi\":96,\"dpr\":1}]}")
                   .arg(size.width())
                   .arg(size.height())
                   .toUtf8());
    file.close();
    qputenv("QT_QPA_PLATFORM", QByteArray("offscreen:configfile=" + config.toLocal8Bit()));
    return dir;
}

// main() for a widget test on such a screen.
#define ZSETLAB_TEST_MAIN_ON_SCREEN(TestObject, screenSize)                                                            \
    int main(int argc, char** argv)                                                                                    \
    {                                                                                                                  \
        const auto screenFolder = useOffscreenScreen(screenSize);                                                      \
        QApplication app(argc, argv);                                                                                  \
        TestObject test;                                                                                               \
        QTEST_SET_MAIN_SOURCE_PATH                                                                                     \
        return QTest::qExec(&test, argc, argv);                                                                        \
    }
