"""Reading and writing PHH hand histories (TOML), for the variants this engine plays.

PHH (the poker hand history format of pokerkit, https://phh.readthedocs.io) stores one hand as
TOML fields. We read `NT` (no-limit Texas hold'em), `FT` (fixed-limit Texas hold'em) and our own
code `PT` (pot-limit Texas hold'em: PHH has no code for it; it takes NT's fields). Fields are
checked strictly: a missing or mistyped field is an error (`bad_field`), never guessed.

A "phhs" file holds several hands as TOML tables (`[1]`, `[2]`, ...): `split_hands` tells the two
kinds apart by their content, not by the file name.

Writing uses our own small TOML writer (the standard library only reads TOML).
"""

from __future__ import annotations

import datetime
import math
import re
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from dealer.engine.errors import EngineError, Invalid
from dealer.engine.setup import MAX_PLAYERS

# Our variant codes and the betting structure each one plays (RULES.md section 5).
VARIANTS: dict[str, str] = {"NT": "no_limit", "FT": "fixed_limit", "PT": "pot_limit"}
CODES: dict[str, str] = {structure: code for code, structure in VARIANTS.items()}

# PHH's other variant codes, named in the refusal so the reader knows what the file is.
OTHER_VARIANTS: dict[str, str] = {
    "NS": "no-limit short-deck hold'em",
    "PO": "pot-limit Omaha hold'em",
    "FO/8": "fixed-limit Omaha hold'em high/low",
    "F7S": "fixed-limit seven card stud",
    "F7S/8": "fixed-limit seven card stud high/low",
    "FR": "fixed-limit razz",
    "N2L1D": "no-limit deuce-to-seven single draw",
    "F2L3D": "fixed-limit deuce-to-seven triple draw",
    "FB": "fixed-limit badugi",
}

# The fields this module reads itself; everything else is kept, in file order, in `extra`.
_BET_FIELDS = {"NT": ("min_bet",), "PT": ("min_bet",), "FT": ("small_bet", "big_bet")}
_ALL_BET_FIELDS = ("min_bet", "small_bet", "big_bet", "bring_in")
_KNOWN_FIELDS = frozenset(
    {
        "variant",
        "ante_trimming_status",
        "antes",
        "blinds_or_straddles",
        "starting_stacks",
        "actions",
        "players",
        "seats",
        "finishing_stacks",
        *_ALL_BET_FIELDS,
    }
)


class PhhError(EngineError, Invalid):
    """A PHH file or hand history we cannot use: `code` says what kind, `detail` which field."""

    code = "bad_phh"


@dataclass(slots=True, kw_only=True)
class HandHistory:
    """One PHH hand. Per-player lists are in PHH order: p1 (index 0) is the first seat left of
    the button, the last player holds the button.

    Amounts are as written in the file. Heads-up, PHH writes `antes` and `blinds_or_straddles` as
    if p1 were the small blind and reverses them in play, so p1 posts the big blind
    (`effective_blinds` and `effective_antes` give what each player really posts).
    """

    variant: str
    antes: list[int]
    blinds_or_straddles: list[int]
    starting_stacks: list[int]
    actions: list[str]
    min_bet: int | None = None  # NT and PT
    small_bet: int | None = None  # FT
    big_bet: int | None = None  # FT: always twice the small bet here
    ante_trimming_status: bool | None = None
    players: list[str] | None = None
    seats: list[int] | None = None
    finishing_stacks: list[int] | None = None
    extra: dict[str, Any] = field(default_factory=dict)  # every other field, in file order

    @property
    def player_count(self) -> int:
        return len(self.starting_stacks)

    @property
    def structure(self) -> str:
        return VARIANTS[self.variant]

    @property
    def effective_blinds(self) -> list[int]:
        """What each player posts as a blind or straddle (heads-up: reversed, p1 = big blind)."""
        return _heads_up_reversed(self.blinds_or_straddles)

    @property
    def effective_antes(self) -> list[int]:
        """Each player's ante (heads-up: reversed, as PHH writes them)."""
        return _heads_up_reversed(self.antes)


def _heads_up_reversed(values: list[int]) -> list[int]:
    return list(reversed(values)) if len(values) == 2 else list(values)


# --- reading ---------------------------------------------------------------------------------


def load_toml(text: str) -> dict[str, Any]:
    """TOML text as a dictionary; `bad_toml` with the parser's own message when it is not TOML."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise PhhError(f"The file is not valid TOML: {error}.", code="bad_toml") from None


def split_hands(text: str) -> list[dict[str, Any]]:
    """The hands of a PHH text: one for a plain .phh file, one per table for a "phhs" file.

    A text whose top level has a `variant` (or any plain value) is one hand. A text whose every
    top-level value is a table (`[1]`, `[2]`, ...) holds one hand per table, in file order.
    """
    document = load_toml(text)
    if not document:
        raise PhhError("The file holds no hand: the field 'variant' is missing.", code="bad_field")
    if "variant" in document or not all(isinstance(v, dict) for v in document.values()):
        return [document]
    return list(document.values())


def parse_phh(text: str) -> HandHistory:
    """Read one hand from PHH text (a multi-hand text is refused: use `parse_phhs`)."""
    hands = split_hands(text)
    if len(hands) != 1:
        raise PhhError(
            f"The file holds {len(hands)} hands: read it with parse_phhs.", code="bad_field"
        )
    return history_from_fields(hands[0])


def parse_phhs(text: str) -> list[HandHistory]:
    """Read every hand of a PHH text (plain or multi-hand); the first bad hand raises."""
    return [history_from_fields(fields) for fields in split_hands(text)]


def history_from_fields(fields: Mapping[str, Any]) -> HandHistory:
    """Check one hand's TOML fields and build its `HandHistory`."""
    variant = fields.get("variant")
    if variant is None:
        raise PhhError("The field 'variant' is missing.", code="bad_field")
    if not isinstance(variant, str):
        raise PhhError("The field 'variant' must be a string such as \"NT\".", code="bad_field")
    if variant not in VARIANTS:
        known = OTHER_VARIANTS.get(variant)
        what = f"'{variant}' ({known})" if known else f"'{variant}'"
        raise PhhError(
            f"The variant {what} is not played by this engine: use NT (no-limit), FT (fixed-limit) "
            "or PT (pot-limit Texas hold'em).",
            code="unsupported_variant",
        )
    stacks = _int_list(fields, "starting_stacks", None, minimum=1)
    count = len(stacks)
    if not 2 <= count <= MAX_PLAYERS:
        raise PhhError(
            f"The field 'starting_stacks' lists {count} players: a hand needs 2 to {MAX_PLAYERS}.",
            code="bad_field",
        )
    history = HandHistory(
        variant=variant,
        antes=_int_list(fields, "antes", count, minimum=0),
        blinds_or_straddles=_int_list(fields, "blinds_or_straddles", count, minimum=0),
        starting_stacks=stacks,
        actions=_actions(fields),
    )
    for name in _ALL_BET_FIELDS:
        if name in fields and name not in _BET_FIELDS[variant]:
            raise PhhError(
                f"The field '{name}' is not a field of variant {variant} (it uses "
                f"{' and '.join(_BET_FIELDS[variant])}).",
                code="bad_field",
            )
    if variant == "FT":
        history.small_bet = _required_int(fields, "small_bet", minimum=1)
        history.big_bet = _required_int(fields, "big_bet", minimum=1)
        if history.big_bet != 2 * history.small_bet:
            raise PhhError(
                f"The big bet ({history.big_bet}) must be twice the small bet "
                f"({history.small_bet}): this engine plays fixed limit that way (RULES.md 5.3).",
                code="bad_field",
            )
    else:
        history.min_bet = _required_int(fields, "min_bet", minimum=1)
    if "ante_trimming_status" in fields:
        status = fields["ante_trimming_status"]
        if not isinstance(status, bool):
            raise PhhError(
                "The field 'ante_trimming_status' must be true or false.", code="bad_field"
            )
        history.ante_trimming_status = status
    if "players" in fields:
        history.players = _str_list(fields, "players", count)
    if "seats" in fields:
        history.seats = _int_list(fields, "seats", count, minimum=1)
    if "finishing_stacks" in fields:
        history.finishing_stacks = _int_list(fields, "finishing_stacks", count, minimum=0)
    history.extra = {k: v for k, v in fields.items() if k not in _KNOWN_FIELDS}
    return history


def _whole(value: Any, name: str) -> int:
    """A whole number of chips: an integer, or a float with no fraction (2.0)."""
    if isinstance(value, bool):
        raise PhhError(f"The field '{name}' must hold whole numbers of chips.", code="bad_field")
    if isinstance(value, int):
        return value
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        return int(value)
    if isinstance(value, float):
        raise PhhError(
            f"The field '{name}' holds {value}: this engine counts whole chips only (an unknown "
            "stack, inf, cannot be played).",
            code="bad_field",
        )
    raise PhhError(f"The field '{name}' must hold numbers, not {value!r}.", code="bad_field")


def _required_int(fields: Mapping[str, Any], name: str, *, minimum: int) -> int:
    if name not in fields:
        raise PhhError(f"The field '{name}' is missing.", code="bad_field")
    value = _whole(fields[name], name)
    if value < minimum:
        raise PhhError(f"The field '{name}' must be at least {minimum}.", code="bad_field")
    return value


def _list(fields: Mapping[str, Any], name: str, count: int | None) -> list[Any]:
    if name not in fields:
        raise PhhError(f"The field '{name}' is missing.", code="bad_field")
    values = fields[name]
    if not isinstance(values, list):
        raise PhhError(f"The field '{name}' must be an array.", code="bad_field")
    if count is not None and len(values) != count:
        raise PhhError(
            f"The field '{name}' has {len(values)} entries for {count} players: give one per "
            "player, in PHH order.",
            code="bad_field",
        )
    return values


def _int_list(
    fields: Mapping[str, Any], name: str, count: int | None, *, minimum: int
) -> list[int]:
    values = [_whole(v, name) for v in _list(fields, name, count)]
    if any(v < minimum for v in values):
        what = "positive" if minimum == 1 else "zero or more"
        raise PhhError(f"Every entry of '{name}' must be {what}.", code="bad_field")
    return values


def _str_list(fields: Mapping[str, Any], name: str, count: int | None) -> list[str]:
    values = _list(fields, name, count)
    if not all(isinstance(v, str) for v in values):
        raise PhhError(f"Every entry of '{name}' must be a string.", code="bad_field")
    return list(values)


def _actions(fields: Mapping[str, Any]) -> list[str]:
    return _str_list(fields, "actions", None)


# --- writing ---------------------------------------------------------------------------------


def dumps_phh(history: HandHistory) -> str:
    """One hand as PHH text: required fields first, one action per line, then the rest."""
    lines = [f"variant = {_value(history.variant)}"]
    if history.ante_trimming_status is not None:
        lines.append(f"ante_trimming_status = {_value(history.ante_trimming_status)}")
    lines.append(f"antes = {_value(history.antes)}")
    lines.append(f"blinds_or_straddles = {_value(history.blinds_or_straddles)}")
    for name in ("min_bet", "small_bet", "big_bet"):
        amount = getattr(history, name)
        if amount is not None:
            lines.append(f"{name} = {amount}")
    lines.append(f"starting_stacks = {_value(history.starting_stacks)}")
    lines.append("actions = [")
    lines.extend(f"  {_value(action)}," for action in history.actions)
    lines.append("]")
    for name in ("players", "seats", "finishing_stacks"):
        values = getattr(history, name)
        if values is not None:
            lines.append(f"{name} = {_value(values)}")
    for key, value in history.extra.items():
        lines.append(f"{_key(key)} = {_value(value)}")
    return "\n".join(lines) + "\n"


def dumps_phhs(histories: Iterable[HandHistory]) -> str:
    """Several hands as one "phhs" text: tables `[1]`, `[2]`, ... (pokerkit's layout)."""
    return "\n".join(
        f"[{number}]\n{dumps_phh(history)}" for number, history in enumerate(histories, 1)
    )


_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
_ESCAPES = {
    '"': '\\"',
    "\\": "\\\\",
    "\b": "\\b",
    "\t": "\\t",
    "\n": "\\n",
    "\f": "\\f",
    "\r": "\\r",
}


def _key(key: str) -> str:
    return key if _BARE_KEY.fullmatch(key) else _string(key)


def _string(text: str) -> str:
    out = []
    for char in text:
        if char in _ESCAPES:
            out.append(_ESCAPES[char])
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            out.append(f"\\u{ord(char):04X}")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


def _value(value: Any) -> str:
    """A TOML value for anything `tomllib` reads back: strings, numbers, booleans, dates and
    times, arrays and (inline) tables."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, datetime.datetime | datetime.date | datetime.time):
        return value.isoformat()
    if isinstance(value, Mapping):
        pairs = ", ".join(f"{_key(str(k))} = {_value(v)}" for k, v in value.items())
        return "{" + pairs + "}" if pairs else "{}"
    if isinstance(value, Sequence):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    raise PhhError(f"{value!r} cannot be written as TOML.", code="bad_field")
