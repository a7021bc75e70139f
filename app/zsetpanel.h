#pragma once

#include "redisconnection.h"

#include <QWidget>

class MemberWrites;
class QComboBox;
class QLabel;
class QLineEdit;
class QTableView;
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
    void refresh();
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
    void applyFilters();
    void retranslate();
    void showCount(qint64 rows, bool truncated);

    ZsetReader* m_reader = nullptr;
    ZsetModel* m_model = nullptr;
    QTableView* m_view = nullptr;
    QLabel* m_caption = nullptr;
    QLabel* m_count = nullptr;
    QLineEdit* m_memberFilter = nullptr;
    QLineEdit* m_minScore = nullptr;
    QLineEdit* m_maxScore = nullptr;
    QByteArray m_key;
    const MemberWrites* m_writes = nullptr;
};
