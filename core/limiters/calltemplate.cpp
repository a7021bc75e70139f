#include "calltemplate.h"

#include <QCoreApplication>
#include <QRegularExpression>

#include <algorithm>

namespace {
struct Text
{
    Q_DECLARE_TR_FUNCTIONS(CallTemplate)
};

struct PlaceholderEntry
{
    CallTemplate::Placeholder placeholder;
    const char* name;
};
constexpr PlaceholderEntry placeholderTable[] = {
    {CallTemplate::Placeholder::Key, "key"},
    {CallTemplate::Placeholder::Now, "now"},
    {CallTemplate::Placeholder::NowS, "now_s"},
    {CallTemplate::Placeholder::NowUs, "now_us"},
    {CallTemplate::Placeholder::NowNs, "now_ns"},
    {CallTemplate::Placeholder::Window, "window"},
    {CallTemplate::Placeholder::WindowS, "window_s"},
    {CallTemplate::Placeholder::WindowUs, "window_us"},
    {CallTemplate::Placeholder::WindowNs, "window_ns"},
    {CallTemplate::Placeholder::Limit, "limit"},
    {CallTemplate::Placeholder::Uuid, "uuid"},
    {CallTemplate::Placeholder::Seq, "seq"},
};

bool placeholderFromName(const QString& name, CallTemplate::Placeholder* placeholder)
{
    for (const auto& entry : placeholderTable) {
        if (name == QLatin1String(entry.name)) {
            *placeholder = entry.placeholder;
            return true;
        }
    }
    return false;
}

// Splits on whitespace outside quotes; quotes group, they are not part of the token.
bool splitWords(const QString& text, QStringList* words, QString* error)
{
    QString word;
    bool inWord = false;
    QChar quote;
    for (const QChar c : text) {
        if (!quote.isNull()) {
            if (c == quote)
                quote = QChar();
            else
                word += c;
        } else if (c == QLatin1Char('"') || c == QLatin1Char('\'')) {
            quote = c;
            inWord = true;
        } else if (c.isSpace()) {
            if (inWord)
                *words << word;
            word.clear();
            inWord = false;
        } else {
            word += c;
            inWord = true;
        }
    }
    if (!quote.isNull()) {
        *error = Text::tr("a quote (%1) is not closed").arg(quote);
        return false;
    }
    if (inWord)
        *words << word;
    return true;
}

// {now-window}, {now_s-window_s+1}, {limit-1}, {now/window}: numeric placeholders and whole numbers,
// one unit.
bool parseArithmetic(const QString& text, CallTemplate::Piece* piece, QString* error)
{
    static const QRegularExpression shape(QStringLiteral("^[a-z_]+(?:[-+*/](?:[a-z_]+|[0-9]+))+$"));
    auto refuse = [&](const QString& why) {
        *error = why;
        return false;
    };
    const QString names = QStringLiteral("{now} {now_s} {now_us} {now_ns} {window} {window_s} {limit} {seq}");
    if (!text.isEmpty() && text.front().isDigit())
        return refuse(Text::tr("{%1}: start with a placeholder, e.g. {now-window}").arg(text));
    if (!shape.match(text).hasMatch())
        return refuse(Text::tr("{%1} is not a placeholder; use one of %2, or add, subtract, multiply or divide: "
                               "{now-window}, {now/window}")
                          .arg(text, CallTemplate::placeholderNames().join(QStringLiteral(" "))));
    static const QRegularExpression termRe(QStringLiteral("([-+*/]?)([a-z_]+|[0-9]+)"));
    int unit = -1;
    bool first = true;
    auto it = termRe.globalMatch(text);
    while (it.hasNext()) {
        const auto match = it.next();
        CallTemplate::Term term;
        term.op = match.captured(1).isEmpty() ? '+' : match.captured(1).at(0).toLatin1();
        term.sign = term.op == '-' ? -1 : 1;
        const QString name = match.captured(2);
        bool isNumber = false;
        term.number = name.toLongLong(&isNumber);
        // Larger numbers would overflow the sum with {now_us}; 10^15 us is 31 years.
        constexpr qint64 largestNumber = 1'000'000'000'000'000;
        if (name.front().isDigit() && (!isNumber || term.number > largestNumber))
            return refuse(Text::tr("{%1}: %2 is out of range; add or subtract whole numbers up to %L3")
                              .arg(text, name)
                              .arg(largestNumber));
        if (isNumber && term.op == '/' && term.number == 0)
            return refuse(Text::tr("{%1} divides by zero").arg(text));
        if (!isNumber) {
            if (!placeholderFromName(name, &term.placeholder))
                return refuse(Text::tr("{%1}: {%2} is not a placeholder").arg(text, name));
            using P = CallTemplate::Placeholder;
            if (term.placeholder == P::Key || term.placeholder == P::Uuid)
                return refuse(Text::tr("{%1}: only %2 and whole numbers can be added and subtracted").arg(text, names));
            const int termUnit = CallTemplate::unitOf(term.placeholder);
            if (term.op == '*')
                return refuse(Text::tr("{%1}: multiply by whole numbers only, e.g. {now_s*1000}").arg(text));
            if (termUnit >= 0 && unit >= 0 && termUnit != unit)
                return refuse(Text::tr("{%1} mixes units; use {now-window} (milliseconds), {now_s-window_s} "
                                       "(seconds) or {now_us} alone")
                                  .arg(text));
            unit = std::max(unit, termUnit);
            term.isPlaceholder = true;
        } else if (first) {
            return refuse(Text::tr("{%1}: start with a placeholder, e.g. {now-window}").arg(text));
        }
        if (first) {
            piece->isPlaceholder = true;
            piece->placeholder = term.placeholder;
            first = false;
        } else {
            piece->terms.append(term);
        }
    }
    return true;
}

bool parseToken(const QString& word, CallTemplate::Token* token, QString* error)
{
    QString literal;
    auto flushLiteral = [&] {
        if (!literal.isEmpty())
            token->append({false, CallTemplate::Placeholder::Key, literal, {}});
        literal.clear();
    };
    for (int i = 0; i < word.size(); ++i) {
        const QChar c = word.at(i);
        if (c == QLatin1Char('}')) {
            if (word.mid(i, 2) != QLatin1String("}}")) {
                *error = Text::tr("\"%1\" has a } without its {; write }} for a brace").arg(word);
                return false;
            }
            literal += c;
            ++i;
            continue;
        }
        if (c != QLatin1Char('{')) {
            literal += c;
            continue;
        }
        if (word.mid(i, 2) == QLatin1String("{{")) {
            literal += c;
            ++i;
            continue;
        }
        const int close = word.indexOf(QLatin1Char('}'), i);
        if (close < 0) {
            *error = Text::tr("\"%1\" opens a { that is not closed; write {{ for a brace").arg(word);
            return false;
        }
        const QString name = word.mid(i + 1, close - i - 1);
        CallTemplate::Placeholder placeholder;
        CallTemplate::Piece piece;
        if (placeholderFromName(name, &placeholder)) {
            piece.isPlaceholder = true;
            piece.placeholder = placeholder;
        } else if (name.contains(QLatin1Char('+')) || name.contains(QLatin1Char('-')) || name.contains(QLatin1Char('*'))
                   || name.contains(QLatin1Char('/'))) {
            if (!parseArithmetic(name, &piece, error))
                return false;
        } else {
            *error = Text::tr("{%1} is not a placeholder; use one of %2")
                         .arg(name, CallTemplate::placeholderNames().join(QStringLiteral(" ")));
            return false;
        }
        flushLiteral();
        token->append(piece);
        i = close;
    }
    flushLiteral();
    return true;
}

bool parseList(const QString& text, QVector<CallTemplate::Token>* tokens, QString* error)
{
    QStringList words;
    if (!splitWords(text, &words, error))
        return false;
    for (const QString& word : std::as_const(words)) {
        CallTemplate::Token token;
        if (!parseToken(word, &token, error))
            return false;
        tokens->append(token);
    }
    return true;
}

QByteArray valueOf(CallTemplate::Placeholder placeholder, const CallValues& values)
{
    switch (placeholder) {
    case CallTemplate::Placeholder::Key:
        return values.key;
    case CallTemplate::Placeholder::Now:
        return QByteArray::number(values.nowMicros / 1000);
    case CallTemplate::Placeholder::NowS:
        return QByteArray::number(values.nowMicros / 1000000);
    case CallTemplate::Placeholder::NowUs:
        return QByteArray::number(values.nowMicros);
    case CallTemplate::Placeholder::NowNs:
        return QByteArray::number(values.nowMicros * 1000);
    case CallTemplate::Placeholder::Window:
        return QByteArray::number(values.windowMs);
    case CallTemplate::Placeholder::WindowS:
        return QByteArray::number((values.windowMs + 999) / 1000);
    case CallTemplate::Placeholder::WindowUs:
        return QByteArray::number(values.windowMs * 1000);
    case CallTemplate::Placeholder::WindowNs:
        return QByteArray::number(values.windowMs * 1'000'000);
    case CallTemplate::Placeholder::Limit:
        return QByteArray::number(values.limit);
    case CallTemplate::Placeholder::Uuid:
        return values.uuid;
    case CallTemplate::Placeholder::Seq:
        return QByteArray::number(values.seq);
    }
    return {};
}
} // namespace

CallTemplate CallTemplate::zsetlabConvention()
{
    CallTemplate call;
    QString error;
    const bool parsed = parse(defaultKeys(), defaultArgs(), &call, &error);
    Q_ASSERT(parsed);
    Q_UNUSED(parsed);
    return call;
}

bool CallTemplate::parse(const QString& keys, const QString& args, CallTemplate* call, QString* error)
{
    CallTemplate parsed;
    parsed.m_keysText = keys.simplified();
    parsed.m_argsText = args.simplified();
    QString why;
    if (!parseList(keys, &parsed.m_keys, &why)) {
        *error = Text::tr("--keys: %1.").arg(why);
        return false;
    }
    if (!parseList(args, &parsed.m_args, &why)) {
        *error = Text::tr("--args: %1.").arg(why);
        return false;
    }
    if (parsed.m_keys.isEmpty()) {
        *error = Text::tr("--keys: give at least one key, e.g. \"{key}\".");
        return false;
    }
    QStringList keyWords;
    splitWords(keys, &keyWords, &why);
    for (int i = 0; i < parsed.m_keys.size(); ++i) {
        const Token& key = parsed.m_keys.at(i);
        if (key.isEmpty() || !key.first().isPlaceholder || key.first().placeholder != Placeholder::Key) {
            *error = Text::tr("--keys: every key must start with {key} (a fresh key under zsetlab:, deleted "
                              "afterwards), e.g. \"{key}\" or \"{key}:tokens\"; \"%1\" does not.")
                         .arg(keyWords.value(i));
            return false;
        }
    }
    *call = parsed;
    return true;
}

QString CallTemplate::placeholderName(Placeholder placeholder)
{
    for (const auto& entry : placeholderTable) {
        if (entry.placeholder == placeholder)
            return QLatin1Char('{') + QLatin1String(entry.name) + QLatin1Char('}');
    }
    return {};
}

QStringList CallTemplate::placeholderNames()
{
    QStringList names;
    for (const auto& entry : placeholderTable)
        names << placeholderName(entry.placeholder);
    return names;
}

bool CallTemplate::argIsPlaceholder(int index, Placeholder* placeholder) const
{
    if (index < 1 || index > m_args.size())
        return false;
    const Token& token = m_args.at(index - 1);
    if (token.size() != 1 || !token.first().isPlaceholder || token.first().isArithmetic())
        return false;
    *placeholder = token.first().placeholder;
    return true;
}

bool CallTemplate::uses(Placeholder placeholder) const
{
    for (const auto* list : {&m_keys, &m_args}) {
        for (const Token& token : *list) {
            for (const Piece& piece : token) {
                if (piece.isPlaceholder && piece.placeholder == placeholder)
                    return true;
                for (const Term& term : piece.terms) {
                    if (term.isPlaceholder && term.placeholder == placeholder)
                        return true;
                }
            }
        }
    }
    return false;
}

bool CallTemplate::carriesTime() const
{
    return uses(Placeholder::Now) || uses(Placeholder::NowS) || uses(Placeholder::NowUs) || uses(Placeholder::NowNs);
}

QByteArray CallTemplate::expand(const Token& token, const CallValues& values)
{
    QByteArray text;
    for (const Piece& piece : token) {
        if (!piece.isPlaceholder) {
            text += piece.literal.toUtf8();
        } else if (piece.terms.isEmpty()) {
            text += valueOf(piece.placeholder, values);
        } else {
            // A sum of products: * and / bind first, left to right; integer division, towards minus
            // infinity as Lua's math.floor(a / b) would have it.
            qint64 sum = 0;
            int sign = 1; // of the product being made: {now-window/2} is now - (window/2)
            qint64 product = valueOf(piece.placeholder, values).toLongLong();
            for (const Term& term : piece.terms) {
                const qint64 value = term.isPlaceholder ? valueOf(term.placeholder, values).toLongLong() : term.number;
                if (term.op == '*') {
                    product *= value;
                } else if (term.op == '/') {
                    const qint64 quotient = value == 0 ? 0 : product / value;
                    product = value != 0 && (product % value != 0) && ((product < 0) != (value < 0)) ? quotient - 1
                                                                                                     : quotient;
                } else {
                    sum += sign * product;
                    sign = term.sign;
                    product = value;
                }
            }
            text += QByteArray::number(sum + sign * product);
        }
    }
    return text;
}

bool CallTemplate::Piece::divides() const
{
    return std::any_of(terms.begin(), terms.end(), [](const Term& term) { return term.op == '/'; });
}

bool CallTemplate::Piece::isWindowStart() const
{
    if (!isArithmetic() || divides() || unitOf(placeholder) < 0
        || (placeholder != Placeholder::Now && placeholder != Placeholder::NowS && placeholder != Placeholder::NowUs
            && placeholder != Placeholder::NowNs))
        return false;
    return std::any_of(terms.begin(), terms.end(), [](const Term& term) {
        return term.sign < 0 && term.isPlaceholder
            && (term.placeholder == Placeholder::Window || term.placeholder == Placeholder::WindowS
                || term.placeholder == Placeholder::WindowUs || term.placeholder == Placeholder::WindowNs);
    });
}

bool CallTemplate::argIsArithmetic(int index, Piece* piece) const
{
    if (index < 1 || index > m_args.size())
        return false;
    const Token& token = m_args.at(index - 1);
    if (token.size() != 1 || !token.first().isArithmetic())
        return false;
    *piece = token.first();
    return true;
}

int CallTemplate::unitOf(Placeholder placeholder)
{
    switch (placeholder) {
    case Placeholder::NowS:
    case Placeholder::WindowS:
        return 0;
    case Placeholder::Now:
    case Placeholder::Window:
        return 1;
    case Placeholder::NowUs:
    case Placeholder::WindowUs:
        return 2;
    case Placeholder::NowNs:
    case Placeholder::WindowNs:
        return 3;
    case Placeholder::Key:
    case Placeholder::Limit:
    case Placeholder::Uuid:
    case Placeholder::Seq:
        break;
    }
    return -1;
}

RedisArgs CallTemplate::expandKeys(const CallValues& values) const
{
    RedisArgs keys;
    for (const Token& token : m_keys)
        keys << expand(token, values);
    return keys;
}

RedisArgs CallTemplate::expandArgs(const CallValues& values) const
{
    RedisArgs args;
    for (const Token& token : m_args)
        args << expand(token, values);
    return args;
}
