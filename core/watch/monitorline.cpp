#include "monitorline.h"

#include <QCoreApplication>
#include <QVarLengthArray>

#include <cstring>

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

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

// Reads "digits[.digits]" at *pos as a count of microseconds; false when there is none.
bool readTime(const char* line, qsizetype size, qsizetype* pos, qint64* timeUs)
{
    qsizetype i = *pos;
    qint64 seconds = 0;
    int digits = 0;
    while (i < size && isDigit(line[i]) && digits < 12) {
        seconds = seconds * 10 + (line[i] - '0');
        ++i;
        ++digits;
    }
    if (digits == 0)
        return false;
    qint64 micros = 0;
    if (i < size && line[i] == '.') {
        ++i;
        int fraction = 0;
        while (i < size && isDigit(line[i])) {
            if (fraction < 6)
                micros = micros * 10 + (line[i] - '0');
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

// The bytes between an argument's quotes, and whether they hold escapes to undo.
struct ArgumentSpan
{
    qsizetype begin = 0;
    qsizetype end = 0;
    bool escaped = false;
};

// Finds the end of the "quoted" argument whose opening quote is at `quote` and checks its escapes
// (sdscatrepr()'s); returns the position after the closing quote, or -1 for a bad escape or no
// closing quote.
qsizetype scanArgument(const char* line, qsizetype size, qsizetype quote, ArgumentSpan* span)
{
    qsizetype i = quote + 1;
    span->begin = i;
    span->escaped = false;
    while (i < size) {
        const char c = line[i];
        if (c == '"') {
            span->end = i;
            return i + 1;
        }
        if (c != '\\') {
            ++i;
            continue;
        }
        span->escaped = true;
        if (i + 1 >= size)
            return -1;
        switch (line[i + 1]) {
        case '\\':
        case '"':
        case 'n':
        case 'r':
        case 't':
        case 'a':
        case 'b':
            i += 2;
            break;
        case 'x':
            if (i + 3 >= size || hexDigit(line[i + 2]) < 0 || hexDigit(line[i + 3]) < 0)
                return -1;
            i += 4;
            break;
        default:
            return -1;
        }
    }
    return -1; // no closing quote
}

// Valkey 8.1.0 and 8.1.1 write `"` and `\` unescaped in MONITOR lines (valkey-io/valkey#2035, fixed
// in #2036): an argument then ends at the first quote followed by ` "` or by the end of the line,
// and a backslash escapes only what sdscatrepr() escapes besides those two (\n \r \t \a \b
// \xHH). Returns the position after the closing quote, or -1.
qsizetype scanUnescapedArgument(const char* line, qsizetype size, qsizetype quote, ArgumentSpan* span)
{
    qsizetype i = quote + 1;
    span->begin = i;
    span->escaped = false;
    for (; i < size; ++i) {
        if (line[i] == '"' && (i + 1 == size || (i + 2 < size && line[i + 1] == ' ' && line[i + 2] == '"'))) {
            span->end = i;
            return i + 1;
        }
        if (line[i] == '\\')
            span->escaped = true;
    }
    return -1;
}

// Undoes the escapes of an argument scanUnescapedArgument() found: a backslash stays one unless an
// escape of a control character or a byte follows it.
QByteArray unescapeLeniently(const char* line, const ArgumentSpan& span)
{
    QByteArray argument;
    argument.reserve(span.end - span.begin);
    for (qsizetype i = span.begin; i < span.end;) {
        const char c = line[i];
        const char next = i + 1 < span.end ? line[i + 1] : 0;
        if (c != '\\') { // NOLINT(bugprone-branch-clone): a lone backslash is kept as written, like any byte
            argument += c;
            ++i;
        } else if (next == 'x' && i + 3 < span.end && hexDigit(line[i + 2]) >= 0 && hexDigit(line[i + 3]) >= 0) {
            argument += static_cast<char>(hexDigit(line[i + 2]) * 16 + hexDigit(line[i + 3]));
            i += 4;
        } else if (next == 'n' || next == 'r' || next == 't' || next == 'a' || next == 'b') {
            argument += next == 'n' ? '\n' : next == 'r' ? '\r' : next == 't' ? '\t' : next == 'a' ? '\a' : '\b';
            i += 2;
        } else {
            argument += c;
            ++i;
        }
    }
    return argument;
}

// Undoes the escapes of an argument scanArgument() accepted.
QByteArray unescape(const char* line, const ArgumentSpan& span)
{
    QByteArray argument(span.end - span.begin, Qt::Uninitialized);
    char* out = argument.data();
    for (qsizetype i = span.begin; i < span.end;) {
        const char c = line[i];
        if (c != '\\') {
            *out++ = c;
            ++i;
            continue;
        }
        const char escaped = line[i + 1];
        i += 2;
        switch (escaped) {
        case 'n':
            *out++ = '\n';
            break;
        case 'r':
            *out++ = '\r';
            break;
        case 't':
            *out++ = '\t';
            break;
        case 'a':
            *out++ = '\a';
            break;
        case 'b':
            *out++ = '\b';
            break;
        case 'x':
            *out++ = static_cast<char>(hexDigit(line[i]) * 16 + hexDigit(line[i + 1]));
            i += 2;
            break;
        default: // '\\', '"'
            *out++ = escaped;
            break;
        }
    }
    argument.truncate(out - argument.constData());
    return argument;
}

// Sets `target` to the bytes. A watch parses hundreds of thousands of lines a second into one
// MonitorLine, and most arguments repeat the one before them (the key, the command) or fit the
// buffer of the previous line's: neither needs an allocation.
void assignBytes(QByteArray& target, const char* data, qsizetype size)
{
    if (target.size() == size && std::memcmp(target.constData(), data, size_t(size)) == 0)
        return;
    if (target.isDetached() && target.capacity() >= size) {
        target.resize(size);
        std::memcpy(target.data(), data, size_t(size));
        return;
    }
    target = QByteArray(data, size);
}

// The database number: digits, as Redis writes it; anything else as QByteArray::toInt() reads it.
bool readDb(const char* text, qsizetype size, int* db)
{
    if (size > 0 && size <= 9) {
        int value = 0;
        qsizetype i = 0;
        while (i < size && isDigit(text[i]))
            value = value * 10 + (text[i++] - '0');
        if (i == size) {
            *db = value;
            return true;
        }
    }
    bool ok = false;
    *db = QByteArray(text, size).toInt(&ok);
    return ok;
}

// The quoted arguments from `pos` to the end of the line, as Redis escapes them or (`unescaped`) as
// Valkey 8.1.0-8.1.1 leave them; false with *error naming the first that does not read.
bool scanArguments(const char* line, qsizetype size, qsizetype pos, bool unescaped,
                   QVarLengthArray<ArgumentSpan, 16>* spans, QString* error)
{
    spans->clear();
    while (pos < size) {
        if (line[pos] != '"')
            return failWith(error,
                            Text::tr("Argument %1 of the MONITOR line does not start with a quote at "
                                     "column %2: the line is cut off or not from MONITOR.")
                                .arg(spans->size() + 1)
                                .arg(pos + 1));
        ArgumentSpan span;
        pos = unescaped ? scanUnescapedArgument(line, size, pos, &span) : scanArgument(line, size, pos, &span);
        if (pos < 0)
            return failWith(error,
                            Text::tr("Argument %1 of the MONITOR line has a bad escape or no closing "
                                     "quote: the line is cut off or not from MONITOR.")
                                .arg(spans->size() + 1));
        spans->append(span);
        if (pos < size) {
            if (line[pos] != ' ')
                return failWith(error,
                                Text::tr("Argument %1 of the MONITOR line is not followed by a space at "
                                         "column %2: the line is cut off or not from MONITOR.")
                                    .arg(spans->size())
                                    .arg(pos + 1));
            ++pos;
        }
    }
    return true;
}
} // namespace

QByteArray MonitorLine::command() const
{
    return arguments.isEmpty() ? QByteArray() : arguments.constFirst().toUpper();
}

bool MonitorLine::parse(const QByteArray& rawLine, MonitorLine* out, QString* error, bool quotesMayBeUnescaped)
{
    // Checked whole before *out is touched (it stays as it was on failure); then *out's buffers are
    // reused for the arguments.
    const char* line = rawLine.constData();
    qsizetype size = rawLine.size();
    while (size > 0 && (line[size - 1] == '\n' || line[size - 1] == '\r'))
        --size;
    const auto notMonitor = [error] {
        return failWith(error,
                        Text::tr("This is not a line of Redis's MONITOR output (it should start with "
                                 "a time such as 1710000000.123456 and a [db client] tag)."));
    };
    qint64 timeUs = 0;
    qsizetype pos = 0;
    if (!readTime(line, size, &pos, &timeUs))
        return notMonitor();
    if (pos + 2 > size || line[pos] != ' ' || line[pos + 1] != '[')
        return notMonitor();
    pos += 2;
    qsizetype close = pos;
    while (close + 1 < size && !(line[close] == ']' && line[close + 1] == ' '))
        ++close;
    if (close + 1 >= size)
        return notMonitor();
    const auto* spaceAt = static_cast<const char*>(std::memchr(line + pos, ' ', size_t(size - pos)));
    const qsizetype space = spaceAt ? spaceAt - line : -1;
    if (space < 0 || space > close)
        return notMonitor();
    int db = 0;
    const bool dbOk = readDb(line + pos, space - pos, &db);
    if (!dbOk || db < 0 || close - space - 1 <= 0)
        return notMonitor();
    const qsizetype sourceBegin = space + 1;
    const qsizetype sourceSize = close - space - 1;

    QVarLengthArray<ArgumentSpan, 16> spans;
    const qsizetype argumentsAt = close + 2;
    QString strictError;
    const bool strict = scanArguments(line, size, argumentsAt, false, &spans, &strictError);
    const bool unescaped
        = !strict && quotesMayBeUnescaped && scanArguments(line, size, argumentsAt, true, &spans, nullptr);
    if (!strict && !unescaped)
        return failWith(error, strictError);
    if (spans.isEmpty())
        return failWith(error, Text::tr("The MONITOR line names no command."));
    if (!out)
        return true;

    out->timeUs = timeUs;
    out->db = db;
    assignBytes(out->source, line + sourceBegin, sourceSize);
    QList<QByteArray>& arguments = out->arguments;
    if (arguments.size() > spans.size())
        arguments.resize(spans.size());
    for (qsizetype i = 0; i < spans.size(); ++i) {
        if (i == arguments.size())
            arguments.emplaceBack();
        const ArgumentSpan& span = spans[i];
        if (span.escaped)
            arguments[i] = unescaped ? unescapeLeniently(line, span) : unescape(line, span);
        else
            assignBytes(arguments[i], line + span.begin, span.end - span.begin);
    }
    return true;
}
