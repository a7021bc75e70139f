#pragma once

#include <QByteArray>
#include <QVector>

// Lua 5.1 source as tokens, the way LuaFlow reads it: comments dropped, strings decoded
// (escapes roughly), every token with its line.
namespace LuaFlow {

struct Token
{
    enum class Kind { Name, Number, String, Symbol, End };
    Kind kind = Kind::End;
    QByteArray text; // name, symbol or the string's contents
    double number = 0;
    int line = 0;
};

// Splits source into tokens that end with an End token. At text it cannot read (a string left
// open) it stops early and sets *troubleLine.
QVector<Token> tokenize(const QByteArray& source, int* troubleLine);
bool isKeyword(const QByteArray& word);

} // namespace LuaFlow
