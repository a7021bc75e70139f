#include "luasyntax.h"

#include <QCoreApplication>
#include <QRegularExpression>

extern "C" {
#include <lauxlib.h>
#include <lua.h>
}

namespace {
struct Text
{
    Q_DECLARE_TR_FUNCTIONS(LuaSyntax)
};
} // namespace

LuaSyntax LuaSyntax::check(const QByteArray& source)
{
    LuaSyntax result;
    if (source.startsWith("\x1bLua")) {
        // Lua 5.1 would load it; Redis removed that ability, and a binary chunk cannot be read.
        result.bytecode = true;
        result.line = 1;
        result.message = Text::tr("this is precompiled Lua bytecode, not Lua source; Redis runs only source");
        return result;
    }
    int controls = 0;
    for (const char c : source) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte == 0
            || (byte < 0x20 && byte != '\t' && byte != '\n' && byte != '\r' && byte != '\f' && byte != '\v'
                && byte != 0x1b))
            ++controls;
    }
    result.binary = source.contains('\0') || (controls > 8 && qsizetype(controls) * 20 > source.size());
    lua_State* state = luaL_newstate();
    if (!state) {
        result.message = Text::tr("out of memory while compiling");
        return result;
    }
    // "=user_script" names the chunk as Redis 7 does, so messages read "user_script:3: ...".
    const int status = luaL_loadbuffer(state, source.constData(), size_t(source.size()), "=user_script");
    if (status == 0) {
        result.compiles = true;
    } else {
        size_t length = 0;
        const char* text = lua_tolstring(state, -1, &length);
        QString message = text ? QString::fromUtf8(text, qsizetype(length)) : QString();
        static const QRegularExpression lineRe(QStringLiteral("^user_script:(\\d+): "));
        const auto match = lineRe.match(message);
        if (match.hasMatch()) {
            result.line = match.captured(1).toInt();
            message = message.mid(match.capturedLength());
        }
        result.message = status == LUA_ERRMEM ? Text::tr("out of memory while compiling") : message;
    }
    lua_close(state);
    return result;
}
