#include "monitorline.h"

#include <QCoreApplication>

namespace {
struct Text
{
    Q_DECLARE_TR_FUNCTIONS(MonitorLine)
};

bool failWith(QString* error, const QString& message)
{
    if (error)
        *error = message;
    return false;
}

int hexDigit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

// Reads "digits[.digits]" at *pos as a count of microseconds; false when there is none.
bool readTime(const QByteArray& line, qsizetype* pos, qint64* timeUs)
{
    qsizetype i = *pos;
    qint64 seconds = 0;
    int digits = 0;
    while (i < line.size() && line.at(i) >= '0' && line.at(i) <= '9' && digits < 12) {
        seconds = seconds * 10 + (line.at(i) - '0');
        ++i;
        ++digits;
    }
    if (digits == 0)
        return false;
    qint64 micros = 0;
    if (i < line.size() && line.at(i) == '.') {
        ++i;
        int fraction = 0;
        while (i < line.size() && line.at(i) >= '0' && line.at(i) <= '9') {
            if (fraction < 6)
                micros = micros * 10 + (line.at(i) - '0');
            ++fraction;
            ++i;
        }
        if (fraction == 0)
            return false;
        for (int f = fraction; f < 6; ++f)
            micros *= 10;
    }
    *timeUs = seconds * 1000000 + micros;
    *pos = i;
    return true;
}

// Reads one "quoted" argument at *pos (which is at the opening quote), undoing sdscatrepr().
bool readArgument(const QByteArray& line, qsizetype* pos, QByteArray* argument)
{
    qsizetype i = *pos + 1;
    argument->clear();
    while (i < line.size()) {
        const char c = line.at(i);
        if (c == '"') {
            *pos = i + 1;
            return true;
        }
        if (c != '\\') {
            argument->append(c);
            ++i;
            continue;
        }
        if (i + 1 >= line.size())
            return false;
        const char escaped = line.at(i + 1);
        i += 2;
        switch (escaped) {
        case '\\':
        case '"':
            argument->append(escaped);
            break;
        case 'n':
            argument->append('\n');
            break;
        case 'r':
            argument->append('\r');
            break;
        case 't':
            argument->append('\t');
            break;
        case 'a':
            argument->append('\a');
            break;
        case 'b':
            argument->append('\b');
            break;
        case 'x': {
            const int high = i < line.size() ? hexDigit(line.at(i)) : -1;
            const int low = i + 1 < line.size() ? hexDigit(line.at(i + 1)) : -1;
            if (high < 0 || low < 0)
                return false;
            argument->append(static_cast<char>(high * 16 + low));
            i += 2;
            break;
        }
        default:
            return false;
        }
    }
    return false; // no closing quote
}
} // namespace

QByteArray MonitorLine::command() const
{
    return arguments.isEmpty() ? QByteArray() : arguments.constFirst().toUpper();
}

bool MonitorLine::parse(const QByteArray& rawLine, MonitorLine* out, QString* error)
{
    QByteArray line = rawLine;
    while (line.endsWith('\n') || line.endsWith('\r'))
        line.chop(1);
    const QString notMonitor = Text::tr("This is not a line of Redis's MONITOR output (it should start with "
                                        "a time such as 1710000000.123456 and a [db client] tag).");
    MonitorLine parsed;
    qsizetype pos = 0;
    if (!readTime(line, &pos, &parsed.timeUs))
        return failWith(error, notMonitor);
    if (line.mid(pos, 2) != " [")
        return failWith(error, notMonitor);
    pos += 2;
    const qsizetype close = line.indexOf("] ", pos);
    const qsizetype space = line.indexOf(' ', pos);
    if (close < 0 || space < 0 || space > close)
        return failWith(error, notMonitor);
    bool dbOk = false;
    parsed.db = line.mid(pos, space - pos).toInt(&dbOk);
    parsed.source = line.mid(space + 1, close - space - 1);
    if (!dbOk || parsed.db < 0 || parsed.source.isEmpty())
        return failWith(error, notMonitor);
    pos = close + 2;
    while (pos < line.size()) {
        if (line.at(pos) != '"')
            return failWith(error,
                            Text::tr("Argument %1 of the MONITOR line does not start with a quote at "
                                     "column %2: the line is cut off or not from MONITOR.")
                                .arg(parsed.arguments.size() + 1)
                                .arg(pos + 1));
        QByteArray argument;
        if (!readArgument(line, &pos, &argument))
            return failWith(error,
                            Text::tr("Argument %1 of the MONITOR line has a bad escape or no closing "
                                     "quote: the line is cut off or not from MONITOR.")
                                .arg(parsed.arguments.size() + 1));
        parsed.arguments.append(argument);
        if (pos < line.size()) {
            if (line.at(pos) != ' ')
                return failWith(error,
                                Text::tr("Argument %1 of the MONITOR line is not followed by a space at "
                                         "column %2: the line is cut off or not from MONITOR.")
                                    .arg(parsed.arguments.size())
                                    .arg(pos + 1));
            ++pos;
        }
    }
    if (parsed.arguments.isEmpty())
        return failWith(error, Text::tr("The MONITOR line names no command."));
    if (out)
        *out = std::move(parsed);
    return true;
}
