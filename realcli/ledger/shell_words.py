"""Shell command lines as words: the lexing half of the tool-call classifier
(:mod:`realcli.ledger.atomic_ops` classifies what this splits).

``shlex`` with punctuation characters does the quoting; before it, heredoc bodies and command
substitutions (``$( ... )``, backticks) are cut out of the text (and kept, so the classifier
can look into them), and after it operator runs are split and the words grouped into simple
commands with redirect targets dropped. Standard library only; nothing here raises on odd
input except :func:`shell_words`, which returns None when the text does not tokenize.
"""

from __future__ import annotations

import re
import shlex

__all__ = [
    "SUBSTITUTED",
    "cut_heredocs",
    "cut_substitutions",
    "heredoc_body",
    "shell_words",
    "simple_commands",
]

SUBSTITUTED = "__realcli_subst__"
"""The word a command substitution's place holds once its body is cut out."""
_OPERATORS = ("&&", "||", ";;", "|&", "<<<", "<<-", "<<", ">>", ">&", "<&", "&>", ">|")
_SEPARATORS = frozenset({"&&", "||", ";;", "|&", ";", "|", "&", "\n", "(", ")"})
_REDIRECTS = frozenset({"<<<", "<<-", "<<", ">>", ">&", "<&", "&>", ">|", "<", ">"})
_HEREDOC = re.compile(r"(?<![<])<<(-?)[ \t]*(['\"]?)([A-Za-z_][\w.-]*)\2")
_HEREDOC_WORD = re.compile(r"^__realcli_heredoc_(\d+)__$")


def cut_heredocs(text: str) -> tuple[str, list[str]]:
    """Heredoc bodies out of the text (each ``<<EOF`` becomes ``<< __realcli_heredoc_N__``),
    so ``import os`` in a file written by ``cat <<EOF`` is not a command."""
    if "<<" not in text:
        return text, []
    lines = text.split("\n")
    out: list[str] = []
    bodies: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        pending: list[tuple[str, bool]] = []

        def mark(m: re.Match[str], pending: list[tuple[str, bool]] = pending) -> str:
            pending.append((m.group(3), m.group(1) == "-"))
            return f"<< __realcli_heredoc_{len(bodies) + len(pending) - 1}__"

        out.append(_HEREDOC.sub(mark, line))
        i += 1
        for delimiter, strip_tabs in pending:
            body: list[str] = []
            while i < len(lines):
                candidate = lines[i].lstrip("\t") if strip_tabs else lines[i]
                i += 1
                if candidate.rstrip() == delimiter:
                    break
                body.append(lines[i - 1])
            bodies.append("\n".join(body))
    return "\n".join(out), bodies


def cut_substitutions(text: str) -> tuple[str, list[str]]:
    """``$( ... )`` (balanced) and backtick bodies out of the text, replaced by a word."""
    if "$(" not in text and "`" not in text:
        return text, []
    out: list[str] = []
    inner: list[str] = []
    i, n = 0, len(text)
    while i < n:
        if text.startswith("$(", i):
            depth, j = 1, i + 2
            while j < n and depth:
                depth += {"(": 1, ")": -1}.get(text[j], 0)
                j += 1
            if not text.startswith("$((", i):  # $(( ... )) is arithmetic, not a command
                inner.append(text[i + 2 : j - 1] if not depth else text[i + 2 :])
            out.append(SUBSTITUTED)
            i = j
            continue
        if text[i] == "`":
            j = text.find("`", i + 1)
            j = n if j < 0 else j
            inner.append(text[i + 1 : j])
            out.append(SUBSTITUTED)
            i = j + 1
            continue
        out.append(text[i])
        i += 1
    return "".join(out), inner


def shell_words(text: str) -> list[str] | None:
    """The words and operators of ``text``; None when it does not tokenize."""
    # shlex drops a comment with the newline that ends it: a ';' after every newline keeps
    # the command after a comment separate (inside quotes it is only an extra character)
    lexer = shlex.shlex(text.replace("\n", "\n;"), posix=True, punctuation_chars=";&|()<>\n")
    lexer.whitespace = " \t\r"
    lexer.whitespace_split = True
    try:
        raw = list(lexer)
    except ValueError:  # unterminated quote or escape
        return None
    words: list[str] = []
    for tok in raw:
        if tok and all(c in ";&|()<>\n" for c in tok):
            words.extend(_split_operators(tok))
        else:
            words.append(tok)
    return words


def _split_operators(run: str) -> list[str]:
    ops = []
    i = 0
    while i < len(run):
        for op in _OPERATORS:
            if run.startswith(op, i):
                ops.append(op)
                i += len(op)
                break
        else:
            ops.append(run[i])
            i += 1
    return ops


def simple_commands(words: list[str]) -> list[list[str]]:
    commands: list[list[str]] = []
    current: list[str] = []
    redirect = False
    for w in words:
        if w in _SEPARATORS:
            if current:
                commands.append(current)
            current, redirect = [], False
        elif w in _REDIRECTS:
            if w in ("<<", "<<-", "<<<"):
                current.append(w)  # keep heredoc / here-string markers: they may feed code
            redirect = w not in ("<<", "<<-", "<<<")
        elif redirect:
            redirect = False  # the redirect's target, not an argument
        else:
            current.append(w)
    if current:
        commands.append(current)
    return [_drop_fd_numbers(c) for c in commands]


def _drop_fd_numbers(words: list[str]) -> list[str]:
    # ``cmd 2>&1`` tokenizes as cmd, 2, >&, 1: the 2 before a redirect is not an argument;
    # harmless to keep except as a program name, so only a leading fd number is dropped
    return words[1:] if len(words) > 1 and words[0].isdigit() else words


def heredoc_body(word: str, bodies: list[str]) -> str | None:
    m = _HEREDOC_WORD.match(word)
    if m and int(m.group(1)) < len(bodies):
        return bodies[int(m.group(1))]
    return None
