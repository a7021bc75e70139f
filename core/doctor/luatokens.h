#pragma once

// Lua 5.1 tokens: the tokenizer the doctor's reading starts from.

#include <QByteArray>
#include <QVector>

// Lua 5.1 source as tokens, the way LuaFlow reads it and the script editors colour it: strings
// decoded (escapes roughly), every token with its line and where it stands in the source.
namespace LuaFlow {

struct Token
{
    enum class Kind { Name, Number, String, Symbol, Comment, End };
    Kind kind = Kind::End;
    QByteArray text; // name, symbol or the string's contents
    double number = 0;
    int line = 0;
    int offset = 0; // bytes from the start of the source
    int length = 0; // bytes of source the token spans (quotes and brackets included)
};

enum class TokenMode {
    Code, // comments dropped; stops at text it cannot read
    Highlight, // comments kept (--[[ ]] too); text it cannot read runs to the end of its line
};

// Splits source into tokens that end with an End token. In Code mode, at text it cannot read (a
// string left open) it stops early and sets *troubleLine.
QVector<Token> tokenize(const QByteArray& source, int* troubleLine, TokenMode mode = TokenMode::Code);
bool isKeyword(const QByteArray& word);

} // namespace LuaFlow
