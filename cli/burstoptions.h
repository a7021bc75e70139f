#pragma once

#include "burstplan.h"

#include <QCommandLineOption>

class QCommandLineParser;

// The burst options that `sweep` and `clients` share with `run`: same names, same meaning, and
// defaults that suit each command.
struct BurstOptions
{
    BurstOptions(const QString& defaultRequests, const QString& defaultClock, const QString& clockHelp);

    QCommandLineOption strategy;
    QCommandLineOption requests;
    QCommandLineOption clock;
    QCommandLineOption window;
    QCommandLineOption limit;
    QCommandLineOption seed;
    QCommandLineOption pipeline;
    QCommandLineOption json;

    void addTo(QCommandLineParser& parser) const;
    // Fills those fields of plan; false with a message that names the flag.
    bool read(const QCommandLineParser& parser, BurstPlan* plan, QString* error) const;
};

// A whole number option within [min, max]; false with a message that names the flag.
bool readIntegerOption(const QCommandLineParser& parser, const QCommandLineOption& option, qint64 min, qint64 max,
                       qint64* value, QString* error);
