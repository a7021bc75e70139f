#pragma once

#include <QString>
#include <QStringList>

class QTranslator;

// The UI language: English or Vietnamese, from --lang, the system locale or the View menu.
// Switching installs the translators; every window gets a LanguageChange event and retranslates.
namespace Language {
QStringList available(); // "en", "vi"
QString nativeName(const QString& code); // "English", "Tiếng Việt"
// "vi" when the system locale is Vietnamese, else "en".
QString systemDefault();
// The language the user last chose in the View menu (kept between sessions), else systemDefault().
QString chosen();
// Installs the translations of `code`; false (English stays) when unknown.
bool set(const QString& code);
// set(), and kept as the user's choice for the next start.
bool choose(const QString& code);
QString current();
} // namespace Language
