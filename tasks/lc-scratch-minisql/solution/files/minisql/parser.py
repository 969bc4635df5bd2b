"""The SQL parser (docs/REQUIREMENTS.md, section 4)."""

from __future__ import annotations

from minisql.ast import (
    Between,
    Binary,
    Call,
    Column,
    InList,
    IsNull,
    Join,
    Like,
    Literal,
    OrderItem,
    Select,
    SelectItem,
    Star,
    TableRef,
    Unary,
)
from minisql.errors import SQLSyntaxError
from minisql.lexer import Token, tokenize

__all__ = ["parse", "parse_expression", "parse_script"]

_COMPARISON = {"=": "=", "==": "=", "<>": "<>", "!=": "<>", "<": "<", "<=": "<=", ">": ">", ">=": ">="}


class _Parser:
    def __init__(self, sql: str, tokens: list[Token]) -> None:
        self.sql = sql
        self.tokens = tokens
        self.i = 0

    # -- token helpers -------------------------------------------------
    @property
    def tok(self) -> Token:
        return self.tokens[self.i]

    def advance(self) -> Token:
        t = self.tokens[self.i]
        if t.kind != "EOF":
            self.i += 1
        return t

    def error(self, tok: Token | None = None) -> SQLSyntaxError:
        tok = tok or self.tok
        if tok.kind == "EOF":
            return SQLSyntaxError("unexpected end of input", tok.pos)
        return SQLSyntaxError(f"unexpected {self.text_of(tok)!r}", tok.pos)

    def text_of(self, tok: Token) -> str:
        nxt = self.tokens[self.tokens.index(tok) + 1] if tok.kind != "EOF" else tok
        return self.sql[tok.pos : nxt.pos].strip() or str(tok.value)

    def is_kw(self, *words: str) -> bool:
        return self.tok.kind == "KEYWORD" and self.tok.value in words

    def is_op(self, *ops: str) -> bool:
        return self.tok.kind == "OP" and self.tok.value in ops

    def accept_kw(self, word: str) -> bool:
        if self.is_kw(word):
            self.advance()
            return True
        return False

    def accept_op(self, op: str) -> bool:
        if self.is_op(op):
            self.advance()
            return True
        return False

    def expect_kw(self, word: str) -> Token:
        if not self.is_kw(word):
            raise self.error()
        return self.advance()

    def expect_op(self, op: str) -> Token:
        if not self.is_op(op):
            raise self.error()
        return self.advance()

    def ident(self) -> str:
        if self.tok.kind != "IDENT":
            raise self.error()
        return str(self.advance().value)

    # -- statements ----------------------------------------------------
    def select(self) -> Select:
        self.expect_kw("SELECT")
        distinct = self.accept_kw("DISTINCT")
        items = [self.select_item()]
        while self.accept_op(","):
            items.append(self.select_item())
        from_, joins = None, []
        if self.accept_kw("FROM"):
            from_ = self.table_ref()
            while True:
                if self.accept_op(","):
                    joins.append(Join("CROSS", self.table_ref()))
                elif self.accept_kw("CROSS"):
                    self.expect_kw("JOIN")
                    joins.append(Join("CROSS", self.table_ref()))
                elif self.is_kw("JOIN", "INNER"):
                    if self.accept_kw("INNER"):
                        self.expect_kw("JOIN")
                    else:
                        self.advance()
                    table = self.table_ref()
                    self.expect_kw("ON")
                    joins.append(Join("INNER", table, self.expr()))
                elif self.accept_kw("LEFT"):
                    self.accept_kw("OUTER")
                    self.expect_kw("JOIN")
                    table = self.table_ref()
                    self.expect_kw("ON")
                    joins.append(Join("LEFT", table, self.expr()))
                else:
                    break
        where = self.expr() if self.accept_kw("WHERE") else None
        group_by: list = []
        if self.accept_kw("GROUP"):
            self.expect_kw("BY")
            group_by = [self.expr()]
            while self.accept_op(","):
                group_by.append(self.expr())
        having = self.expr() if self.accept_kw("HAVING") else None
        order_by: list = []
        if self.accept_kw("ORDER"):
            self.expect_kw("BY")
            order_by = [self.order_item()]
            while self.accept_op(","):
                order_by.append(self.order_item())
        limit = offset = None
        if self.accept_kw("LIMIT"):
            limit = self.count()
            if self.accept_kw("OFFSET"):
                offset = self.count()
        return Select(
            items=tuple(items),
            distinct=distinct,
            from_=from_,
            joins=tuple(joins),
            where=where,
            group_by=tuple(group_by),
            having=having,
            order_by=tuple(order_by),
            limit=limit,
            offset=offset,
        )

    def count(self) -> int:
        tok = self.tok
        if tok.kind != "NUMBER" or not isinstance(tok.value, int):
            raise self.error()
        self.advance()
        return int(tok.value)

    def select_item(self) -> SelectItem:
        start = self.tok.pos
        if self.accept_op("*"):
            return SelectItem(Star(), None, "*")
        if (
            self.tok.kind == "IDENT"
            and self.tokens[self.i + 1][:2] == ("OP", ".")
            and self.tokens[self.i + 2][:2] == ("OP", "*")
        ):
            table = self.ident()
            self.advance()
            self.advance()
            return SelectItem(Star(table), None, self.sql[start : self.tok.pos].strip())
        expr = self.expr()
        text = self.sql[start : self.tok.pos].strip()
        alias = None
        if self.accept_kw("AS"):
            alias = self.ident()
        elif self.tok.kind == "IDENT":
            alias = self.ident()
        return SelectItem(expr, alias, text)

    def table_ref(self) -> TableRef:
        name = self.ident()
        alias = None
        if self.accept_kw("AS"):
            alias = self.ident()
        elif self.tok.kind == "IDENT":
            alias = self.ident()
        return TableRef(name, alias)

    def order_item(self) -> OrderItem:
        expr = self.expr()
        if self.accept_kw("DESC"):
            return OrderItem(expr, True)
        self.accept_kw("ASC")
        return OrderItem(expr, False)

    # -- expressions ---------------------------------------------------
    def expr(self):
        return self.or_expr()

    def or_expr(self):
        left = self.and_expr()
        while self.accept_kw("OR"):
            left = Binary("OR", left, self.and_expr())
        return left

    def and_expr(self):
        left = self.not_expr()
        while self.accept_kw("AND"):
            left = Binary("AND", left, self.not_expr())
        return left

    def not_expr(self):
        if self.accept_kw("NOT"):
            return Unary("NOT", self.not_expr())
        return self.comparison()

    def comparison(self):
        left = self.additive()
        while True:
            if self.tok.kind == "OP" and self.tok.value in _COMPARISON:
                op = _COMPARISON[str(self.advance().value)]
                left = Binary(op, left, self.additive())
            elif self.accept_kw("IS"):
                negated = self.accept_kw("NOT")
                self.expect_kw("NULL")
                left = IsNull(left, negated)
            elif self.is_kw("NOT", "IN", "BETWEEN", "LIKE"):
                negated = self.accept_kw("NOT")
                if self.accept_kw("IN"):
                    self.expect_op("(")
                    items = [self.expr()]
                    while self.accept_op(","):
                        items.append(self.expr())
                    self.expect_op(")")
                    left = InList(left, tuple(items), negated)
                elif self.accept_kw("BETWEEN"):
                    low = self.additive()
                    self.expect_kw("AND")
                    high = self.additive()
                    left = Between(left, low, high, negated)
                elif self.accept_kw("LIKE"):
                    left = Like(left, self.additive(), negated)
                else:
                    raise self.error()
            else:
                return left

    def additive(self):
        left = self.multiplicative()
        while self.is_op("+", "-"):
            op = str(self.advance().value)
            left = Binary(op, left, self.multiplicative())
        return left

    def multiplicative(self):
        left = self.concat()
        while self.is_op("*", "/", "%"):
            op = str(self.advance().value)
            left = Binary(op, left, self.concat())
        return left

    def concat(self):
        left = self.unary()
        while self.accept_op("||"):
            left = Binary("||", left, self.unary())
        return left

    def unary(self):
        if self.is_op("-", "+"):
            op = str(self.advance().value)
            return Unary(op, self.unary())
        return self.primary()

    def primary(self):
        tok = self.tok
        if tok.kind in ("NUMBER", "STRING"):
            self.advance()
            return Literal(tok.value)
        if tok.kind == "KEYWORD" and tok.value in ("NULL", "TRUE", "FALSE"):
            self.advance()
            return Literal({"NULL": None, "TRUE": 1, "FALSE": 0}[str(tok.value)])
        if self.accept_op("("):
            inner = self.expr()
            self.expect_op(")")
            return inner
        if tok.kind == "IDENT":
            name = self.ident()
            if self.accept_op("("):
                return self.call(name)
            if self.accept_op("."):
                return Column(self.ident(), name)
            return Column(name)
        raise self.error()

    def call(self, name: str) -> Call:
        upper = name.upper()
        if self.accept_op("*"):
            self.expect_op(")")
            return Call(upper, (), False, True)
        distinct = self.accept_kw("DISTINCT")
        args = []
        if not self.is_op(")"):
            args.append(self.expr())
            while self.accept_op(","):
                args.append(self.expr())
        self.expect_op(")")
        return Call(upper, tuple(args), distinct, False)


def parse(sql: str) -> Select:
    """Parse one SELECT statement (an optional trailing ';' is allowed)."""
    p = _Parser(sql, tokenize(sql))
    stmt = p.select()
    p.accept_op(";")
    if p.tok.kind != "EOF":
        raise p.error()
    return stmt


def parse_expression(text: str):
    """Parse a single expression; the whole text must be consumed."""
    p = _Parser(text, tokenize(text))
    expr = p.expr()
    if p.tok.kind != "EOF":
        raise p.error()
    return expr


def parse_script(sql: str) -> list[Select]:
    """Parse statements separated by ';' (empty statements are skipped)."""
    p = _Parser(sql, tokenize(sql))
    out = []
    while p.tok.kind != "EOF":
        if p.accept_op(";"):
            continue
        out.append(p.select())
        if p.tok.kind != "EOF" and not p.is_op(";"):
            raise p.error()
    return out
