#pragma once

class QWidget;

// A value field (spin box, combo box) that the mouse wheel changes only once it has the focus:
// a wheel turned to scroll a panel passes over it to the panel's scroll area instead of changing
// the value under the pointer.
namespace WheelGuard {
void protect(QWidget* field);
} // namespace WheelGuard
