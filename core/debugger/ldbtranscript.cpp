#include "ldbtranscript.h"

#include <QCoreApplication>
#include <QHash>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>

namespace {
struct Text
{
    Q_DECLARE_TR_FUNCTIONS(LdbTranscript)
};

bool isIdentifier(const QByteArray& name)
{
    if (name.isEmpty() || (name.front() >= '0' && name.front() <= '9'))
        return false;
    return std::all_of(name.begin(), name.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    });
}

// A source line as LDB writes it: printf("%s%-3d %s", prefix, line, text) with a three-character
// prefix, so the text starts after the number padded to three digits and one space. Counting
// rather than trimming keeps the script's own indentation.
bool parseSourceLine(const QByteArray& line, LdbLine* parsed)
{
    if (line.size() < 4)
        return false;
    const QByteArray prefix = line.left(3);
    if (prefix != "-> " && prefix != "->#" && prefix != "  #" && prefix != "   ")
        return false;
    int end = 3;
    while (end < line.size() && line.at(end) >= '0' && line.at(end) <= '9')
        ++end;
    if (end == 3)
        return false;
    parsed->kind = LdbLine::Kind::Source;
    parsed->number = line.mid(3, end - 3).toInt();
    parsed->current = prefix.startsWith("->");
    parsed->breakpoint = prefix.endsWith('#');
    const int textStart = 3 + std::max(3, end - 3) + 1;
    parsed->text = textStart < line.size() ? line.mid(textStart) : QByteArray();
    return true;
}

struct ReadableParser
{
    const char* p;
    const char* end;
    bool ranOut = false;

    bool quoted(QByteArray* out)
    {
        const char* start = p;
        ++p; // opening quote
        while (p < end && *p != '"') {
            if (*p == '\\')
                ++p;
            ++p;
        }
        if (p >= end) {
            ranOut = true;
            return false;
        }
        ++p; // closing quote
        return LdbTranscript::unquote(QByteArray(start, int(p - start)), out);
    }

    bool value(QList<QByteArray>* values)
    {
        if (p >= end) {
            ranOut = true;
            return false;
        }
        if (*p == '"') {
            QByteArray bytes;
            if (!quoted(&bytes))
                return false;
            values->append(bytes);
            return true;
        }
        if (*p == '[')
            return array(values);
        for (const char* word : {"NULL", "(null)"}) {
            const int length = int(qstrlen(word));
            if (end - p >= length && qstrncmp(p, word, uint(length)) == 0) {
                p += length;
                values->append(QByteArray());
                return true;
            }
        }
        const char* start = p;
        if (*p == '-')
            ++p;
        while (p < end && *p >= '0' && *p <= '9')
            ++p;
        if (p == start || (p == start + 1 && *start == '-')) {
            ranOut = p >= end;
            return false;
        }
        values->append(QByteArray(start, int(p - start)));
        return true;
    }

    bool array(QList<QByteArray>* values)
    {
        ++p; // '['
        if (p < end && *p == ']') {
            ++p;
            return true;
        }
        while (true) {
            if (!value(values))
                return false;
            if (p >= end) {
                ranOut = true;
                return false;
            }
            if (*p == ']') {
                ++p;
                return true;
            }
            if (*p != ',')
                return false;
            ++p;
        }
    }
};
} // namespace

namespace LdbTranscript {

LdbLine parseLine(const QByteArray& line)
{
    LdbLine parsed;
    static const QByteArray stopped = "* Stopped at ";
    static const QByteArray reason = ", stop reason = ";
    if (line.startsWith(stopped)) {
        const int comma = line.indexOf(reason, stopped.size());
        parsed.kind = LdbLine::Kind::Stopped;
        parsed.number = line.mid(stopped.size(), comma < 0 ? -1 : comma - stopped.size()).toInt();
        parsed.text = comma < 0 ? QByteArray() : line.mid(comma + reason.size());
        return parsed;
    }
    if (line.startsWith('<')) {
        const int close = line.indexOf('>');
        const QByteArray marker = close < 0 ? QByteArray() : line.mid(1, close - 1);
        QByteArray text = close < 0 ? QByteArray() : line.mid(close + 1);
        if (text.startsWith(' '))
            text.remove(0, 1);
        static const struct
        {
            const char* marker;
            LdbLine::Kind kind;
        } markers[] = {
            // Valkey 8 writes <command> where Redis writes <redis>.
            {"redis", LdbLine::Kind::RedisCall},       {"command", LdbLine::Kind::RedisCall},
            {"reply", LdbLine::Kind::Reply},           {"error", LdbLine::Kind::Error},
            {"value", LdbLine::Kind::Value},           {"debug", LdbLine::Kind::Debug},
            {"retval", LdbLine::Kind::ReturnValue},    {"hint", LdbLine::Kind::Hint},
            {"endsession", LdbLine::Kind::EndSession},
        };
        for (const auto& known : markers) {
            if (marker == known.marker) {
                parsed.kind = known.kind;
                parsed.text = text;
                break;
            }
        }
        if (parsed.kind == LdbLine::Kind::Value) {
            // "print" without a name writes "name = value"; "print VAR" writes the value alone.
            const int equals = text.indexOf(" = ");
            if (equals > 0 && isIdentifier(text.left(equals))) {
                parsed.name = text.left(equals);
                parsed.text = text.mid(equals + 3);
            }
        }
        if (parsed.kind != LdbLine::Kind::Message)
            return parsed;
    }
    if (parseSourceLine(line, &parsed))
        return parsed;
    parsed.kind = LdbLine::Kind::Message;
    parsed.text = line;
    return parsed;
}

QVector<LdbLine> parse(const RedisReply& reply)
{
    QVector<LdbLine> lines;
    if (reply.type() != RedisReply::Type::Array)
        return lines;
    lines.reserve(int(reply.elements().size()));
    for (const RedisReply& element : reply.elements())
        lines.append(parseLine(element.bytes()));
    return lines;
}

DebugStep toStep(const QVector<LdbLine>& lines)
{
    DebugStep step;
    for (const LdbLine& line : lines) {
        const QString text = QString::fromUtf8(line.text);
        switch (line.kind) {
        case LdbLine::Kind::Stopped:
            step.line = line.number;
            step.stopReason = text;
            break;
        case LdbLine::Kind::Source:
            if (line.current) {
                step.lineText = text;
                if (step.line == 0)
                    step.line = line.number;
            }
            break;
        case LdbLine::Kind::RedisCall:
            step.calls.append({text, {}, {}});
            break;
        case LdbLine::Kind::Error:
            // A failing redis.call logs <error> and then <reply> with the same error.
            if (!step.calls.isEmpty() && step.calls.last().reply.isEmpty() && step.calls.last().error.isEmpty())
                step.calls.last().error = text;
            else
                step.messages << text;
            break;
        case LdbLine::Kind::Reply:
            if (!step.calls.isEmpty() && step.calls.last().reply.isEmpty())
                step.calls.last().reply = text;
            else
                step.messages << text;
            break;
        case LdbLine::Kind::Value:
            if (!line.name.isEmpty())
                step.locals.append({QString::fromUtf8(line.name), text, {}});
            else
                step.messages << text;
            break;
        case LdbLine::Kind::Debug:
            step.debugOutput << text;
            break;
        case LdbLine::Kind::EndSession:
            step.ended = true;
            break;
        case LdbLine::Kind::ReturnValue:
        case LdbLine::Kind::Hint:
        case LdbLine::Kind::Message:
            step.messages << text;
            break;
        }
    }
    return step;
}

void exactNumbers(QVector<DebugVariable>* locals, const QList<QByteArray>& sourceLines, const RedisArgs& argv)
{
    // What the script's own definitions say each local is: `local now = tonumber(ARGV[1])`,
    // `local oldest = now - window`. The first definition of a name counts.
    static const QRegularExpression definition(
        QStringLiteral("^\\s*local\\s+([A-Za-z_]\\w*)\\s*=\\s*(.+?)\\s*(?:--.*)?$"));
    static const QRegularExpression fromArgv(QStringLiteral("^(?:tonumber\\s*\\(\\s*)?ARGV\\[(\\d+)\\]\\s*\\)?$"));
    static const QRegularExpression arithmetic(
        QStringLiteral("^([A-Za-z_]\\w*|\\d+)\\s*([-+])\\s*([A-Za-z_]\\w*|\\d+)$"));
    QHash<QString, qint64> known;
    auto valueOf = [&known](const QString& term, qint64* value) {
        bool isNumber = false;
        *value = term.toLongLong(&isNumber);
        if (isNumber)
            return true;
        const auto found = known.constFind(term);
        if (found == known.constEnd())
            return false;
        *value = found.value();
        return true;
    };
    for (const QByteArray& line : sourceLines) {
        const QRegularExpressionMatch match = definition.match(QString::fromUtf8(line));
        if (!match.hasMatch() || known.contains(match.captured(1)))
            continue;
        const QString expression = match.captured(2);
        if (const auto argument = fromArgv.match(expression); argument.hasMatch()) {
            bool isNumber = false;
            const qint64 value = argv.value(argument.captured(1).toInt() - 1).toLongLong(&isNumber);
            if (isNumber)
                known.insert(match.captured(1), value);
        } else if (const auto sum = arithmetic.match(expression); sum.hasMatch()) {
            qint64 a = 0;
            qint64 b = 0;
            if (valueOf(sum.captured(1), &a) && valueOf(sum.captured(3), &b))
                known.insert(match.captured(1), sum.captured(2) == QLatin1String("+") ? a + b : a - b);
        }
    }
    for (DebugVariable& variable : *locals) {
        bool isNumber = false;
        variable.value.toDouble(&isNumber);
        if (!isNumber || !variable.value.contains(QLatin1Char('e')))
            continue;
        variable.printed = variable.value;
        const auto found = known.constFind(variable.name);
        if (found != known.constEnd() && QString::asprintf("%g", double(found.value())) == variable.value)
            variable.value = QString::number(found.value());
        else
            variable.value = Text::tr("≈ %1 (the debugger prints 6 digits)").arg(variable.value);
    }
}

void addLocals(DebugStep* step, const QVector<LdbLine>& printLines)
{
    for (const LdbLine& line : printLines) {
        if (line.kind == LdbLine::Kind::Value && !line.name.isEmpty())
            step->locals.append({QString::fromUtf8(line.name), QString::fromUtf8(line.text), {}});
    }
}

bool lastReply(const QVector<LdbLine>& lines, QByteArray* reply)
{
    for (auto it = lines.crbegin(); it != lines.crend(); ++it) {
        if (it->kind == LdbLine::Kind::Reply) {
            *reply = it->text;
            return true;
        }
    }
    return false;
}

bool parseReadableValue(const QByteArray& text, QList<QByteArray>* values, bool* complete)
{
    // LDB cuts a long reply at maxlen and appends " ..."; no untrimmed form ends that way.
    const bool trimmed = text.endsWith(" ...");
    const QByteArray body = trimmed ? text.chopped(4) : text;
    ReadableParser parser {body.constData(), body.constData() + body.size()};
    const bool parsed = parser.value(values);
    if (complete)
        *complete = !trimmed;
    if (trimmed)
        return parsed || parser.ranOut;
    return parsed && parser.p == parser.end;
}

bool unquote(const QByteArray& text, QByteArray* bytes)
{
    if (text.size() < 2 || !text.startsWith('"') || !text.endsWith('"'))
        return false;
    QByteArray out;
    out.reserve(text.size());
    for (int i = 1; i < text.size() - 1; ++i) {
        const char c = text.at(i);
        if (c != '\\') {
            out += c;
            continue;
        }
        if (++i >= text.size() - 1)
            return false;
        switch (text.at(i)) {
        case 'n':
            out += '\n';
            break;
        case 'r':
            out += '\r';
            break;
        case 't':
            out += '\t';
            break;
        case 'a':
            out += '\a';
            break;
        case 'b':
            out += '\b';
            break;
        case 'x': {
            bool ok = false;
            const int value = text.mid(i + 1, 2).toInt(&ok, 16);
            if (!ok || i + 2 >= text.size() - 1)
                return false;
            out += char(value);
            i += 2;
            break;
        }
        default: // \\ and \"
            out += text.at(i);
            break;
        }
    }
    *bytes = out;
    return true;
}

int errorLine(const QString& redisError)
{
    // The chunk is named "@user_script" while debugging (and on Redis 7 always).
    static const QRegularExpression lineRe(QStringLiteral("user_script:(\\d+)"));
    const auto match = lineRe.match(redisError);
    return match.hasMatch() ? match.captured(1).toInt() : 0;
}

} // namespace LdbTranscript
