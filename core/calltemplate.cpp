#include "calltemplate.h"

#include <QCoreApplication>

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
    {CallTemplate::Placeholder::Key, "key"},       {CallTemplate::Placeholder::Now, "now"},
    {CallTemplate::Placeholder::NowS, "now_s"},    {CallTemplate::Placeholder::NowUs, "now_us"},
    {CallTemplate::Placeholder::Window, "window"}, {CallTemplate::Placeholder::WindowS, "window_s"},
    {CallTemplate::Placeholder::Limit, "limit"},   {CallTemplate::Placeholder::Uuid, "uuid"},
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

bool parseToken(const QString& word, CallTemplate::Token* token, QString* error)
{
    QString literal;
    auto flushLiteral = [&] {
        if (!literal.isEmpty())
            token->append({false, CallTemplate::Placeholder::Key, literal});
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
        if (!placeholderFromName(name, &placeholder)) {
            *error = Text::tr("{%1} is not a placeholder; use one of %2")
                         .arg(name, CallTemplate::placeholderNames().join(QStringLiteral(" ")));
            return false;
        }
        flushLiteral();
        token->append({true, placeholder, {}});
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
    case CallTemplate::Placeholder::Window:
        return QByteArray::number(values.windowMs);
    case CallTemplate::Placeholder::WindowS:
        return QByteArray::number((values.windowMs + 999) / 1000);
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
        const Piece& first = parsed.m_keys.at(i).first();
        if (!first.isPlaceholder || first.placeholder != Placeholder::Key) {
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
    if (token.size() != 1 || !token.first().isPlaceholder)
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
            }
        }
    }
    return false;
}

bool CallTemplate::carriesTime() const
{
    return uses(Placeholder::Now) || uses(Placeholder::NowS) || uses(Placeholder::NowUs);
}

QByteArray CallTemplate::expand(const Token& token, const CallValues& values)
{
    QByteArray text;
    for (const Piece& piece : token)
        text += piece.isPlaceholder ? valueOf(piece.placeholder, values) : piece.literal.toUtf8();
    return text;
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
