#pragma once

#include "burstplan.h"

#include <QString>
#include <QVector>

#include <vector>

// Several simulated app servers firing at one limiter key (BurstPlan::clients): the text form
// people type and scenarios store, and the one timeline their arrivals make together.
//
// Text form: clients separated by ';', fields by ',':
//   rate=R        Poisson arrivals, R per ms on average (short for pace=poisson:R)
//   pace=PACE     burst, interval:MICROS or poisson:PER_MS (default: the plan's pacing)
//   offset=MS     the server's clock runs MS ahead (negative: behind)
//   drift=PPM     and gains PPM microseconds per second of the burst (negative: loses)
// e.g. "rate=2;rate=2;rate=2,offset=40": three servers, the third 40 ms ahead.

bool parseClientProfiles(const QString& text, QVector<ClientProfile>* clients, QString* error);
QString clientProfilesToString(const QVector<ClientProfile>& clients);
QString clientProfileToString(const ClientProfile& client);

// Empty when every client can run, else a message that names the client (1-based) and the field.
QString validateClientProfiles(const QVector<ClientProfile>& clients);

// The arrivals of every client of `plan`, merged in time order and cut at plan.requests: each
// client keeps its own schedule (client c is seeded with plan.seed + c, so equal rates do not mean
// equal arrival times), and faster clients simply send more of the total. Ties go to the client
// that has sent least, so burst clients share the requests evenly. Offsets in microseconds from
// the start of the burst; clientOf receives the client of each request.
std::vector<qint64> mergedClientSchedule(const BurstPlan& plan, std::vector<quint16>* clientOf);

// How far a clock that drifts by driftPpm has moved from the true clock after elapsedMicros.
qint64 clockDriftMicros(double driftPpm, qint64 elapsedMicros);
