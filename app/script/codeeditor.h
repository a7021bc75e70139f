#pragma once

#include <QPlainTextEdit>

// A plain text editor for Lua with line numbers in a margin, and marked lines (findings, the
// debugger's current line) highlighted.
class CodeEditor : public QPlainTextEdit
{
    Q_OBJECT
public:
    explicit CodeEditor(QWidget* parent = nullptr);

    int lineNumberAreaWidth() const;
    void paintLineNumbers(QPaintEvent* event);
    // Highlights these 1-based lines with `colour` (replacing earlier marks of that colour).
    void markLines(const QList<int>& lines, const QColor& colour);
    void clearMarks();
    void goToLine(int line);

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void updateMargin();
    void applyMarks();

    QWidget* m_lineNumbers = nullptr;
    QHash<QRgb, QList<int>> m_marks;
};
