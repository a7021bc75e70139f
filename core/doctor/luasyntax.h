#pragma once

#include <QByteArray>
#include <QString>

// A script checked by Lua 5.1's own compiler, the Lua that Redis embeds: the parser, not a
// guess. Nothing is run; the Lua state only compiles the chunk and is closed again.
struct LuaSyntax
{
    bool compiles = false;
    int line = 0; // 1-based line of the first error, 0 when unknown
    QString message; // the compiler's words, e.g. "'=' expected near 'x'"; control bytes kept as they came
    bool bytecode = false; // precompiled Lua (starts with ESC "Lua"): Redis refuses to load it
    bool binary = false; // NUL bytes or many control bytes: not a text file at all

    static LuaSyntax check(const QByteArray& source);
};
