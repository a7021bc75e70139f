#pragma once

#include "handout.h"

#include <QJsonArray>
#include <QList>
#include <QObject>
#include <QSize>
#include <QTimer>

#include <functional>

class Lesson;
class RunController;
class ServerSession;
class QWidget;

// `zsetlab --lesson N|all --export-png FILE|DIR/ [--export-gif FILE|DIR/] [--export-json FILE]
// [--export-pdf FILE]`: runs lesson steps headless, each with its action, against the Redis in use,
// and writes the stage of each (StageScene: what the class sees), its run as an animation, and a
// printable handout (Handout). The JSON names, for every step, the limiter that ran and Redis's
// figures.
class LessonExport : public QObject
{
    Q_OBJECT
public:
    struct Job
    {
        int step = 0; // 1-based; 0: every step
        QString png; // a file, or a folder for every step
        QString json;
        QString pdf; // a handout: per step a question page, then the answer page
        QString gif; // the step's burst as an animation: a file, or a folder for every step
        QSize size {1600, 900};
        double scale = 1.0;
        int timeoutMs = 10 * 60 * 1000;
    };
    struct Stage
    {
        QWidget* window = nullptr;
        ServerSession* session = nullptr;
        RunController* runs = nullptr; // the runs the steps fire and what they ran
        Lesson* lesson = nullptr;
        std::function<void()> showLesson; // brings the lesson panel to the front
    };

    LessonExport(Stage stage, Job job, QObject* parent = nullptr);
    // Listens to the session (call it before connecting); finished(code) when done.
    void start();
    // SIGINT or SIGTERM: the files of the steps written so far are removed, finished(130).
    void interrupt();
    // Where step `index` (0-based) is written: its picture, its animation.
    QString pictureOf(int index) const;
    QString animationOf(int index) const;

signals:
    void finished(int exitCode);

private:
    void begin();
    void runNext();
    void record();
    void done();
    Handout::Step handoutStep() const;
    // The stage of the current step, as the export draws it (cursor: the request looked at).
    StageScene::State stageState(int cursor = -1) const;
    QImage picture(const StageScene::State& state) const;
    bool animate(const QString& path, QString* error) const;
    void fail(const QString& message, int code);

    Stage m_stage;
    Job m_job;
    QTimer m_timeout;
    QList<int> m_queue; // 0-based steps still to run
    int m_current = -1;
    bool m_pictureCurrent = false;
    QStringList m_written;
    Handout m_handout;
    QJsonArray m_steps;
    bool m_done = false;
    double m_textScale = 1.0; // the current step's, at the export's size
};
