#pragma once

// FunctionLibrary: a Redis Functions library (Redis 7+, Valkey) read without running it: its
// name, the functions it registers and where each one's code lies.

#include "luatokens.h"

#include <QByteArray>
#include <QList>
#include <QVector>

// One function a library registers with redis.register_function (or Valkey's
// server.register_function), in either form: ('name', function(keys, args) ... end) or
// {function_name = 'name', callback = ..., flags = {...}}. The callback may be a local function
// defined elsewhere in the library.
struct LibraryFunction
{
    QByteArray name;
    int line = 0; // of the registration
    QList<QByteArray> flags; // "no-writes", "allow-oom", ...
    QByteArray keysParameter; // the callback's names for its keys and arguments ("keys", "args")
    QByteArray argsParameter;
    QByteArray callbackName; // when the callback is a named local function, not written in place
    int firstLine = 0; // the callback's `function` ...
    int lastLine = 0; // ... to its `end`

    // Byte ranges in the library's source.
    int registrationStart = 0, registrationEnd = 0; // redis.register_function( ... )
    int headerStart = 0, bodyStart = 0; // `function(keys, args)`, then the body
    int bodyEnd = 0, endEnd = 0; // the callback's closing `end`
    int definitionStart = 0; // a named callback: `local function NAME` starts here
};

class FunctionLibrary
{
public:
    // Reads source as a library when it starts with a "#!" line or registers a function; other
    // sources (EVAL scripts) give isLibrary() false.
    static FunctionLibrary read(const QByteArray& source);

    bool isLibrary() const { return m_isLibrary; }
    bool hasShebang() const { return m_hasShebang; }
    QByteArray engine() const { return m_engine; } // "lua" from "#!lua name=ratelib"
    QByteArray name() const { return m_name; } // empty when the first line names none
    const QVector<LibraryFunction>& functions() const { return m_functions; }
    const LibraryFunction* function(const QByteArray& name) const;
    // `name`, or the first function when the library registers none by that name (or name is
    // empty): the one a probe, a burst or the debugger takes unless told; nullptr when none.
    const LibraryFunction* functionOrFirst(const QByteArray& name) const;
    QByteArray functionNames() const; // "limit_now, limit_unique"

    // The library as Lua 5.1 reads it: the "#!" line blanked, every other byte in place.
    const QByteArray& code() const { return m_code; }
    const QVector<LuaFlow::Token>& tokens() const { return m_tokens; } // of code()
    // One function as an EVAL script for reading, line for line with the library: the
    // library's own top-level code (its helpers), the function's body with its parameters
    // named KEYS and ARGV, and every registration blanked. For the doctor, not for running.
    QByteArray readingForm(const LibraryFunction& function) const;
    // The library as an EVAL script that runs one function, line for line with the library:
    // line 1 keeps what register_function registers in a local table, the library's code runs
    // as it is, and a last line calls the function with KEYS and ARGV. The server's Lua
    // debugger takes EVAL scripts only; this is how a function's body is stepped.
    QByteArray evalForm(const QByteArray& functionName) const;

private:
    bool m_isLibrary = false;
    bool m_hasShebang = false;
    QByteArray m_engine;
    QByteArray m_name;
    QByteArray m_source;
    QByteArray m_code;
    QVector<LibraryFunction> m_functions;
    QVector<LuaFlow::Token> m_tokens;
    QList<QPair<int, int>> m_registerNames; // `redis.register_function`: offset, length
};
