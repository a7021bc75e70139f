#include "watchpanel.h"

#include <QScopedValueRollback>

#include "redis/serversession.h"
#include "run/runmodel.h"
#include "watch/watchrecording.h"
#include "watchkeymodel.h"

#include <QEvent>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMessageBox>
#include <QPushButton>
#include <QSpinBox>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QVBoxLayout>

namespace {

QByteArray nameOf(int db, const QByteArray& key)
{
    return QByteArray::number(db) + ':' + key;
}

// An app's keys share a long prefix (rl:api:user:...) and differ at the end: a narrow Key column
// keeps the end.
class LeftElidingDelegate : public QStyledItemDelegate
{
public:
    using QStyledItemDelegate::QStyledItemDelegate;

protected:
    void initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const override
    {
        QStyledItemDelegate::initStyleOption(option, index);
        option->textElideMode = Qt::ElideLeft;
    }
};
} // namespace

WatchPanel::WatchPanel(const Stage& stage, QWidget* parent)
    : QWidget(parent)
    , m_stage(stage)
    , m_session(new WatchSession(this))
    , m_model(new WatchKeyModel(this))
{
    m_confirm = [this](const QString& question) {
        return QMessageBox::question(this, tr("Watch this server?"), question, QMessageBox::Yes | QMessageBox::Cancel,
                                     QMessageBox::Cancel)
            == QMessageBox::Yes;
    };

    m_intro = new QLabel(this);
    m_intro->setWordWrap(true);
    m_pattern = new QLineEdit(QStringLiteral("*"), this);
    m_pattern->setObjectName(QStringLiteral("WatchPattern"));
    m_duration = new QSpinBox(this);
    m_duration->setObjectName(QStringLiteral("WatchDuration"));
    m_duration->setRange(1, 3600);
    m_duration->setValue(60);
    m_patternLabel = new QLabel(this);
    m_durationLabel = new QLabel(this);
    m_patternLabel->setBuddy(m_pattern);
    m_durationLabel->setBuddy(m_duration);
    auto* form = new QFormLayout;
    form->setRowWrapPolicy(QFormLayout::WrapLongRows);
    form->addRow(m_patternLabel, m_pattern);
    form->addRow(m_durationLabel, m_duration);

    m_start = new QPushButton(this);
    m_start->setObjectName(QStringLiteral("WatchStart"));
    m_stop = new QPushButton(this);
    m_stop->setObjectName(QStringLiteral("WatchStop"));
    m_stop->setEnabled(false);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_start);
    buttons->addWidget(m_stop);
    buttons->addStretch();

    m_cost = new QLabel(this);
    m_cost->setWordWrap(true);
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("WatchStatus"));
    m_status->setWordWrap(true);
    m_verdict = new QLabel(this);
    m_verdict->setObjectName(QStringLiteral("WatchVerdict"));
    m_verdict->setWordWrap(true);
    QFont bold = m_verdict->font();
    bold.setBold(true);
    m_verdict->setFont(bold);

    m_table = new QTableView(this);
    m_table->setObjectName(QStringLiteral("WatchKeys"));
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setTabKeyNavigation(false); // one Tab stop: the arrows move between cells
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->hide();
    // The table fits the side dock: the figures take their width (header or number, whichever is
    // wider), the key and the sources share the rest (fitColumns()), elided on one line; their
    // tooltips hold the whole text.
    m_table->setWordWrap(false);
    QHeaderView* header = m_table->horizontalHeader();
    header->setSectionResizeMode(QHeaderView::ResizeToContents);
    header->setSectionResizeMode(WatchKeyModel::KeyColumn, QHeaderView::Interactive);
    header->setSectionResizeMode(WatchKeyModel::SourcesColumn, QHeaderView::Interactive);
    m_table->setItemDelegateForColumn(WatchKeyModel::KeyColumn, new LeftElidingDelegate(m_table));
    m_table->viewport()->installEventFilter(this);
    connect(header, &QHeaderView::sectionResized, this, [this](int column) {
        if (column != WatchKeyModel::KeyColumn && column != WatchKeyModel::SourcesColumn)
            fitColumns();
    });
    m_table->setMinimumHeight(120);
    m_openScript = new QPushButton(this);
    m_openScript->setObjectName(QStringLiteral("WatchOpenScript"));
    m_openScript->setEnabled(false);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_intro);
    layout->addLayout(form);
    layout->addLayout(buttons);
    layout->addWidget(m_cost);
    layout->addWidget(m_status);
    layout->addWidget(m_verdict);
    layout->addWidget(m_table, 1);
    auto* below = new QHBoxLayout;
    below->addWidget(m_openScript);
    below->addStretch();
    layout->addLayout(below);

    connect(m_start, &QPushButton::clicked, this, &WatchPanel::start);
    connect(m_stop, &QPushButton::clicked, this, &WatchPanel::stop);
    connect(m_openScript, &QPushButton::clicked, this, [this] {
        const QByteArray sha = chosenScriptSha();
        if (!sha.isEmpty())
            emit scriptRequested(tr("script %1 (seen by the watch)").arg(QString::fromLatin1(sha.left(12))),
                                 m_latest.scripts.value(sha));
    });
    connect(m_session, &WatchSession::started, this, &WatchPanel::onStarted);
    connect(m_session, &WatchSession::snapshotAvailable, this, &WatchPanel::onSnapshot);
    connect(m_session, &WatchSession::finished, this, &WatchPanel::onFinished);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                if (!m_selecting && current.isValid())
                    m_userChose = true;
                if (current.isValid() && current.row() < m_model->keys().size()) {
                    const WatchedKey& key = m_model->keys().at(current.row());
                    if (!m_feeding || !m_feed.isFor(key)) // not when a new row only moved it
                        showKey(key.db, key.key);
                }
            });
    if (m_stage.session)
        connect(m_stage.session, &ServerSession::stateChanged, this, &WatchPanel::retranslate);
    retranslate();
}

void WatchPanel::retranslate()
{
    m_intro->setText(tr("Point zsetlab at the Redis your app uses and watch its limiter from the outside: the "
                        "server's MONITOR stream shows every ZADD, and one that finds its member already there "
                        "is an overwrite. zsetlab writes nothing."));
    m_patternLabel->setText(tr("&Keys matching:"));
    m_pattern->setToolTip(tr("Redis glob patterns, separated by spaces, e.g. rl:* limit:{user}*"));
    m_durationLabel->setText(tr("Stop &after:"));
    m_duration->setSuffix(tr(" s"));
    m_start->setText(tr("&Watch"));
    m_stop->setText(tr("Stop (Esc)"));
    m_openScript->setText(tr("Open Its Script in the Script Doctor…"));
    m_openScript->setToolTip(tr("The Lua script behind the chosen key's calls, as the stream showed it (EVAL or "
                                "SCRIPT LOAD while the watch ran)."));
    const bool own = m_stage.session && m_stage.session->origin() == RedisServerChoice::Origin::Private;
    m_cost->setText(own ? tr("This is zsetlab's private server: run your app or zsetlab-cli against it and watch.")
                        : tr("MONITOR costs the server a large share of its throughput (Redis's own figures: SET "
                             "from about 95,000 to 42,000 requests/s with one monitor). The watch stops after the "
                             "time above, or at once with Stop."));
    showProgress();
}

bool WatchPanel::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_table->viewport() && event->type() == QEvent::Resize)
        fitColumns();
    return QWidget::eventFilter(watched, event);
}

void WatchPanel::fitColumns()
{
    QHeaderView* header = m_table->horizontalHeader();
    int figures = 0;
    for (int column = 0; column < WatchKeyModel::NUM_COLUMNS; ++column) {
        if (column != WatchKeyModel::KeyColumn && column != WatchKeyModel::SourcesColumn)
            figures += header->sectionSize(column);
    }
    // The key tells the rows apart: it gets the larger share.
    const int room = std::max(0, m_table->viewport()->width() - figures);
    const int key = std::max(header->minimumSectionSize(), room * 3 / 5);
    const int sources = std::max(header->minimumSectionSize(), room - key);
    if (header->sectionSize(WatchKeyModel::KeyColumn) != key)
        header->resizeSection(WatchKeyModel::KeyColumn, key);
    if (header->sectionSize(WatchKeyModel::SourcesColumn) != sources)
        header->resizeSection(WatchKeyModel::SourcesColumn, sources);
}

void WatchPanel::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

QString WatchPanel::statusText() const
{
    return m_status->text();
}

QString WatchPanel::verdictText() const
{
    return m_verdict->text();
}

bool WatchPanel::start()
{
    if (m_watching)
        return false;
    if (!m_stage.session || !m_stage.session->isUsable()) {
        m_status->setText(tr("Not connected to Redis: use Connect… first."));
        return false;
    }
    const RedisEndpoint endpoint = m_stage.session->endpoint();
    if (m_stage.session->origin() != RedisServerChoice::Origin::Private) {
        // A cluster is watched on every master: each pays the cost.
        const QStringList masters = m_stage.session->clusterMasters();
        const QString where = masters.isEmpty()
            ? endpoint.address()
            : tr("the cluster's masters (%1)").arg(masters.join(QLatin1String(", ")));
        QString question = tr("Watch %1 with MONITOR for up to %n s?", nullptr, m_duration->value()).arg(where)
            + QStringLiteral("\n\n") + m_cost->text();
        if (!endpoint.isLocal())
            question += QStringLiteral("\n\n")
                + tr("This server is not on this machine: the watch slows it for everyone who uses it.");
        if (!m_confirm(question)) {
            m_status->setText(tr("Not watched."));
            return false;
        }
    }
    WatchSession::Settings settings;
    settings.endpoint = endpoint;
    settings.options = m_stage.session->options();
    for (const QString& glob : m_pattern->text().split(QLatin1Char(' '), Qt::SkipEmptyParts))
        settings.patterns.append(KeyPattern(glob.toUtf8()));
    settings.duration = std::chrono::seconds(m_duration->value());
    if (!m_session->start(settings))
        return false;
    m_model->clear();
    m_records.clear();
    m_keptInAll = 0;
    m_latest = WatchSnapshot();
    m_serverShown.clear();
    m_ended.clear();
    m_feeding = false;
    m_userChose = false;
    m_feed.reset(-1, {});
    setWatching(true);
    showProgress();
    return true;
}

void WatchPanel::stop()
{
    if (m_watching)
        m_session->stop();
}

void WatchPanel::setWatching(bool watching)
{
    m_watching = watching;
    m_start->setEnabled(!watching);
    m_stop->setEnabled(watching);
    m_pattern->setEnabled(!watching);
    m_duration->setEnabled(!watching);
    emit runningChanged(watching);
}

void WatchPanel::onStarted(const QString& server)
{
    m_serverShown = server;
    showProgress();
}

void WatchPanel::onSnapshot(const WatchSnapshot& snapshot)
{
    const QScopedValueRollback<bool> selecting(m_selecting, true); // rows moved or chosen here
    keep(snapshot);
    m_latest = snapshot;
    m_model->setKeys(snapshot.keys, snapshot.scripts);
    feedTimeline(snapshot); // before a first choice below, which draws the kept records, these too
    // The key on the timeline keeps its row selected when others come. Until the user chooses
    // one, the first key written to is shown: a key only read (the window's own ZSET table reads
    // its burst's key) gives way to it.
    const int shown = m_feeding ? m_model->rowOf(m_feed.db(), m_feed.key()) : -1;
    int written = -1;
    for (int row = 0; row < snapshot.keys.size() && written < 0; ++row) {
        if (snapshot.keys.at(row).zadds > 0)
            written = row;
    }
    const bool shownWritten = shown >= 0 && snapshot.keys.at(shown).zadds > 0;
    if (!m_userChose && written >= 0 && !shownWritten)
        m_table->selectRow(written);
    else if (shown >= 0 && m_table->selectionModel()->currentIndex().row() != shown)
        m_table->selectRow(shown);
    else if (!m_table->selectionModel()->currentIndex().isValid() && !snapshot.keys.isEmpty())
        m_table->selectRow(0);
    updateScriptButton();
    showProgress();
}

void WatchPanel::onFinished(const WatchResult& result)
{
    onSnapshot(result.snapshot);
    switch (result.end) {
    case WatchResult::End::Duration:
        m_ended = tr("The watch ended after %1 s.").arg(m_duration->value());
        break;
    case WatchResult::End::Stopped:
        m_ended = tr("The watch was stopped.");
        break;
    case WatchResult::End::Failed:
        m_ended = result.error.message;
        break;
    }
    setWatching(false);
    if (m_feeding)
        recordShownKey(m_records.value(nameOf(m_feed.db(), m_feed.key())));
    showProgress();
}

void WatchPanel::setKeptLimits(qsizetype perKey, qsizetype inAll)
{
    m_keptPerKeyLimit = perKey;
    m_keptInAllLimit = inAll;
}

void WatchPanel::keep(const WatchSnapshot& snapshot)
{
    for (const WatchedKey& key : snapshot.keys) {
        if (!key.preexisting.empty()) {
            std::vector<WatchMember>& before = m_records[nameOf(key.db, key.key)].preexisting;
            before.insert(before.end(), key.preexisting.begin(), key.preexisting.end());
        }
        if (key.records.isEmpty())
            continue;
        const qsizetype room = std::min(m_keptInAllLimit - m_keptInAll,
                                        m_keptPerKeyLimit - m_records.value(nameOf(key.db, key.key)).count);
        if (room <= 0)
            continue;
        KeptRecords& kept = m_records[nameOf(key.db, key.key)];
        // A copy of its own, exactly as large as it holds (the snapshot's list has room to spare).
        const qsizetype taken = std::min(room, key.records.size());
        kept.parts.append(QVector<WatchRecord>(key.records.constBegin(), key.records.constBegin() + taken));
        kept.count += taken;
        m_keptInAll += taken;
    }
}

void WatchPanel::feedTimeline(const WatchSnapshot& snapshot)
{
    if (!m_feeding || !m_stage.run)
        return;
    for (const WatchedKey& key : snapshot.keys) {
        if (m_feed.isFor(key))
            m_stage.run->addBatch(m_feed.take(key));
    }
}

void WatchPanel::showKey(int db, const QByteArray& key)
{
    const int row = m_model->rowOf(db, key);
    if (row < 0 || !m_stage.run)
        return;
    if (m_stage.timelineBusy && m_stage.timelineBusy()) {
        m_feeding = false;
        m_status->setText(tr("A burst is using the timeline: choose the key again once it ends."));
        return;
    }
    m_feeding = true;
    ++m_recordingGeneration; // a recording of the key shown before is not this one's
    m_feed.reset(db, key);
    // Everything seen of the key so far, as one batch; the snapshots that follow add to it.
    WatchedKey whole = m_model->keys().at(row);
    const KeptRecords kept = m_records.value(nameOf(db, key));
    m_stage.run->setTitle(
        kept.count < whole.zadds
            ? tr("Watched: %1 (drawn from the first %L2 of its %L3 ZADDs: the window keeps at most %L4 per key and "
                 "%L5 in all; the figures count every one)")
                  .arg(QString::fromUtf8(key))
                  .arg(kept.count)
                  .arg(whole.zadds)
                  .arg(m_keptPerKeyLimit)
                  .arg(m_keptInAllLimit)
            : tr("Watched: %1").arg(QString::fromUtf8(key)));
    RunModel::Shape shape;
    shape.limit = -1; // the app's limit: an argument of its calls, unknown here
    shape.serverClock = true;
    m_stage.run->start(shape);
    whole.records = keptRecordsOf(kept); // the last snapshot's are kept too
    m_stage.run->addBatch(m_feed.take(whole));
    if (!m_watching)
        recordShownKey(kept);
    updateScriptButton();
    emit keyShown(db, key);
}

QVector<WatchRecord> WatchPanel::keptRecordsOf(const KeptRecords& kept)
{
    QVector<WatchRecord> records;
    records.reserve(kept.count);
    for (const QVector<WatchRecord>& part : kept.parts)
        records.append(part);
    return records;
}

void WatchPanel::recordShownKey(const KeptRecords& kept)
{
    if (!m_feeding || !m_stage.run || m_model->rowOf(m_feed.db(), m_feed.key()) < 0)
        return;
    if (m_stage.run->isLive())
        m_stage.run->finish(m_stage.run->figures());
    const ServerInfo server = m_stage.session ? m_stage.session->server() : ServerInfo();
    const quint64 generation = ++m_recordingGeneration;
    if (!m_recorder)
        m_recorder = std::make_unique<TaskThread>();
    // The job holds copies: the kept parts are shared, not copied, until one side changes them.
    m_recorder->post([this, generation, key = m_feed.key(), kept, name = server.name, version = server.nameVersion] {
        auto recording = std::make_shared<const Recording>(
            WatchRecording::of(key, keptRecordsOf(kept), kept.preexisting, name, version));
        QMetaObject::invokeMethod(
            this, [this, generation, recording] { takeRecording(generation, recording); }, Qt::QueuedConnection);
    });
}

void WatchPanel::takeRecording(quint64 generation, const std::shared_ptr<const Recording>& recording)
{
    if (generation != m_recordingGeneration || !m_feeding || !m_stage.run || m_stage.run->isLive())
        return; // another key, or another watch, since it was asked for
    if (!recording->isEmpty())
        m_stage.run->setRecording(recording);
}

QByteArray WatchPanel::chosenScriptSha() const
{
    const int row = m_feeding ? m_model->rowOf(m_feed.db(), m_feed.key()) : m_table->currentIndex().row();
    if (row < 0 || row >= m_model->keys().size())
        return {};
    // The source with the most requests whose body is known.
    QByteArray best;
    qint64 most = -1;
    for (const WatchSource& source : m_model->keys().at(row).sources) {
        if (source.kind == WatchSource::Kind::Script && source.requests > most
            && m_latest.scripts.contains(source.id.toLower())) {
            best = source.id.toLower();
            most = source.requests;
        }
    }
    return best;
}

void WatchPanel::updateScriptButton()
{
    m_openScript->setEnabled(!chosenScriptSha().isEmpty());
}

void WatchPanel::releaseTimeline()
{
    m_feeding = false;
}

void WatchPanel::showProgress()
{
    const QLocale locale;
    QString status;
    if (m_watching) {
        status = m_serverShown.isEmpty()
            ? tr("Starting MONITOR…")
            : tr("Watching %1 for %2 s of %3: %Ln key(s), ", nullptr, int(m_latest.keys.size()))
                    .arg(m_serverShown)
                    .arg(m_latest.elapsedMs / 1000)
                    .arg(m_duration->value())
                + tr("%Ln request(s).", nullptr, int(std::min<qint64>(m_latest.requests(), 2'000'000'000)));
    } else if (!m_ended.isEmpty()) {
        status = m_ended;
    }
    m_status->setText(status);
    if (m_latest.keys.isEmpty())
        m_verdict->setText(m_watching && !m_serverShown.isEmpty()
                               ? tr("No request reached a watched key yet: run your app (or zsetlab-cli run) "
                                    "against this server, or check the pattern.")
                               : QString());
    else
        m_verdict->setText(m_latest.verdict());
}
