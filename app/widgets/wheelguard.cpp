#include "wheelguard.h"

#include <QAbstractScrollArea>
#include <QCoreApplication>
#include <QEvent>
#include <QScrollBar>
#include <QWidget>

namespace {
class Guard : public QObject
{
public:
    using QObject::QObject;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        auto* field = qobject_cast<QWidget*>(watched);
        if (event->type() != QEvent::Wheel || !field || field->hasFocus())
            return QObject::eventFilter(watched, event);
        // The panel scrolls, if it can; the value stays.
        for (QWidget* parent = field->parentWidget(); parent; parent = parent->parentWidget())
            if (auto* area = qobject_cast<QAbstractScrollArea*>(parent)) {
                QCoreApplication::sendEvent(area->verticalScrollBar(), event);
                break;
            }
        return true;
    }
};
} // namespace

void WheelGuard::protect(QWidget* field)
{
    static auto* guard = new Guard(QCoreApplication::instance());
    field->setFocusPolicy(Qt::StrongFocus); // focus by click or Tab, not by the wheel
    field->installEventFilter(guard);
}
