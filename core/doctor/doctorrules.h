#pragma once

#include "luaflow.h"
#include "luasyntax.h"
#include "scriptdoctor.h"

#include <QCoreApplication>
#include <QHash>
#include <QSet>

// The Script Doctor's rules (internal to ScriptDoctor::examine): one Doctor reads one script's
// flow and adds findings, by family: the keys a script touches and their slots (keyrules.cpp),
// members and times (memberrules.cpp), the story of each key (keystoryrules.cpp), and the
// arguments, the syntax and the facts the reading noted (doctorrules.cpp).
class FunctionLibrary;

namespace DoctorRules {
using namespace LuaFlow;
using Severity = ScriptFinding::Severity;

struct Text
{
    Q_DECLARE_TR_FUNCTIONS(ScriptDoctor)
};

constexpr int maxExcerpt = 160; // characters of a line quoted with a finding

QString unitWord(int unit);
// What services beyond Redis Cluster do with a key not passed in KEYS: one sentence, to append.
QString managedServicesNote();
QString unitPlural(int unit);

// Where the ZSET of one key is added to, trimmed, counted and expired, in call order.
struct KeyStory
{
    int firstAdd = -1, addLine = 0;
    int firstTrim = -1;
    int firstCount = -1, countLine = 0; // ZCARD, or ZCOUNT (ZLEXCOUNT) over every entry
    int countAfterTrim = -1; // the first such count after the first trim
    QVector<int> expires; // call indexes
    int expireLine = 0;
    int scoreUnit = -1;
    bool log = false; // the first ZADD is into a log of requests (Doctor::isLog)
    int boundUnit = -1, boundLine = 0;
};

class Doctor
{
    // A key the script builds from KEYS[n] and the call does not pass.
    struct BuiltKey
    {
        QByteArray id; // its name (KEYS[1]:seq), or where it was built when the name is not known
        QString command; // where it is first touched
        int line = 0;
        Value key;
        QVector<int> otherLines; // where it is touched again
    };

public:
    Doctor(const QByteArray& source, const CallTemplate& call, const Reading& reading, const QByteArray& appKey);

    QVector<ScriptFinding> findings(const LuaSyntax& syntax);
    // The fewest values a member's random part takes where member-random-few was found; 0: none.
    double fewRandomValues() const { return m_fewRandomValues; }

private:
    void add(int line, Severity severity, const char* code, const QString& title, const QString& explanation,
             const QString& suggestion);

    // ARGV index of a per-request id the call already carries ({uuid} or {seq}), 0 if none.
    int idArgument() const;

    QString uniqueMemberSuggestion() const;

    // A key of the call template as text that keeps placeholders apart from literal text, so that
    // keys are compared by how they are made, not by the values of one call.
    static QByteArray keyShape(const CallTemplate::Token& token);

    // n of "KEYS[n]", 0 when the name is not one.
    static int keysIndex(const QByteArray& root);

    // KEYS[n] .. ':seq' is the template's KEYS[m] when both are made alike ({key}:seq): the key is
    // passed, under another index. Returns m (1-based), or 0 when no key of the call is this one.
    int passedAs(const Value& key) const;

    // ARGV[n] that the call fills with one of its KEYS ({key} in both): that key's index
    // (1-based), 0 otherwise.
    int argvPassedAsKey(const Value& key) const;

    // "KEYS[1] .. ':seq'", as the script could write it.
    static QString builtKeyText(const Value& key);

    // A key that does not start with one the caller passed: known text, ARGV, or literal text in
    // front of KEYS[n]. Values the reading could not follow are left alone.
    static QString keyDescription(const Value& key);

    void checkKeys(const RedisCall& call);

    // One finding per built key, where the script first touches it: the other lines need the same
    // change and are named in it.
    void noteBuiltKey(const RedisCall& call, const Value& key);

    void reportBuiltKeys();

    // A key the script makes from KEYS[n] (KEYS[1] .. ':seq') that the call does not pass: fine on
    // one server, a failure on a cluster unless it shares the hash tag of the keys passed.
    void reportBuiltKey(const BuiltKey& built);

    // With the name of an application's key, the keys of one call as that application would pass
    // them: Redis Cluster refuses a call whose KEYS hash to more than one slot (CROSSSLOT).
    void checkSlots();

    void checkCall(const RedisCall& call);

    void checkAdd(const RedisCall& call);
    // A ZADD into a log of requests: its score is a time, or the script trims or counts the key.
    // Not so an index or a registry of names (every score 0, never trimmed).
    bool isLog(const Value& key, const Value& score) const;

    void checkMember(int line, const Value& score, const Value& member);

    // A member made from the time is graded by how fine that time is and whose clock it is: a
    // millisecond (or a second) repeats within a burst; the server's microseconds do not repeat
    // on one server, which runs one script at a time; a client's microseconds repeat between
    // app servers.
    void checkFewRandomValues(int line, const Value& member, const QString& builtOn);
    void checkTimeMember(int line, const Value& score, const Value& member, const QString& builtOn);
    // A member of a time part that repeats (the millisecond within the second) and parts the same
    // in every call: it takes timeCycle values.
    void checkCyclicTimeMember(int line, const Value& member, const QString& builtOn);

    void checkExpire(const RedisCall& call);

    void checkKeyStories();

    void checkKeyStory(const KeyStory& story);

    // What the script does with ARGV[index]: its use says more than its name (EXPIRE takes
    // seconds, ZADD's score is a time, ZREMRANGEBYSCORE's upper bound is the window's start).
    struct ArgUse
    {
        Meaning meaning = Meaning::None;
        int unit = -1;
        bool conflicting = false;
    };
    QHash<int, ArgUse> argUses() const;

    // The --args the script reads, as far as it shows them; "?" where it does not say.
    QString suggestedArgs() const;

    // Said after a suggestion when some argument's meaning is not known.
    static QString unknownArgsNote(const QString& args);

    void checkSyntax(const LuaSyntax& syntax);

    void checkFacts(bool syntaxFound);
    // checkFacts()'s longer findings: a timestamp written as lossy text, and what the call
    // template leaves out or puts elsewhere (each ARGV[n] and KEYS[n] told once).
    void addLossy(const Fact& fact);
    void addTemplateMismatch(const Fact& fact, QSet<int>* missingArgs, QSet<int>* missingKeys);

    // Notes for managed and serverless services (servicerules.cpp): a script called without KEYS,
    // a write after TIME.
    void checkServices();

    // A key of the call that a Redis call touches: KEYS[index], read directly or built alike.
    struct KeyUse
    {
        int line = 0;
        int index = 0;
    };

    double m_fewRandomValues = 0;
    QList<QByteArray> m_lines;
    const CallTemplate& m_call;
    const Reading& m_reading;
    const QByteArray m_appKey;
    QList<QByteArray> m_keyShapes; // per key of the template
    QList<QByteArray> m_appKeys; // the template's keys named from m_appKey; empty without one
    QVector<KeyUse> m_passedKeyUses; // in call order
    int m_mirroredKeyUses = 0; // keys read from ARGV that the call passes in KEYS as well
    QVector<BuiltKey> m_builtKeys; // built from KEYS[n], not passed; in the order first touched
    QVector<ScriptFinding> m_findings;
    QSet<int> m_lossyMembers;
    QSet<int> m_lossyUniqueMembers; // lossy time in a member that a request id keeps unique
    bool m_randomSeedExplained = false;
};
// An EVAL script, and a Redis Functions library function by function (libraryrules.cpp).
// serverGlobals: look for server.call too (a library looks once for all its functions).
ScriptExamination examineScript(const QByteArray& source, const CallTemplate& call, const QByteArray& appKey,
                                bool serverGlobals = true);
ScriptExamination examineLibrary(const FunctionLibrary& library, const QByteArray& source, const CallTemplate& call,
                                 const QByteArray& appKey, const QByteArray& function);

} // namespace DoctorRules
