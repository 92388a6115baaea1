"""Reading and writing PHH hand histories (TOML), for the variants this engine plays.

PHH (the poker hand history format of pokerkit, https://phh.readthedocs.io) stores one hand as
TOML fields. We read `NT` (no-limit Texas hold'em), `FT` (fixed-limit Texas hold'em) and our own
code `PT` (pot-limit Texas hold'em: PHH has no code for it; it takes NT's fields). Fields are
checked strictly: a missing or mistyped field is an error (`bad_field`), never guessed.

A "phhs" file holds several hands as TOML tables (`[1]`, `[2]`, ...): `split_hands` tells the two
kinds apart by their content, not by the file name.

Amounts may have decimals (online histories write dollars and cents): a hand is scaled by the
power of ten that makes every amount whole, so the engine plays whole units (`scale`, below).
Writing scales back, so a file's own units come out again.

Reading uses `toml_lite` (a fast reader of the TOML subset PHH files are written in, `tomllib`
behind it); writing uses our own small TOML writer (the standard library only reads TOML).
"""

from __future__ import annotations

import datetime
import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal

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
# Fields that only check a result: one too fine for the hand's unit is not applied (`notes`).
CHECK_FIELDS = ("finishing_stacks", "winnings")
UNIT_FIELD = "_unit"  # our user-defined field: the chip unit, in the file's units, when not 1
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
        *CHECK_FIELDS,
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

    Amounts are whole units: the file's amounts times `scale`, the power of ten that makes every
    amount of the hand whole (1 for whole chips; 100 when amounts have cents, such as 0.50 and
    200.30). `actions` are kept as written, in the file's units. Heads-up, PHH writes `antes` and
    `blinds_or_straddles` as if p1 were the small blind and reverses them in play, so p1 posts
    the big blind (`effective_blinds` and `effective_antes` give what each player really posts).

    `finishing_stacks` and `winnings` only check a result. One that is finer than the hand's unit
    (a half chip from a site's split) is not applied: it stays as written in `extra` and `notes`
    says why.
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
    winnings: list[int] | None = None  # what each player won from the pot
    scale: int = 1  # amounts here = amounts in the file x scale
    notes: dict[str, str] = field(default_factory=dict)  # check fields not applied, and why
    extra: dict[str, object] = field(default_factory=dict)  # every other field, in file order

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

    def amount_text(self, units: int) -> str:
        """An amount of whole units in the file's units: 20030 -> "200.30" at scale 100."""
        return amount_text(units, self.scale)


def _heads_up_reversed(values: list[int]) -> list[int]:
    return list(reversed(values)) if len(values) == 2 else list(values)


# --- reading ---------------------------------------------------------------------------------


def load_toml(text: str) -> dict[str, object]:
    """TOML text as a dictionary (numbers with a fraction as `Decimal`, digits as written);
    `bad_toml` with the parser's own message when it is not TOML."""
    # Imported here: only the strict path reads TOML this way (the CLI's fast lane reads plain
    # files itself).
    from dealer.engine.phh import toml_lite

    try:
        return toml_lite.loads(text)
    except toml_lite.TomlError as error:
        raise PhhError(f"The file is not valid TOML: {error}.", code="bad_toml") from None


def split_hands(text: str) -> list[Mapping[str, object]]:
    """The hands of a PHH text: one for a plain .phh file, one per table for a "phhs" file.

    A text whose top level has a `variant` (or any plain value) is one hand. A text whose every
    top-level value is a table (`[1]`, `[2]`, ...) holds one hand per table, in file order.
    """
    document = load_toml(text)
    if not document:
        raise PhhError("The file holds no hand: the field 'variant' is missing.", code="bad_field")
    tables: list[Mapping[str, object]] = [v for v in document.values() if isinstance(v, dict)]
    if "variant" in document or len(tables) != len(document):
        return [document]
    return tables


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


def history_from_fields(fields: Mapping[str, object]) -> HandHistory:
    """Check one hand's TOML fields and build its `HandHistory` (amounts scaled, see there)."""
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
    stacks = _number_list(fields, "starting_stacks", None)
    count = len(stacks)
    if not 2 <= count <= MAX_PLAYERS:
        raise PhhError(
            f"The field 'starting_stacks' lists {count} players: a hand needs 2 to {MAX_PLAYERS}.",
            code="bad_field",
        )
    antes = _number_list(fields, "antes", count)
    blinds = _number_list(fields, "blinds_or_straddles", count)
    actions = _str_list(fields, "actions", None)
    for name in _ALL_BET_FIELDS:
        if name in fields and name not in _BET_FIELDS[variant]:
            raise PhhError(
                f"The field '{name}' is not a field of variant {variant} (it uses "
                f"{' and '.join(_BET_FIELDS[variant])}).",
                code="bad_field",
            )
    bets = {name: _required_number(fields, name) for name in _BET_FIELDS[variant]}
    unit = fields.get(UNIT_FIELD)
    unit_amounts = [] if unit is None else [_number(unit, UNIT_FIELD)]
    places = max(
        _places_of([*stacks, *antes, *blinds, *bets.values(), *unit_amounts]),
        action_places(actions),
    )
    scale = 10**places
    _at_least(stacks, "starting_stacks", positive=True)
    _at_least(antes, "antes", positive=False)
    _at_least(blinds, "blinds_or_straddles", positive=False)
    history = HandHistory(
        variant=variant,
        antes=_scaled(antes, scale),
        blinds_or_straddles=_scaled(blinds, scale),
        starting_stacks=_scaled(stacks, scale),
        actions=actions,
        scale=scale,
    )
    for name, value in bets.items():
        if value <= 0:
            raise PhhError(f"The field '{name}' must be positive.", code="bad_field")
        setattr(history, name, _scaled([value], scale)[0])
    if variant == "FT":
        assert history.small_bet is not None
        assert history.big_bet is not None
        if history.big_bet != 2 * history.small_bet:
            raise PhhError(
                f"The big bet ({bets['big_bet']}) must be twice the small bet "
                f"({bets['small_bet']}): this engine plays fixed limit that way (RULES.md 5.3).",
                code="bad_field",
            )
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
        seats = _number_list(fields, "seats", count)
        if any(type(s) is not int or s < 1 for s in seats):
            raise PhhError(
                "Every entry of 'seats' must be a positive whole number.", code="bad_field"
            )
        history.seats = [int(s) for s in seats]
    history.extra = {k: v for k, v in fields.items() if k not in _KNOWN_FIELDS}
    for name in CHECK_FIELDS:
        if name in fields:
            values = _number_list(fields, name, count)
            _at_least(values, name, positive=False)
            try:
                setattr(history, name, _scaled(values, scale, exact=False))
            except _TooFineError as too_fine:
                history.notes[name] = (
                    f"not applicable: {too_fine.value} is finer than the hand's unit "
                    f"({amount_text(1, scale)})"
                )
                history.extra[name] = fields[name]
    return history


class _TooFineError(Exception):
    def __init__(self, value: Decimal) -> None:
        self.value = value


def _number(value: object, name: str) -> int | Decimal:
    """An amount as read: an integer, or a finite `Decimal` (a float becomes its shortest
    decimal: 100.5 -> Decimal("100.5"))."""
    if isinstance(value, bool):
        raise PhhError(f"The field '{name}' must hold numbers, not {value!r}.", code="bad_field")
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        value = Decimal(repr(value)) if math.isfinite(value) else Decimal(value)
    if isinstance(value, Decimal):
        if not value.is_finite():
            raise PhhError(
                f"The field '{name}' holds {value}: an amount must be a finite number (an "
                "unknown stack, inf, cannot be played).",
                code="bad_field",
            )
        if value == value.to_integral_value():
            return int(value)  # 2.0 is 2 chips
        return value
    raise PhhError(f"The field '{name}' must hold numbers, not {value!r}.", code="bad_field")


def _places_of(values: Iterable[int | Decimal]) -> int:
    """Decimal places written in the amounts that are not whole ("0.50" -> 2); 0 when all are."""
    places = 0
    for value in values:
        if isinstance(value, Decimal):
            exponent = value.as_tuple().exponent
            assert isinstance(exponent, int)
            places = max(places, -exponent)
    return places


_CBR = re.compile(r"\bcbr[ \t]+([0-9]+)\.([0-9]+)(?![0-9])")


def action_places(actions: Iterable[str]) -> int:
    """Decimal places written in the `cbr` amounts that are not whole ("cbr 3.50" -> 2)."""
    places = 0
    for text in actions:
        if "." in text:
            for match in _CBR.finditer(text.split("#", 1)[0]):
                fraction = match.group(2)
                if fraction.strip("0"):
                    places = max(places, len(fraction))
    return places


def _scaled(values: Sequence[int | Decimal], scale: int, *, exact: bool = True) -> list[int]:
    """Amounts in whole units. Every amount that counts in play is whole by the choice of the
    scale; an amount that only checks a result may not be (`_TooFineError`)."""
    out = []
    for value in values:
        if not isinstance(value, Decimal):
            out.append(value * scale)
            continue
        units = value * scale
        if units != units.to_integral_value():
            assert not exact
            raise _TooFineError(value)
        out.append(int(units))
    return out


def _at_least(values: Sequence[int | Decimal], name: str, *, positive: bool) -> None:
    if any(v <= 0 if positive else v < 0 for v in values):
        what = "positive" if positive else "zero or more"
        raise PhhError(f"Every entry of '{name}' must be {what}.", code="bad_field")


def _required_number(fields: Mapping[str, object], name: str) -> int | Decimal:
    if name not in fields:
        raise PhhError(f"The field '{name}' is missing.", code="bad_field")
    return _number(fields[name], name)


def _list(fields: Mapping[str, object], name: str, count: int | None) -> list[object]:
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


def _number_list(fields: Mapping[str, object], name: str, count: int | None) -> list[int | Decimal]:
    return [_number(v, name) for v in _list(fields, name, count)]


def _str_list(fields: Mapping[str, object], name: str, count: int | None) -> list[str]:
    values = _list(fields, name, count)
    strings = [v for v in values if isinstance(v, str)]
    if len(strings) != len(values):
        raise PhhError(f"Every entry of '{name}' must be a string.", code="bad_field")
    return strings


def amount_text(units: int, scale: int) -> str:
    """Whole units in the file's units, with every decimal place of the scale when not whole:
    (20030, 100) -> "200.30", (50, 100) -> "0.50", (900, 100) -> "9", (7, 1) -> "7"."""
    if scale == 1:
        return str(units)
    whole, part = divmod(abs(units), scale)
    sign = "-" if units < 0 else ""
    if not part:
        return f"{sign}{whole}"
    return f"{sign}{whole}.{str(part).rjust(len(str(scale)) - 1, '0')}"


def amount_writer(scale: int) -> Callable[[int], str]:
    """`amount_text` for one scale, as a function of the units (for writing many amounts)."""
    if scale == 1:
        return str
    places = len(str(scale)) - 1

    def write(units: int) -> str:
        if units < 0:
            return "-" + write(-units)
        whole, part = divmod(units, scale)
        return f"{whole}.{str(part).rjust(places, '0')}" if part else str(whole)

    return write


# --- writing ---------------------------------------------------------------------------------


def dumps_phh(history: HandHistory) -> str:
    """One hand as PHH text: required fields first, one action per line, then the rest. Amounts
    are written in the file's units (`scale`): 20030 at scale 100 is 200.30."""
    scale = history.scale

    def amounts(values: Sequence[int]) -> str:
        return "[" + ", ".join(amount_text(v, scale) for v in values) + "]"

    lines = [f"variant = {_value(history.variant)}"]
    if history.ante_trimming_status is not None:
        lines.append(f"ante_trimming_status = {_value(history.ante_trimming_status)}")
    lines.append(f"antes = {amounts(history.antes)}")
    lines.append(f"blinds_or_straddles = {amounts(history.blinds_or_straddles)}")
    for name in ("min_bet", "small_bet", "big_bet"):
        amount = getattr(history, name)
        if amount is not None:
            lines.append(f"{name} = {amount_text(amount, scale)}")
    lines.append(f"starting_stacks = {amounts(history.starting_stacks)}")
    lines.append("actions = [")
    lines.extend(f"  {_value(action)}," for action in history.actions)
    lines.append("]")
    if history.players is not None:
        lines.append(f"players = {_value(history.players)}")
    if history.seats is not None:
        lines.append(f"seats = {_value(history.seats)}")
    for name in CHECK_FIELDS:
        values = getattr(history, name)
        if values is not None:
            lines.append(f"{name} = {amounts(values)}")
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


def _value(value: object) -> str:
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
    if isinstance(value, Decimal):
        if value.is_nan():
            return "nan"
        if value.is_infinite():
            return "inf" if value > 0 else "-inf"
        text = str(value)
        return text if any(c in text for c in ".eE") else text + ".0"
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
