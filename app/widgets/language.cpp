#include "language.h"

#include <QApplication>
#include <QLibraryInfo>
#include <QLocale>
#include <QSettings>
#include <QTranslator>
#include <QWidget>

#include <memory>

namespace {
std::unique_ptr<QTranslator> appTranslator;
std::unique_ptr<QTranslator> qtTranslator;
QString currentCode = QStringLiteral("en");
const char chosenSetting[] = "window/language";
} // namespace

namespace Language {

QStringList available()
{
    return {QStringLiteral("en"), QStringLiteral("vi")};
}

QString nativeName(const QString& code)
{
    return code == QLatin1String("vi") ? QStringLiteral("Tiếng Việt") : QStringLiteral("English");
}

QString systemDefault()
{
    return QLocale::system().language() == QLocale::Vietnamese ? QStringLiteral("vi") : QStringLiteral("en");
}

QString chosen()
{
    const QString saved = QSettings().value(QLatin1String(chosenSetting)).toString();
    return available().contains(saved) ? saved : systemDefault();
}

bool choose(const QString& code)
{
    if (!set(code))
        return false;
    QSettings().setValue(QLatin1String(chosenSetting), code);
    return true;
}

bool set(const QString& code)
{
    if (!available().contains(code))
        return false;
    // First, as installing a translator makes the windows write their texts again at once.
    // Numbers follow the language: 1.000 and 95,5 % in Vietnamese, 1,000 and 95.5 % in English.
    // Open windows keep the locale they were made with unless told: each is given the new one,
    // which reaches their fields (spin boxes) and repaints their numbers.
    QLocale::setDefault(QLocale(code == QLatin1String("vi") ? QLocale::Vietnamese : QLocale::English));
    for (QWidget* window : QApplication::topLevelWidgets())
        window->setLocale(QLocale());
    for (auto* translator : {appTranslator.get(), qtTranslator.get()})
        if (translator)
            QCoreApplication::removeTranslator(translator);
    appTranslator = std::make_unique<QTranslator>();
    qtTranslator = std::make_unique<QTranslator>();
    // zsetlab's own texts, compiled in (resources/translations); Qt's for standard dialogs.
    if (appTranslator->load(QStringLiteral(":/i18n/zsetlab_%1.qm").arg(code)))
        QCoreApplication::installTranslator(appTranslator.get());
    // Qt's own, or zsetlab's copy of the few that its windows show where Qt has none (Debian: no "vi").
    if (qtTranslator->load(QLocale(code), QStringLiteral("qtbase"), QStringLiteral("_"),
                           QLibraryInfo::path(QLibraryInfo::TranslationsPath))
        || qtTranslator->load(QStringLiteral(":/i18n/qtbase_%1.qm").arg(code)))
        QCoreApplication::installTranslator(qtTranslator.get());
    currentCode = code;
    return true;
}

QString current()
{
    return currentCode;
}

} // namespace Language
