"""The SQL tokenizer (docs/REQUIREMENTS.md, section 3)."""

from __future__ import annotations

import re
from typing import NamedTuple

from minisql.errors import SQLSyntaxError

__all__ = ["KEYWORDS", "Token", "tokenize"]

KEYWORDS = frozenset(
    """SELECT DISTINCT FROM WHERE GROUP BY HAVING ORDER ASC DESC LIMIT OFFSET AS AND OR NOT
    NULL IS IN BETWEEN LIKE JOIN INNER LEFT OUTER CROSS ON TRUE FALSE""".split()
)

_OPERATORS = ("<=", ">=", "<>", "!=", "==", "||", "=", "<", ">", "+", "-", "*", "/", "%", "(", ")", ",", ".", ";")
_NUMBER = re.compile(r"(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?")
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class Token(NamedTuple):
    kind: str  # KEYWORD, IDENT, NUMBER, STRING, OP or EOF
    value: object
    pos: int


def _quoted(sql: str, start: int, quote: str, what: str) -> tuple[str, int]:
    i = start + 1
    parts = []
    while True:
        j = sql.find(quote, i)
        if j < 0:
            raise SQLSyntaxError(f"unterminated {what}", start)
        parts.append(sql[i:j])
        if sql.startswith(quote * 2, j):
            parts.append(quote)
            i = j + 2
            continue
        return "".join(parts), j + 1


def tokenize(sql: str) -> list[Token]:
    tokens: list[Token] = []
    i, n = 0, len(sql)
    while i < n:
        ch = sql[i]
        if ch.isspace():
            i += 1
            continue
        if sql.startswith("--", i):
            j = sql.find("\n", i)
            i = n if j < 0 else j + 1
            continue
        if ch == "'":
            value, end = _quoted(sql, i, "'", "string")
            tokens.append(Token("STRING", value, i))
            i = end
            continue
        if ch == '"':
            value, end = _quoted(sql, i, '"', "identifier")
            if not value:
                raise SQLSyntaxError("empty identifier", i)
            tokens.append(Token("IDENT", value, i))
            i = end
            continue
        m = _NUMBER.match(sql, i)
        if m and (ch.isdigit() or (ch == "." and i + 1 < n and sql[i + 1].isdigit())):
            text = m.group()
            end = m.end()
            if end < n and (sql[end].isalpha() or sql[end] == "_"):
                raise SQLSyntaxError(f"invalid number {sql[i:end + 1]!r}", i)
            is_int = text.isdigit()
            tokens.append(Token("NUMBER", int(text) if is_int else float(text), i))
            i = end
            continue
        m = _WORD.match(sql, i)
        if m:
            word = m.group()
            if word.upper() in KEYWORDS:
                tokens.append(Token("KEYWORD", word.upper(), i))
            else:
                tokens.append(Token("IDENT", word, i))
            i = m.end()
            continue
        for op in _OPERATORS:
            if sql.startswith(op, i):
                tokens.append(Token("OP", op, i))
                i += len(op)
                break
        else:
            raise SQLSyntaxError(f"unexpected character {ch!r}", i)
    tokens.append(Token("EOF", None, n))
    return tokens
