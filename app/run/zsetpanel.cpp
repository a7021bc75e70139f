#include "zsetpanel.h"

#include "widgets/elidinglabel.h"
#include "widgets/onelinedelegate.h"

#include "replaymembersmodel.h"
#include "results/zsetreader.h"
#include "run/runcontroller.h"
#include "zsetmodel.h"

#include <QDateTime>
#include <QDoubleValidator>
#include <QEvent>
#include <QFontDatabase>
#include <QGridLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QScrollBar>
#include <QStyle>
#include <QTableView>
#include <QTimer>

ZsetPanel::ZsetPanel(QWidget* parent)
    : QWidget(parent)
{
    m_reader = new ZsetReader(this);
    m_following = new QTimer(this);
    m_following->setObjectName(QStringLiteral("ZsetRefresh"));
    m_following->setInterval(300);
    connect(m_following, &QTimer::timeout, this, &ZsetPanel::refresh);
    m_model = new ZsetModel(m_reader, this);
    m_replayModel = new ReplayMembersModel(this);
    auto* layout = new QGridLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    // One line, shortened where it does not fit: a replay's "after request 10 of 200" never
    // widens the panel or pushes the table down as the class steps.
    m_caption = new ElidingLabel(this);
    m_caption->setObjectName(QStringLiteral("ZsetCaption"));
    m_count = new QLabel(this);
    m_count->setWordWrap(true);
    m_note = new QLabel(this);
    m_note->setWordWrap(true);
    m_note->hide();
    m_memberFilter = new QLineEdit(this);
    m_memberFilter->setClearButtonEnabled(true);
    m_minScore = new QLineEdit(this);
    m_maxScore = new QLineEdit(this);
    for (QLineEdit* edit : {m_minScore, m_maxScore}) {
        auto* validator = new QDoubleValidator(edit);
        validator->setLocale(QLocale::c());
        edit->setValidator(validator);
        edit->setClearButtonEnabled(true);
    }
    m_view = new QTableView(this);
    m_view->setModel(m_model);
    m_view->setItemDelegate(new OneLineDelegate(m_view)); // every step of a replay repaints it
    m_view->setWordWrap(false); // rows are a line high: a member too long is elided, not wrapped
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setTabKeyNavigation(false); // one Tab stop: the arrows move between cells
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_view->horizontalHeader()->setSectionResizeMode(ZsetModel::MemberColumn, QHeaderView::Stretch);
    m_view->setAlternatingRowColors(true);

    layout->addWidget(m_caption, 0, 0, 1, 3);
    layout->addWidget(m_note, 1, 0, 1, 3);
    layout->addWidget(m_memberFilter, 2, 0);
    layout->addWidget(m_minScore, 2, 1);
    layout->addWidget(m_maxScore, 2, 2);
    layout->addWidget(m_view, 3, 0, 1, 3);
    layout->addWidget(m_count, 4, 0, 1, 3);
    layout->setColumnStretch(0, 2);
    layout->setColumnStretch(1, 1);
    layout->setColumnStretch(2, 1);

    // Filters apply when typing pauses, not on every key.
    auto* debounce = new QTimer(this);
    debounce->setSingleShot(true);
    debounce->setInterval(250);
    connect(debounce, &QTimer::timeout, this, &ZsetPanel::applyFilters);
    for (QLineEdit* edit : {m_memberFilter, m_minScore, m_maxScore})
        connect(edit, &QLineEdit::textChanged, debounce, qOverload<>(&QTimer::start));
    connect(m_model, &ZsetModel::countChanged, this, &ZsetPanel::showCount);
    connect(m_model, &ZsetModel::readFailed, this, [this](const QString& message) { m_count->setText(message); });
    connect(m_reader, &ZsetReader::keySizeReady, this, [this](const QByteArray& key, qint64 members) {
        if (m_snapshot && key == m_snapshot->liveKey) {
            m_liveMembers = members;
            showNote();
        }
    });
    connect(m_reader, &ZsetReader::rowReady, this, [this](quint64 generation, const QByteArray& member, qint64 row) {
        if (generation != m_reader->generation() || member != m_wantedMember)
            return; // asked of a table shown before: applyFilters() asks the new one
        m_wantedMember.clear();
        if (row < 0 || row >= m_model->rowCount())
            return;
        m_view->selectRow(int(row));
        m_view->scrollTo(m_model->index(int(row), ZsetModel::MemberColumn), QAbstractItemView::PositionAtCenter);
    });
    retranslate();
    fitColumns();
    // Scores wider than a millisecond's (microseconds) widen their column as their page arrives.
    for (QAbstractItemModel* model :
         {static_cast<QAbstractItemModel*>(m_model), static_cast<QAbstractItemModel*>(m_replayModel)}) {
        connect(model, &QAbstractItemModel::modelReset, this, &ZsetPanel::fitScores);
        connect(model, &QAbstractItemModel::dataChanged, this, &ZsetPanel::fitScores);
    }
}

namespace {
constexpr int maxMemberChars = 32;
constexpr int minScoreDigits = 13; // a millisecond's
} // namespace

void ZsetPanel::fitScores()
{
    // Scores are shown whole: a microsecond clock's 16 digits, or a fraction's 17 significant
    // digits. Members as long as lua/microseconds.lua writes them ("req:1.7963912493385e+15") too,
    // up to a cap; the member column takes the rest of the table.
    const ZsetTextLength longest = showsReplay() ? m_replayModel->longestText() : m_model->longestText();
    const int digits = std::max(minScoreDigits, longest.score);
    const int member = std::min(maxMemberChars, longest.member);
    if (digits <= m_scoreDigits && member <= m_memberChars)
        return;
    m_scoreDigits = std::max(m_scoreDigits, digits);
    m_memberChars = std::max(m_memberChars, member);
    fitColumns();
}

void ZsetPanel::showModel(QAbstractItemModel* model)
{
    // A new model resets the header's sections: their widths and the member column's stretch.
    m_view->setModel(model);
    m_view->horizontalHeader()->setSectionResizeMode(ZsetModel::MemberColumn, QHeaderView::Stretch);
    m_view->setColumnHidden(ZsetModel::WritesColumn, m_writesHidden);
    fitColumns();
    fitScores();
}

void ZsetPanel::setWritesHidden(bool hidden)
{
    m_writesHidden = hidden;
    m_view->setColumnHidden(ZsetModel::WritesColumn, hidden);
}

void ZsetPanel::retranslate()
{
    m_memberFilter->setPlaceholderText(tr("member contains…"));
    m_memberFilter->setToolTip(tr("Show only members that contain this text."));
    m_minScore->setPlaceholderText(tr("score from"));
    m_maxScore->setPlaceholderText(tr("score to"));
    for (QLineEdit* edit : {m_minScore, m_maxScore})
        edit->setToolTip(tr("Show only members whose score (the request's now) lies in this range."));
    m_view->setToolTip(tr("The contents of the ZSET, sorted by score: live while a burst runs, then as they were "
                          "when it ended. Writes: how many requests of the burst wrote that member."));
    if (m_key.isEmpty())
        m_caption->setFullText(tr("No burst yet."));
    emit m_model->headerDataChanged(Qt::Horizontal, 0, ZsetModel::NUM_COLUMNS - 1);
    if (!m_key.isEmpty())
        showCount(m_model->rowCount(), m_model->isTruncated());
    showNote();
}

void ZsetPanel::showCount(qint64 rows, bool truncated)
{
    QString text = truncated ? tr("first %L1 matching members").arg(rows) : tr("%Ln member(s)", nullptr, int(rows));
    // A long burst stores more members than the window keeps: say where the others went.
    const bool filtered
        = !m_memberFilter->text().isEmpty() || !m_minScore->text().isEmpty() || !m_maxScore->text().isEmpty();
    if (m_snapshot && !filtered && m_snapshot->stored > rows)
        text += QLatin1Char(' ')
            + tr("(%L1 requests stored a member; the window of %L2 ms trimmed the older ones)")
                  .arg(m_snapshot->stored)
                  .arg(m_snapshot->windowMs);
    m_count->setText(text);
}

void ZsetPanel::showNote()
{
    m_note->setText(note());
    m_note->setVisible(!m_note->text().isEmpty());
}

QString ZsetPanel::note() const
{
    if (!m_snapshot)
        return {};
    const QString taken
        = QLocale().toString(QDateTime::fromMSecsSinceEpoch(m_snapshot->takenAtMs).time(), QStringLiteral("HH:mm:ss"));
    QString text = tr("As it was when the burst ended, at %1.").arg(taken);
    if (m_liveMembers == 0)
        text += QLatin1Char(' ') + tr("The burst's key has expired since (its limiter sets a TTL).");
    else if (m_liveMembers > 0)
        text += QLatin1Char(' ') + tr("The burst's key holds %Ln member(s) now.", nullptr, int(m_liveMembers));
    return text;
}

void ZsetPanel::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    if (event->type() == QEvent::LanguageChange || event->type() == QEvent::FontChange)
        fitColumns();
}

void ZsetPanel::fitColumns()
{
    // The table's fixed-width text grows with the window's, and each column is as wide as its
    // widest digits or its title, whichever is wider. Widths from the font, not ResizeToContents:
    // measuring contents asks the model for a thousand rows, i.e. fetches pages nobody looks at,
    // on every refresh of a large ZSET.
    QFont fixed = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    fixed.setPointSizeF(font().pointSizeF());
    m_model->setFixedFont(fixed);
    m_replayModel->setFixedFont(fixed);
    const QFontMetrics digits(fixed);
    m_view->verticalHeader()->setDefaultSectionSize(std::max(digits.height(), fontMetrics().height()) + 6);
    QHeaderView* header = m_view->horizontalHeader();
    const QFontMetrics titles(header->font());
    const int padding = 2 * header->style()->pixelMetric(QStyle::PM_HeaderMargin, nullptr, header) + 8;
    auto width = [&](int column, const char* widest) {
        const QString title = m_model->headerData(column, Qt::Horizontal).toString();
        return std::max(digits.horizontalAdvance(QLatin1String(widest)), titles.horizontalAdvance(title)) + padding;
    };
    // The member column gets what is left, at least room for a millisecond member. First: the
    // minimum of a larger text would keep the columns below wide after a zoom back.
    header->setMinimumSectionSize(
        std::min(width(ZsetModel::RankColumn, "00000"), digits.horizontalAdvance(QLatin1Char('0')) * 4));
    header->resizeSection(ZsetModel::RankColumn, width(ZsetModel::RankColumn, "00000"));
    // A millisecond's 13 digits, or as many as the widest score the table has held.
    header->resizeSection(ZsetModel::ScoreColumn,
                          width(ZsetModel::ScoreColumn, QByteArray(m_scoreDigits, '0').constData()));
    header->resizeSection(ZsetModel::WritesColumn, width(ZsetModel::WritesColumn, "0000"));
    // Narrower, the table scrolls sideways: the member column keeps room for a few characters.
    m_view->setMinimumWidth(header->sectionSize(ZsetModel::RankColumn) + header->sectionSize(ZsetModel::ScoreColumn)
                            + header->sectionSize(ZsetModel::WritesColumn)
                            + width(ZsetModel::MemberColumn, QByteArray(m_memberChars, '0').constData())
                            + m_view->verticalScrollBar()->sizeHint().width() + 2 * m_view->frameWidth());
}

void ZsetPanel::setServer(const RedisEndpoint& endpoint, const ConnectOptions& options)
{
    m_reader->setEndpoint(endpoint, options);
}

void ZsetPanel::showSource(const ZsetSource& source, const MemberWrites* writes)
{
    switch (source.kind) {
    case ZsetSource::Kind::None:
        return;
    case ZsetSource::Kind::Replay:
        showState(source.state,
                  tr("%1 · %2 · after request %L3 of %L4")
                      .arg(QString::fromUtf8(source.key), source.limiter)
                      .arg(source.state.request)
                      .arg(source.state.requests));
        return;
    case ZsetSource::Kind::LiveKey:
        showKey(source.key, writes, tr("%1 · %2").arg(QString::fromUtf8(source.key), source.limiter));
        return;
    case ZsetSource::Kind::Snapshot:
        Snapshot snapshot;
        snapshot.key = source.snapshotKey;
        snapshot.liveKey = source.key;
        snapshot.takenAtMs = source.takenAtMs;
        snapshot.stored = source.stored;
        snapshot.windowMs = source.windowMs;
        showSnapshot(snapshot, writes, tr("%1 · %2").arg(QString::fromUtf8(source.key), source.limiter));
        return;
    }
}

void ZsetPanel::showSnapshot(const Snapshot& snapshot, const MemberWrites* writes, const QString& caption)
{
    showServerModel();
    m_snapshot = snapshot;
    m_liveMembers = -1;
    m_key = snapshot.key;
    m_writes = writes;
    m_model->setWrites(writes);
    m_caption->setFullText(caption);
    applyFilters();
    m_reader->requestKeySize(snapshot.liveKey);
    showNote();
}

void ZsetPanel::showServerModel()
{
    if (m_view->model() == m_model)
        return;
    showModel(m_model);
    m_replayModel->clear();
    for (QLineEdit* edit : {m_memberFilter, m_minScore, m_maxScore})
        edit->setEnabled(true);
}

bool ZsetPanel::showsReplay() const
{
    return m_view->model() == m_replayModel;
}

void ZsetPanel::showState(const ReplayState& state, const QString& caption)
{
    if (m_view->model() != m_replayModel) {
        showModel(m_replayModel);
        for (QLineEdit* edit : {m_memberFilter, m_minScore, m_maxScore})
            edit->setEnabled(false);
    }
    m_snapshot.reset();
    showNote();
    m_key = state.key;
    m_replayModel->setState(state);
    m_caption->setFullText(caption);
    if (state.members < 0)
        m_count->setText(tr("This limiter names no member: only its counts were recorded."));
    else
        m_count->setText(tr("%Ln member(s) after request %1", nullptr, int(state.members)).arg(state.request));
    if (const int row = m_replayModel->writtenRow(); row >= 0) {
        m_view->selectRow(row);
        m_view->scrollTo(m_replayModel->index(row, ZsetModel::MemberColumn));
    }
}

void ZsetPanel::showKey(const QByteArray& key, const MemberWrites* writes, const QString& caption)
{
    showServerModel();
    m_snapshot.reset();
    showNote();
    m_key = key;
    m_writes = writes;
    m_model->setWrites(writes);
    m_caption->setFullText(caption.isEmpty() ? QString::fromUtf8(key) : caption);
    applyFilters();
}

void ZsetPanel::applyFilters()
{
    // A selected member stays selected when the table is read again (the live key gives way to
    // its snapshot when the run ends, a filter changes): it is asked for in the new table.
    if (m_wantedMember.isEmpty() && m_view->selectionModel()) {
        m_wantedMember = m_view->selectionModel()
                             ->selectedRows(ZsetModel::MemberColumn)
                             .value(0)
                             .data(ZsetModel::MemberRole)
                             .toByteArray();
    }
    ZsetQuery query;
    query.key = m_key;
    query.memberContains = m_memberFilter->text();
    bool ok = false;
    const double min = QLocale::c().toDouble(m_minScore->text(), &ok);
    if (ok)
        query.minScore = min;
    const double max = QLocale::c().toDouble(m_maxScore->text(), &ok);
    if (ok)
        query.maxScore = max;
    m_model->setQuery(query);
    if (!m_wantedMember.isEmpty()) // the table changed before the selection's row came back
        m_reader->requestRowOf(m_wantedMember);
}

void ZsetPanel::setFollowing(bool on)
{
    if (on)
        m_following->start();
    else
        m_following->stop();
}

void ZsetPanel::refresh()
{
    if (showsReplay())
        return; // the recording, not the server
    m_model->refresh();
    if (m_snapshot)
        m_reader->requestKeySize(m_snapshot->liveKey);
}

void ZsetPanel::clear()
{
    showServerModel();
    m_key.clear();
    m_writes = nullptr;
    m_model->setWrites(nullptr);
    m_model->clear();
    m_caption->setFullText(tr("No burst yet."));
    m_count->clear();
    m_snapshot.reset();
    m_scoreDigits = minScoreDigits;
    m_memberChars = 4;
    fitColumns();
    showNote();
}

void ZsetPanel::selectMember(const QByteArray& member)
{
    m_wantedMember = member;
    if (!member.isEmpty())
        m_reader->requestRowOf(member);
}

QByteArray ZsetPanel::key() const
{
    return m_key;
}
