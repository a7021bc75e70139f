#pragma once

#include "limiters/limitercatalog.h"
#include "widgets/retranslator.h"

#include <QDialog>

class CodeEditor;
class QComboBox;
class QLabel;

// The scripts side by side: member = now on the left, a unique strategy on the right, with the
// lines that differ marked, so the one change that fixes the limiter is plain to see.
class ScriptView : public QDialog
{
    Q_OBJECT
public:
    explicit ScriptView(QWidget* parent = nullptr);

    // Shows a limiter of the catalog on the right (a fix, or a trap).
    void showLimiter(const QString& id);
    // The 1-based lines of the right-hand script that are not in the left one (code, not comments).
    QList<int> changedLines() const { return m_changedRight; }
    QString rightSource() const;

protected:
    void changeEvent(QEvent* event) override;

private:
    void compare();

    QComboBox* m_right = nullptr;
    CodeEditor* m_leftEditor = nullptr;
    CodeEditor* m_rightEditor = nullptr;
    QLabel* m_summary = nullptr;
    QList<int> m_changedRight;
    Retranslator m_texts;
};
