#pragma once

#include "base/taskthread.h"
#include "watch/watchreport.h"
#include "watch/watchsession.h"
#include "watch/watchtimelinefeed.h"

#include <QHash>
#include <QWidget>

#include <functional>
#include <memory>

class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTableView;
class RunModel;
class ServerSession;
class WatchKeyModel;

// Watch mode, beside Burst and Lesson: zsetlab reads the MONITOR stream of the server in use,
// writes nothing, and shows each watched sorted set's requests and overwrites; the key chosen in
// the table becomes the window's run, drawn as a burst of zsetlab's own would be.
class Recording;

class WatchPanel : public QWidget
{
    Q_OBJECT
public:
    struct Stage
    {
        ServerSession* session = nullptr;
        RunModel* run = nullptr; // the run drawn on while the window fires no burst
        std::function<bool()> timelineBusy; // a burst is using the run
    };
    WatchPanel(const Stage& stage, QWidget* parent = nullptr);

    // Asked before watching a server zsetlab did not start (MONITOR's cost) and, in other words,
    // before one that is not on this machine; true to go on. A message box unless replaced.
    void setConfirm(std::function<bool(const QString& question)> confirm) { m_confirm = std::move(confirm); }
    // The ZADDs kept for drawing a key chosen later: at most this many per key and in all (by
    // default 200,000 and 1,000,000, about 100 bytes each), from the next watch on.
    void setKeptLimits(qsizetype perKey, qsizetype inAll);

    bool isWatching() const { return m_watching; }
    // False with the reason in the status line when nothing was started.
    bool start();
    void stop();
    // A burst takes the run view: the watch goes on, its timeline comes back when a key is chosen.
    void releaseTimeline();
    void showKey(int db, const QByteArray& key);

    WatchKeyModel* keys() const { return m_model; }
    QTableView* table() const { return m_table; }
    QString statusText() const;
    QString verdictText() const;
    const WatchSnapshot& latest() const { return m_latest; }

    // The script behind the chosen key's calls, when the stream showed its body; empty otherwise.
    QByteArray chosenScriptSha() const;

signals:
    void runningChanged(bool watching);
    // The timeline now draws this key.
    void keyShown(int db, const QByteArray& key);
    // Open this script, seen in the stream, in the Script Doctor.
    void scriptRequested(const QString& name, const QByteArray& source);

protected:
    void changeEvent(QEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void retranslate();
    void onStarted(const QString& server);
    void onSnapshot(const WatchSnapshot& snapshot);
    void onFinished(const WatchResult& result);
    void keep(const WatchSnapshot& snapshot);
    void feedTimeline(const WatchSnapshot& snapshot);
    void showProgress();
    void setWatching(bool watching);
    void updateScriptButton();
    void fitColumns();

    Stage m_stage;
    WatchSession* m_session = nullptr;
    WatchKeyModel* m_model = nullptr;
    WatchTimelineFeed m_feed;
    bool m_feeding = false;
    bool m_watching = false;
    // The key on the timeline was picked by the user, not by the panel (which shows the first key
    // that was written to until then: the window's own reads of its keys come as keys too).
    bool m_userChose = false;
    bool m_selecting = false;
    std::function<bool(const QString&)> m_confirm;
    // Each key's ZADDs so far (snapshots hand on only what is new), so that a key chosen later is
    // drawn whole; bounded per key and in all.
    // A key's records are kept as the snapshots brought them, one list each: keeping more never
    // moves what is kept (one growing list per key meant copying them all again and again, all
    // keys at once). showKey() joins them.
    struct KeptRecords
    {
        QList<QVector<WatchRecord>> parts;
        qsizetype count = 0;
        std::vector<WatchMember> preexisting; // what the key held before its first ZADD
    };
    static QVector<WatchRecord> keptRecordsOf(const KeptRecords& kept); // its parts, joined
    // The key drawn, recorded from what was kept: once the watch has ended, its run model can be
    // stepped through and saved. The recording is made on a thread of its own (up to 200,000
    // writes took the GUI thread 10 to 26 ms, bench_gui's watch) and handed to the run model
    // when it is ready, unless another key or watch came first.
    void recordShownKey(const KeptRecords& kept);
    void takeRecording(quint64 generation, const std::shared_ptr<const Recording>& recording);
    QHash<QByteArray, KeptRecords> m_records;
    qsizetype m_keptInAll = 0;
    qsizetype m_keptPerKeyLimit = 200'000;
    qsizetype m_keptInAllLimit = 1'000'000;
    WatchSnapshot m_latest;
    QString m_serverShown; // "Redis 7.0.15", "Valkey 8.1.1": once MONITOR answered
    QString m_ended;
    quint64 m_recordingGeneration = 0; // raised by each key shown and each recording asked for

    QLabel* m_intro = nullptr;
    QLabel* m_patternLabel = nullptr;
    QLineEdit* m_pattern = nullptr;
    QLabel* m_durationLabel = nullptr;
    QSpinBox* m_duration = nullptr;
    QPushButton* m_start = nullptr;
    QPushButton* m_stop = nullptr;
    QPushButton* m_openScript = nullptr;
    QLabel* m_cost = nullptr;
    QLabel* m_status = nullptr;
    QLabel* m_verdict = nullptr;
    QTableView* m_table = nullptr;
    // Last: destroyed first, so that a recording being made ends before the rest of the panel.
    std::unique_ptr<TaskThread> m_recorder;
};
