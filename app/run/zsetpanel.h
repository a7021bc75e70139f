#pragma once

#include "redis/redisconnection.h"

#include <optional>

#include <QWidget>

class MemberWrites;
class QAbstractItemModel;
class QComboBox;
class ElidingLabel;
class QLabel;
class QLineEdit;
class QTableView;
class QTimer;
class ReplayMembersModel;
struct ReplayState;
struct ZsetSource;
class ZsetModel;
class ZsetReader;

// The ZSET table with its filters: member text and a score range.
class ZsetPanel : public QWidget
{
    Q_OBJECT
public:
    explicit ZsetPanel(QWidget* parent = nullptr);

    void setServer(const RedisEndpoint& endpoint, const ConnectOptions& options);
    // Shows `key`; writes says how many requests wrote each member.
    void showKey(const QByteArray& key, const MemberWrites* writes, const QString& caption);
    // After a run: the copy of its ZSET taken when it ended, which stays while the limiter's own
    // key expires or is trimmed. stored: the requests that got a member of their own (-1 unknown).
    struct Snapshot
    {
        QByteArray key; // the copy
        QByteArray liveKey; // the limiter's key
        qint64 takenAtMs = 0;
        qint64 stored = -1;
        qint64 windowMs = 0;
    };
    void showSnapshot(const Snapshot& snapshot, const MemberWrites* writes, const QString& caption);
    // The note under the caption: when the snapshot was taken and what became of the live key.
    QString note() const;
    // A replay's ZSET right after one request, from the recording (no server read); the member the
    // request wrote is marked. Filters wait until a key of the server is shown again.
    void showState(const ReplayState& state, const QString& caption);
    // What RunController says a run's table reads: a replay's state, the live key or its copy,
    // captioned with the key and the limiter. `writes`: the run's (for a key of the server).
    void showSource(const ZsetSource& source, const MemberWrites* writes);
    bool showsReplay() const;
    // Hides the Writes column while a lesson asks how many requests wrote a member.
    void setWritesHidden(bool hidden);
    ReplayMembersModel* replayModel() const { return m_replayModel; }
    void refresh();
    // Reads the key again every 300 ms while a run or a watch writes it.
    void setFollowing(bool on);
    void clear();
    // Selects and scrolls to a member once its row is known.
    void selectMember(const QByteArray& member);

    ZsetModel* model() const { return m_model; }
    ZsetReader* reader() const { return m_reader; }
    const MemberWrites* writes() const { return m_writes; }
    QTableView* view() const { return m_view; }
    QByteArray key() const;

protected:
    void changeEvent(QEvent* event) override;

private:
    bool m_writesHidden = false;
    int m_scoreDigits = 13; // the widest score shown so far
    int m_memberChars = 4; // the longest member shown so far, up to a cap
    void applyFilters();
    void retranslate();
    void fitColumns();
    void fitScores();
    void showModel(QAbstractItemModel* model);
    void showCount(qint64 rows, bool truncated);
    void showNote();
    void showServerModel();

    ZsetReader* m_reader = nullptr;
    QTimer* m_following = nullptr; // setFollowing()
    ZsetModel* m_model = nullptr;
    ReplayMembersModel* m_replayModel = nullptr;
    QTableView* m_view = nullptr;
    ElidingLabel* m_caption = nullptr;
    QLabel* m_count = nullptr;
    QLabel* m_note = nullptr;
    std::optional<Snapshot> m_snapshot;
    qint64 m_liveMembers = -1; // ZCARD of the live key, read after the snapshot; 0: gone
    QLineEdit* m_memberFilter = nullptr;
    QLineEdit* m_minScore = nullptr;
    QLineEdit* m_maxScore = nullptr;
    QByteArray m_wantedMember; // selectMember()'s, until its row is known
    QByteArray m_key;
    const MemberWrites* m_writes = nullptr;
};
