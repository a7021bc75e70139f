#include "doctorrules.h"

#include <algorithm>

namespace DoctorRules {

void Doctor::checkKeyStories()
{
    QHash<QByteArray, KeyStory> stories;
    QList<QByteArray> order;
    for (int i = 0; i < m_reading.calls.size(); ++i) {
        const RedisCall& call = m_reading.calls[i];
        if (call.args.isEmpty())
            continue;
        const QByteArray key = call.args[0].keyName;
        if (!stories.contains(key))
            order << key;
        KeyStory& story = stories[key];
        const QByteArray& command = call.command;
        if (command == "ZADD" && story.firstAdd < 0) {
            story.firstAdd = i;
            story.addLine = call.line;
            story.log = call.args.size() > 2 && isLog(call.args[0], call.args[call.args.size() - 2]);
            for (int a = 1; a < call.args.size(); ++a) {
                if (call.args[a].role == Role::Time) {
                    story.scoreUnit = call.args[a].unit;
                    break;
                }
            }
        } else if (command == "ZREMRANGEBYSCORE" || command == "ZREMRANGEBYRANK" || command == "ZPOPMIN"
                   || command == "ZREMRANGEBYLEX") {
            // ZREMRANGEBYLEX trims a log whose members sort by their time (a zero-padded time
            // first, all scores 0): the lexical range below the window's start.
            if (story.firstTrim < 0)
                story.firstTrim = i;
            if (command == "ZREMRANGEBYSCORE" && call.args.size() > 2 && call.args[2].role == Role::Time
                && story.boundUnit < 0) {
                story.boundUnit = call.args[2].unit;
                story.boundLine = call.line;
            }
        } else if (command == "ZCARD"
                   || ((command == "ZCOUNT" || command == "ZLEXCOUNT") && call.args.size() > 1
                       && !(call.args[1].sources & FromTime))) {
            // A count over every entry (ZLEXCOUNT key - +, as ZCOUNT -inf +inf); the count the
            // decision uses is the last one before the add, so a count after the trim clears one
            // before it (a count logged for debugging).
            if (story.firstCount < 0) {
                story.firstCount = i;
                story.countLine = call.line;
            }
            if (story.firstTrim >= 0 && story.countAfterTrim < 0)
                story.countAfterTrim = i;
        } else if (command == "ZCOUNT" && call.args.size() > 1 && call.args[1].role == Role::Time
                   && story.boundUnit < 0) {
            story.boundUnit = call.args[1].unit;
            story.boundLine = call.line;
        } else if (command == "EXPIRE" || command == "PEXPIRE" || command == "EXPIREAT" || command == "PEXPIREAT") {
            story.expires << i;
            if (!story.expireLine)
                story.expireLine = call.line;
        }
    }
    for (const QByteArray& key : std::as_const(order))
        checkKeyStory(stories.value(key));
}

void Doctor::checkKeyStory(const KeyStory& story)
{
    if (story.firstAdd < 0 || !story.log)
        return; // not a ZSET this script writes, or an index (a registry) meant to stay
    if (story.firstCount >= 0 && story.firstTrim < 0) {
        add(story.countLine, Severity::Error, "never-trims",
            Text::tr("Nothing removes the entries older than the window"),
            Text::tr("The count covers every entry the key holds, and no ZREMRANGEBYSCORE removes the old "
                     "ones: the count keeps growing until the key expires, so clients are refused long "
                     "after their requests left the window. This is not a sliding window."),
            Text::tr("Before counting: redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window); or "
                     "count only the window: redis.call('ZCOUNT', key, '(' .. (now - window), '+inf')."));
    } else if (story.firstCount >= 0 && story.firstCount < story.firstTrim && story.countAfterTrim < 0) {
        add(story.countLine, Severity::Error, "count-before-trim",
            Text::tr("The script counts before removing expired entries"),
            Text::tr("The count runs before ZREMRANGEBYSCORE, so it includes requests that have already "
                     "left the window: the limiter refuses requests it should admit. If the script returns "
                     "early on a refusal, nothing trims while the client is refused, so it stays refused "
                     "until %1.")
                .arg(story.expires.isEmpty()
                         ? Text::tr("someone deletes the key: nothing expires it")
                         : Text::tr("the key expires, a TTL after its last admitted request, rather than when "
                                    "its oldest request leaves the window")),
            Text::tr("Remove the expired entries first, then count; or count only the window with "
                     "ZCOUNT key (now - window) +inf."));
    }
    if (story.expires.isEmpty()) {
        add(story.addLine, Severity::Warning, "no-expiry", Text::tr("The ZSET never expires"),
            Text::tr("Nothing sets a TTL on the key, so the sorted set of a client that stops sending "
                     "requests stays in memory for ever."),
            Text::tr("After ZADD: redis.call('PEXPIRE', key, window) (window in milliseconds)."));
    } else if (std::all_of(story.expires.begin(), story.expires.end(),
                           [&](int index) { return index < story.firstAdd; })) {
        add(story.expireLine, Severity::Warning, "expire-before-add", Text::tr("The expiry is set before ZADD"),
            Text::tr("On a client's first request the key does not exist yet, so the expiry does nothing "
                     "and ZADD then creates the key without a TTL: a client that sends one request and "
                     "never returns leaves a key that never expires."),
            Text::tr("Set the expiry after ZADD."));
    }
    if (story.scoreUnit >= 0 && story.boundUnit >= 0 && story.scoreUnit != story.boundUnit) {
        add(story.boundLine, Severity::Error, "unit-mismatch",
            Text::tr("The scores and the window's bound are in different units"),
            Text::tr("ZADD writes scores in %1, but this bound is in %2, so the window covers the wrong "
                     "entries: either nothing leaves it or everything does.")
                .arg(unitPlural(story.scoreUnit), unitPlural(story.boundUnit)),
            Text::tr("Use one unit for the scores, now and the window (convert with * 1000 or / 1000)."));
    }
}

} // namespace DoctorRules
