"""A fast reader for the TOML that PHH files are made of, with `tomllib` behind it.

PHH files (pokerkit's, the PHH dataset's, ours) use a small part of TOML: `key = value` lines,
`[n]` tables (one hand per table in a "phhs" file), comments, and values that are strings,
numbers, booleans, local times and dates, or arrays of those (ours write `actions` one item per
line). `loads` reads exactly that with string methods and a few anchored regular expressions, and
gives the whole text to `tomllib` the moment it meets anything else: another form of TOML, or
anything that is not TOML at all (so errors, and their messages, are always `tomllib`'s). Its
answer is what `tomllib.loads(text, parse_float=Decimal)` returns; the tests compare the two.

Numbers with a fraction or an exponent are `Decimal`, not float: the digits as written are kept,
which is how a hand's amounts are scaled to whole units (history.py).
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Sequence
from decimal import Decimal

__all__ = ["TomlError", "loads"]


class TomlError(ValueError):
    """The text is not TOML: `tomllib`'s own message."""


class _UnsupportedError(Exception):
    """Not in the subset this reader knows: `tomllib` reads the text instead."""


_INT = r"[+-]?(?:0|[1-9](?:_?[0-9])*)"
_FRACTION = r"(?:\.[0-9](?:_?[0-9])*)"
_EXPONENT = r"(?:[eE][+-]?[0-9](?:_?[0-9])*)"
_FLOAT = rf"{_INT}(?:{_FRACTION}{_EXPONENT}?|{_EXPONENT})"
_NUMBER = rf"(?:{_FLOAT}|{_INT})"
_INT_RE = re.compile(_INT)
_FLOAT_RE = re.compile(_FLOAT)
# Arrays on one line: of numbers, of literal strings ('...') or of basic strings with no escape.
_NUMBERS_RE = re.compile(rf"\[[ \t]*(?:{_NUMBER}[ \t]*(?:,[ \t]*{_NUMBER}[ \t]*)*,?[ \t]*)?\]")
_LITERAL = r"'[^'\x00-\x08\x0a-\x1f\x7f]*'"
_LITERALS_RE = re.compile(rf"\[[ \t]*(?:{_LITERAL}[ \t]*(?:,[ \t]*{_LITERAL}[ \t]*)*,?[ \t]*)?\]")
_BASICS_RE = re.compile(
    r'\[[ \t]*(?:"[^"\\\x00-\x08\x0a-\x1f\x7f]*"[ \t]*'
    r'(?:,[ \t]*"[^"\\\x00-\x08\x0a-\x1f\x7f]*"[ \t]*)*,?[ \t]*)?\]'
)
_LITERAL_RE = re.compile(r"'([^'\x00-\x08\x0a-\x1f\x7f]*)'")
_MULTI_LITERAL_RE = re.compile(r"'''((?:[^'\x00-\x08\x0a-\x1f\x7f]|'(?!''))*)'''")
_BASIC_RE = re.compile(r'"([^"\\\x00-\x08\x0a-\x1f\x7f]*)"')
_TIME_RE = re.compile(r"([0-9]{2}):([0-9]{2}):([0-9]{2})")
_DATE_RE = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})")
_KEY_RE = re.compile(r"[A-Za-z0-9_-]+")
_TABLE_RE = re.compile(r"\[[ \t]*([A-Za-z0-9_-]+)[ \t]*\]")
_CONTROL_RE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
_BLANKS = " \t"


def loads(text: str) -> dict[str, object]:
    """TOML text as `tomllib.loads(text, parse_float=Decimal)` reads it; `TomlError` with
    `tomllib`'s message when it is not TOML."""
    try:
        return _loads(text)
    except _UnsupportedError:
        pass
    import tomllib  # only for what the fast reader does not know

    try:
        return tomllib.loads(text, parse_float=Decimal)
    except tomllib.TOMLDecodeError as error:
        raise TomlError(str(error)) from None


def _loads(text: str) -> dict[str, object]:
    if _CONTROL_RE.search(text):  # carriage returns, form feeds...: tomllib's business
        raise _UnsupportedError
    document: dict[str, object] = {}
    table = document
    lines = text.split("\n")
    count = len(lines)
    index = 0
    while index < count:
        line = lines[index].strip(_BLANKS)
        index += 1
        if not line or line[0] == "#":
            continue
        if line[0] == "[":
            match = _TABLE_RE.fullmatch(line)
            if match is None:
                raise _UnsupportedError
            name = match.group(1)
            if name in document:
                raise _UnsupportedError
            table = {}
            document[name] = table
            continue
        key, equals, raw = line.partition("=")
        if not equals:
            raise _UnsupportedError
        key = key.rstrip(_BLANKS)
        raw = raw.lstrip(_BLANKS)
        if _KEY_RE.fullmatch(key) is None or key in table:
            raise _UnsupportedError
        if raw == "[":  # an array written one item per line (our writer's `actions`)
            items = []
            while index < count:
                item = lines[index].strip(_BLANKS)
                index += 1
                if item == "]":
                    break
                items.append(item)
            else:
                raise _UnsupportedError
            raw = "[" + " ".join(items) + "]"
        table[key] = _value(raw)
    return document


def _value(raw: str) -> object:
    first = raw[0] if raw else ""
    if first == "[":
        return _array(raw)
    if first == "'":
        if raw.startswith("'''"):
            match = _MULTI_LITERAL_RE.fullmatch(raw)
            if match is None or match.group(1).endswith("'"):
                raise _UnsupportedError
            return match.group(1)
        match = _LITERAL_RE.fullmatch(raw)
        if match is None:
            raise _UnsupportedError
        return match.group(1)
    if first == '"':
        match = _BASIC_RE.fullmatch(raw)
        if match is None:
            raise _UnsupportedError
        return match.group(1)
    if raw == "true":
        return True
    if raw == "false":
        return False
    if _INT_RE.fullmatch(raw):
        return int(raw)
    if _FLOAT_RE.fullmatch(raw):
        return Decimal(raw)
    match = _TIME_RE.fullmatch(raw)
    if match is not None:
        try:
            hour, minute, second = map(int, match.groups())
            return datetime.time(hour, minute, second)
        except ValueError:
            raise _UnsupportedError from None
    match = _DATE_RE.fullmatch(raw)
    if match is not None:
        try:
            year, month, day = map(int, match.groups())
            return datetime.date(year, month, day)
        except ValueError:
            raise _UnsupportedError from None
    raise _UnsupportedError


def _array(raw: str) -> Sequence[object]:
    if _NUMBERS_RE.fullmatch(raw):
        values: list[object] = []
        for word in raw[1:-1].split(","):
            word = word.strip(_BLANKS)
            if not word:
                continue  # the trailing comma
            if "." in word or "e" in word or "E" in word:
                values.append(Decimal(word))
            else:
                values.append(int(word))
        return values
    if _LITERALS_RE.fullmatch(raw):
        return raw.split("'")[1::2]
    if _BASICS_RE.fullmatch(raw):
        return raw.split('"')[1::2]
    raise _UnsupportedError
