#include "clientprofile.h"

#include <QCoreApplication>
#include <QStringList>

#include <cmath>
#include <functional>
#include <queue>
#include <random>
#include <tuple>

namespace {
struct Text
{
    Q_DECLARE_TR_FUNCTIONS(ClientProfile)
};

constexpr qint64 maxOffsetMs = 86'400'000; // as BurstPlan::clockOffsetsMs
constexpr double maxDriftPpm = 100'000; // 10 %: far beyond real clocks, enough to see it in a short burst

QString pacingProblem(const Pacing& pacing)
{
    switch (pacing.kind) {
    case Pacing::Kind::Burst:
        return {};
    case Pacing::Kind::Interval:
        return pacing.intervalMicros >= 1 ? QString() : Text::tr("the interval must be at least 1 us");
    case Pacing::Kind::Poisson:
        return pacing.perMs >= 0.0001 && pacing.perMs <= 1000 ? QString()
                                                              : Text::tr("the rate must be from 0.0001 to 1000 per ms");
    case Pacing::Kind::Bursts:
        return pacing.burstSize >= 1 && pacing.intervalMicros >= 1000
            ? QString()
            : Text::tr("a group must have at least 1 request and come every 1 ms or more");
    }
    return {};
}

// One client's arrival times, produced one at a time so that merging K clients needs no K full
// schedules. Follows BurstPlan::scheduleMicros() exactly: a single client replays the plain plan.
class Arrivals
{
public:
    Arrivals(const Pacing& pacing, quint64 seed)
        : m_pacing(pacing)
        , m_random(seed)
        , m_gap(pacing.kind == Pacing::Kind::Poisson ? pacing.perMs / 1000.0 : 1.0)
    { }

    qint64 next() const { return m_next; }
    qint64 sent() const { return m_sent; }
    void advance()
    {
        ++m_sent;
        switch (m_pacing.kind) {
        case Pacing::Kind::Burst:
            break;
        case Pacing::Kind::Interval:
            m_next = m_sent * m_pacing.intervalMicros;
            break;
        case Pacing::Kind::Poisson:
            m_t += m_gap(m_random);
            m_next = static_cast<qint64>(std::floor(m_t));
            break;
        case Pacing::Kind::Bursts:
            m_next = (m_sent / std::max(m_pacing.burstSize, 1)) * m_pacing.intervalMicros;
            break;
        }
    }

private:
    Pacing m_pacing;
    std::mt19937_64 m_random;
    std::exponential_distribution<double> m_gap;
    double m_t = 0;
    qint64 m_next = 0;
    qint64 m_sent = 0;
};

bool parseOne(const QString& text, int number, ClientProfile* client, QString* error)
{
    auto fail = [&](const QString& why) {
        *error = Text::tr("clients: client %1 (\"%2\"): %3").arg(number).arg(text, why);
        return false;
    };
    ClientProfile result;
    bool hasRate = false;
    for (const QString& field : text.split(QLatin1Char(','))) {
        const int equals = field.indexOf(QLatin1Char('='));
        const QString name = field.left(equals).trimmed().toLower();
        const QString value = equals < 0 ? QString() : field.mid(equals + 1).trimmed();
        if (equals < 0 || value.isEmpty())
            return fail(Text::tr("\"%1\" needs a value, e.g. rate=2 or offset=40.").arg(field.trimmed()));
        bool ok = false;
        if (name == QLatin1String("rate") || name == QLatin1String("pace")) {
            if (result.pacing)
                return fail(Text::tr("give rate= or pace= once."));
            hasRate = name == QLatin1String("rate");
            Pacing pacing;
            QString why;
            if (!Pacing::parse(hasRate ? QStringLiteral("poisson:") + value : value, &pacing, &why))
                return fail(hasRate
                                ? Text::tr("rate=R needs arrivals per ms from 0.0001 to 1000, not \"%1\".").arg(value)
                                : why);
            result.pacing = pacing;
        } else if (name == QLatin1String("offset")) {
            result.offsetMs = value.toLongLong(&ok);
            if (!ok || std::abs(result.offsetMs) > maxOffsetMs)
                return fail(Text::tr("offset=MS needs whole milliseconds within one day, not \"%1\".").arg(value));
        } else if (name == QLatin1String("drift")) {
            result.driftPpm = value.toDouble(&ok);
            if (!ok || !(std::abs(result.driftPpm) <= maxDriftPpm))
                return fail(Text::tr("drift=PPM needs parts per million from -%1 to %1, not \"%2\".")
                                .arg(maxDriftPpm, 0, 'f', 0)
                                .arg(value));
        } else {
            return fail(Text::tr("unknown field \"%1\"; use rate=, pace=, offset= or drift=.").arg(field.trimmed()));
        }
    }
    *client = result;
    return true;
}
} // namespace

bool parseClientProfiles(const QString& text, QVector<ClientProfile>* clients, QString* error)
{
    QVector<ClientProfile> result;
    const QStringList entries = text.split(QLatin1Char(';'));
    for (int i = 0; i < entries.size(); ++i) {
        const QString entry = entries[i].trimmed();
        if (entry.isEmpty()) {
            *error = Text::tr("clients: client %1 is empty; describe each one, e.g. \"rate=2;rate=2,offset=40\".")
                         .arg(i + 1);
            return false;
        }
        ClientProfile client;
        if (!parseOne(entry, i + 1, &client, error))
            return false;
        result << client;
    }
    *clients = result;
    return true;
}

QString clientProfileToString(const ClientProfile& client)
{
    QStringList fields;
    if (client.pacing) {
        fields << (client.pacing->kind == Pacing::Kind::Poisson
                       ? QStringLiteral("rate=%1").arg(client.pacing->perMs)
                       : QStringLiteral("pace=%1").arg(client.pacing->toString()));
    }
    if (client.offsetMs != 0 || !client.pacing)
        fields << QStringLiteral("offset=%1").arg(client.offsetMs);
    if (client.driftPpm != 0)
        fields << QStringLiteral("drift=%1").arg(client.driftPpm);
    return fields.join(QLatin1Char(','));
}

QString clientProfilesToString(const QVector<ClientProfile>& clients)
{
    QStringList entries;
    for (const ClientProfile& client : clients)
        entries << clientProfileToString(client);
    return entries.join(QLatin1Char(';'));
}

QString validateClientProfiles(const QVector<ClientProfile>& clients)
{
    for (int c = 0; c < clients.size(); ++c) {
        const ClientProfile& client = clients[c];
        QString why;
        if (client.pacing)
            why = pacingProblem(*client.pacing);
        if (why.isEmpty() && std::abs(client.offsetMs) > maxOffsetMs)
            why = Text::tr("the clock offset must be within one day (got %1 ms)").arg(client.offsetMs);
        if (why.isEmpty() && !(std::abs(client.driftPpm) <= maxDriftPpm))
            why = Text::tr("the drift must be within %1 ppm (got %2)").arg(maxDriftPpm).arg(client.driftPpm);
        if (!why.isEmpty())
            return Text::tr("clients: client %1: %2.").arg(c + 1).arg(why);
    }
    return {};
}

std::vector<qint64> mergedClientSchedule(const BurstPlan& plan, std::vector<quint16>* clientOf)
{
    const auto total = static_cast<size_t>(std::max(plan.requests, 0));
    std::vector<qint64> offsets;
    offsets.reserve(total);
    if (clientOf) {
        clientOf->clear();
        clientOf->reserve(total);
    }
    std::vector<Arrivals> arrivals;
    arrivals.reserve(plan.clients.size());
    for (int c = 0; c < plan.clients.size(); ++c)
        arrivals.emplace_back(plan.clients[c].pacing.value_or(plan.pacing), plan.seed + quint64(c));

    // (time, sent so far, client), earliest first.
    using Due = std::tuple<qint64, qint64, int>;
    std::priority_queue<Due, std::vector<Due>, std::greater<Due>> queue;
    for (int c = 0; c < int(arrivals.size()); ++c)
        queue.emplace(arrivals[size_t(c)].next(), 0, c);
    while (offsets.size() < total && !queue.empty()) {
        const int c = std::get<2>(queue.top());
        queue.pop();
        Arrivals& client = arrivals[size_t(c)];
        offsets.push_back(client.next());
        if (clientOf)
            clientOf->push_back(static_cast<quint16>(c));
        client.advance();
        queue.emplace(client.next(), client.sent(), c);
    }
    return offsets;
}

qint64 clockDriftMicros(double driftPpm, qint64 elapsedMicros)
{
    return driftPpm == 0 ? 0 : std::llround(driftPpm * double(elapsedMicros) / 1e6);
}
