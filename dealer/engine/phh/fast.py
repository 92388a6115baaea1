"""The fast lane of `python -m dealer.engine.phh replay`: plain no-limit hands read and played in
tens of microseconds each, everything else handed to the strict path.

The strict path (history.py, play.py) reads a hand's TOML into Python values, checks every field
and plays every action through the engine's `apply`: about 300 microseconds a hand. Replaying a
site's hand histories (thousands of hands of one kind: no-limit, cents, folds and a showdown now
and then) that way is slow, so the command line first tries this lane:

- `scan` reads a PHH text line by line with string methods, for the plain layout PHH files are
  written in (one `key = value` per line, `[n]` tables, number and string arrays), straight into
  whole units (no `Decimal`, no other Python value), and builds the `HandHistory` of each plain
  NT hand. It gives up on the file (None) or on a hand (None in its place) at the first thing it
  does not know for certain is valid TOML of that plain kind.
- `play` replays such a hand on plain integers with the engine's own rules for no-limit betting
  (hand.py, betting.py, showdown.py; `casino_cash`), and gives the same `HandResult` the strict
  path gives (play.py `outcome`). It gives up (None) on anything it does not handle itself:
  every action the engine would refuse, a muck, antes that are not all the same, the `_unit`
  field, partly known cards.

A hand the lane gives up on goes through the strict path, which decides: the lane never refuses
anything, and it never accepts what the strict path refuses. The tests replay every hand of the
bench corpus and of the samples both ways and require the same answer.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from dealer.engine.cards import Card, DeckKind, deck
from dealer.engine.phh.history import UNIT_FIELD, VARIANTS, HandHistory, action_places
from dealer.engine.phh.result import HandResult, UnknownPot, compare_checks
from dealer.engine.pots import side_pots, split_pot
from dealer.engine.ranking import Ranker
from dealer.engine.rules import Game, OddChip, Structure, make_rules

__all__ = ["play", "scan"]

# --- reading ----------------------------------------------------------------------------------

_KEY = re.compile(r"[A-Za-z0-9_-]+")
_TABLE = re.compile(r"\[([A-Za-z0-9_-]+)\]")
_NUMBER = r"(?:0|[1-9][0-9]*)(?:\.[0-9]+)?"
_NUMBERS = re.compile(rf"\[(?:{_NUMBER}(?:, {_NUMBER})*)?\]")
_NUMBER_ONE = re.compile(_NUMBER)
_LITERALS = re.compile(r"\[(?:'[^'\x00-\x1f\x7f]*'(?:, '[^'\x00-\x1f\x7f]*')*)?\]")
_BASICS = re.compile(r'\[(?:"[^"\\\x00-\x1f\x7f]*"(?:, "[^"\\\x00-\x1f\x7f]*")*,?)?\]')
# Any other field's value, as long as it is plainly valid TOML: a string, a whole number, a
# boolean, a local time, or an array of numbers or strings.
_OTHER = re.compile(
    r"'[^'\x00-\x1f\x7f]*'"
    r"|'''(?:[^'\x00-\x1f\x7f]|'(?!''))*[^'\x00-\x1f\x7f]'''"
    r'|"[^"\\\x00-\x1f\x7f]*"'
    r"|[+-]?(?:0|[1-9][0-9]*)"
    r"|true|false"
    r"|(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]"
    rf"|\[(?:{_NUMBER}(?:, {_NUMBER})*)?\]"
    r"|\[(?:'[^'\x00-\x1f\x7f]*'(?:, '[^'\x00-\x1f\x7f]*')*)?\]"
    r'|\[(?:"[^"\\\x00-\x1f\x7f]*"(?:, "[^"\\\x00-\x1f\x7f]*")*)?\]'
)
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
_REFUSED_FIELDS = frozenset({"small_bet", "big_bet", "bring_in", "_unit"})


def scan(text: str) -> list[HandHistory | None] | None:
    """The hands of a PHH text, each a `HandHistory` when it is a plain NT hand (None in its
    place otherwise); None when the text is not in the plain layout at all."""
    # A control character (a carriage return too) makes a value, a key or a table line fail its
    # pattern below; only comments are not matched, so they are checked for one.
    lines = iter(text.split("\n"))
    hands: list[dict[str, str]] = []
    names: set[str] = set()
    fields: dict[str, str] | None = None
    keys: set[str] = set()  # the keys seen valid so far
    top = False  # a hand at the top level (a .phh file), not in tables
    for line in lines:
        if not line:
            continue
        first = line[0]
        if first == "#":
            if _CONTROL.search(line):
                return None
            continue
        if first == "[":
            match = _TABLE.fullmatch(line)
            if match is None or top or match.group(1) in names:
                return None
            names.add(match.group(1))
            fields = {}
            hands.append(fields)
            continue
        key, equals, value = line.partition(" = ")
        if not equals:
            return None
        if key not in keys:
            if _KEY.fullmatch(key) is None:
                return None
            keys.add(key)
        if value == "[":  # one item per line, as our writer puts `actions`
            items = []
            for item in lines:
                if item == "]":
                    break
                if not item.startswith("  ") or not item.endswith(","):
                    return None
                items.append(item[2:])
            else:
                return None
            value = "[" + " ".join(items) + "]"
        if fields is None:
            top = True
            fields = {}
            hands.append(fields)
        if key in fields:
            return None
        fields[key] = value
    checked = _Checked()
    return [_history(fields, checked) for fields in hands]


class _Checked:
    """The values one scan has checked already, so that those repeated from hand to hand (the
    antes, the blinds, the players, the seats, the venue...) are checked once. An array of
    numbers: its item count (0 when it is not a plain array of numbers) and the decimal places
    written; players or seats: the item count (0 when not valid); another field's value is in
    `others` once found valid."""

    __slots__ = ("names", "numbers", "others", "seats")

    def __init__(self) -> None:
        self.numbers: dict[str, tuple[int, int]] = {}
        self.names: dict[str, int] = {}
        self.seats: dict[str, int] = {}
        self.others: set[str] = set()

    def number_array(self, text: str) -> tuple[int, int]:
        known = self.numbers.get(text)
        if known is None:
            if _NUMBERS.fullmatch(text) is None:
                known = (0, 0)
            else:
                known = (text.count(",") + 1, _places(text))
            self.numbers[text] = known
        return known


def _places(text: str) -> int:
    """The decimal places written in the amounts of a text that are not whole."""
    if "." not in text:
        return 0
    return max(map(len, _FRACTION.findall(text)), default=0)


def _history(fields: dict[str, str], checked: _Checked) -> HandHistory | None:
    """A plain NT hand's `HandHistory` from its raw values, or None."""
    if fields.get("variant") not in ("'NT'", '"NT"'):
        return None
    stacks_text = fields.get("starting_stacks")
    antes_text = fields.get("antes")
    blinds_text = fields.get("blinds_or_straddles")
    min_bet = fields.get("min_bet")
    if (
        stacks_text is None
        or antes_text is None
        or blinds_text is None
        or min_bet is None
        or _NUMBER_ONE.fullmatch(min_bet) is None
    ):
        return None
    count, places = checked.number_array(stacks_text)
    antes_count, antes_places = checked.number_array(antes_text)
    blinds_count, blinds_places = checked.number_array(blinds_text)
    if not 2 <= count <= 10 or antes_count != count or blinds_count != count:
        return None
    actions_text = fields.get("actions")
    actions = None if actions_text is None else _strings(actions_text)
    if actions_text is None or actions is None:
        return None
    places = max(places, antes_places, blinds_places, _places(min_bet))
    if "." in actions_text:
        places = max(places, action_places(actions))
    scale = 10**places
    stacks = _units(stacks_text[1:-1].split(", "), scale)
    bet = _units([min_bet], scale)[0]
    if not bet or 0 in stacks:
        return None
    valid = checked.others
    for key in fields.keys() - _KNOWN:
        value = fields[key]
        if value in valid:
            continue
        if key in _REFUSED_FIELDS or _OTHER.fullmatch(value) is None:
            return None
        valid.add(value)
    history = HandHistory(
        variant="NT",
        antes=_units(antes_text[1:-1].split(", "), scale),
        blinds_or_straddles=_units(blinds_text[1:-1].split(", "), scale),
        starting_stacks=stacks,
        actions=actions,
        min_bet=bet,
        scale=scale,
    )
    status = fields.get("ante_trimming_status")
    if status is not None:
        if status not in ("true", "false"):
            return None
        history.ante_trimming_status = status == "true"
    players = fields.get("players")  # checked as the strict path checks them, but not kept:
    if players is not None:  # the replay does not need names or seat numbers
        known = checked.names.get(players)
        if known is None:
            names = _strings(players)
            known = checked.names[players] = 0 if names is None else len(names)
        if known != count:
            return None
    seats = fields.get("seats")
    if seats is not None:
        known = checked.seats.get(seats)
        if known is None:
            ok = _SEATS.fullmatch(seats) is not None
            known = checked.seats[seats] = seats.count(",") + 1 if ok else 0
        if known != count:
            return None
    for name in ("finishing_stacks", "winnings"):
        text = fields.get(name)
        if text is None:
            continue
        text_count, text_places = checked.number_array(text)
        if text_count != count:
            return None
        if text_places > places:
            return None  # finer than the unit: the strict path writes the note
        setattr(history, name, _units(text[1:-1].split(", "), scale))
    return history


_KNOWN = frozenset(
    {
        "variant",
        "ante_trimming_status",
        "min_bet",
        "actions",
        "players",
        "seats",
        "finishing_stacks",
        "winnings",
        "antes",
        "blinds_or_straddles",
        "starting_stacks",
    }
)
# The decimal places of an amount that is not whole, as written ("0.50" -> "50"; "8.00": none).
_FRACTION = re.compile(r"\.([0-9]*[1-9][0-9]*)")
_SEATS = re.compile(r"\[[1-9][0-9]*(?:, [1-9][0-9]*)*\]")


def _strings(value: str | None) -> list[str] | None:
    if value is None:
        return None
    if _LITERALS.fullmatch(value) is not None:
        return value.split("'")[1::2]
    if _BASICS.fullmatch(value) is not None:
        return value.split('"')[1::2]
    return None


_UNITS: dict[int, dict[str, int]] = {}  # scale -> plain amount -> whole units (a memo)


def _units(words: list[str], scale: int) -> list[int]:
    """Plain amounts (with no more places than the scale has, or only zeros beyond) in whole
    units."""
    known = _UNITS.get(scale)
    if known is None:
        known = _UNITS[scale] = {}
    out: list[int | None] = list(map(known.get, words))
    if None in out:
        places = len(str(scale)) - 1
        for i, word in enumerate(words):
            if out[i] is None:
                whole, _, fraction = word.partition(".")
                out[i] = known[word] = int(whole + fraction[:places].ljust(places, "0"))
    return out  # type: ignore[return-value]  # every None replaced


# --- playing ----------------------------------------------------------------------------------

_CARDS: dict[str, Card] = {str(card): card for card in deck(DeckKind.STANDARD)}
_PLAYERS = {f"p{i}": i - 1 for i in range(1, 11)}
_BOARD_SIZES = (3, 1, 1)
_BET, _DEAL, _SHOWDOWN, _OVER = range(4)
_RANKER: list[Ranker | None] = []  # filled on first use: [the ranker], or [None] when shut


def _ranker() -> Ranker | None:
    """The hand ranker of the rules NT hands are played under, or None when those rules are not
    the ones this lane was written for: it checks the few options it relies on, once, and stays
    shut if they differ."""
    if not _RANKER:
        rules = make_rules("casino_cash", {"structure": VARIANTS["NT"]})
        same = (
            rules.structure is Structure.NO_LIMIT
            and rules.game is Game.HOLDEM
            and not rules.bb_ante
            and rules.odd_chip is OddChip.LEFT_OF_BUTTON
            and not rules.table_all_in
        )
        # game.py's `ranker_for` for hold'em, built here: game.py imports the engine's state
        # machine, which the lane does not need (start-up time).
        ranker = Ranker(
            deck=DeckKind.STANDARD,
            flush_beats_full_house=rules.sixplus_flush_beats_full_house,
            trips_beat_straight=rules.sixplus_trips_beat_straight,
        )
        _RANKER.append(ranker if same else None)
    return _RANKER[0]


def _orders(count: int) -> tuple[tuple[int, ...], ...]:
    """For each start 0..count, the players in turn from it (the player after the last is the
    first): the order `advance` goes round the table in, without a modulo per step."""
    return tuple(
        tuple((start + step) % count for step in range(count)) for start in range(count + 1)
    )


_ORDERS: dict[int, tuple[tuple[int, ...], ...]] = {}  # player count -> _orders(count)


class _GiveUpError(Exception):
    """Not for this lane: the strict path decides."""


def play(history: HandHistory) -> HandResult | None:
    """The hand's `HandResult`, as play.py's `outcome` gives it, or None when the strict path
    must decide (see the module docstring)."""
    if history.variant != "NT":
        return None
    ranker = _ranker()
    if ranker is None:
        return None
    try:
        return _play(history, ranker)
    except _GiveUpError:
        return None


def _play(history: HandHistory, ranker: Ranker) -> HandResult:
    """One no-limit hand on plain integers, step for step as the engine plays it: start_hand,
    _apply_betting, _advance, _open_round, _close_round and _deal_board (hand.py), the show and
    the award (showdown.py). Any step the engine could refuse gives up."""
    count = len(history.starting_stacks)
    starting = history.starting_stacks
    blinds = history.blinds_or_straddles
    antes = history.antes
    if count == 2:  # heads-up, PHH reverses them: p1 posts the big blind
        blinds = blinds[::-1]
        antes = antes[::-1]
    ante = antes[0]
    if antes.count(ante) != count or UNIT_FIELD in history.extra:
        raise _GiveUpError  # antes of some players only, or a chip unit: the strict path
    big = history.min_bet
    assert big is not None
    places = len(str(history.scale)) - 1
    stacks: list[int] = []
    bets: list[int] = []
    contributed: list[int] = []
    for i in range(count):  # start_hand: the antes first, then the blinds
        stack = starting[i]
        paid = ante if ante < stack else stack
        stack -= paid
        posted = blinds[i] if blinds[i] < stack else stack
        stacks.append(stack - posted)
        bets.append(posted)
        contributed.append(paid + posted)
    folded = [False] * count
    acted = [-1] * count
    holes: list[tuple[str, ...] | None] = [None] * count  # the hole cards' names, once known
    shown: list[tuple[Card, ...] | None] = [None] * count
    back = [0] * count
    won = [0] * count
    board: list[Card] = []
    used: set[str] = set()  # the names of every card dealt or shown so far, all different
    unknown: set[int] = set()
    high = max(blinds)
    last_full_raise = big if big > high else high
    street = 0
    phase = _BET
    actor = -1
    alive = count
    order = _ORDERS.get(count)
    if order is None:
        order = _ORDERS[count] = _orders(count)

    def open_round(first: int) -> None:
        nonlocal phase, actor
        totals = [-1 if folded[j] else bets[j] + stacks[j] for j in range(count)]
        top = max(totals)
        top_at = totals.index(top)
        totals[top_at] = -1
        second = max(totals)
        deciders = 0
        last = -1
        for i in range(count):
            if folded[i] or not stacks[i]:
                continue
            if (second if i == top_at else top) <= bets[i]:
                acted[i] = high  # nobody left can bet more than this player has in
            else:
                deciders += 1
                last = i
        phase = _BET
        actor = -1
        if not deciders or (deciders == 1 and bets[last] >= high):
            close_round()
        else:
            advance(first)

    def advance(start: int) -> None:
        nonlocal actor
        if alive > 1:
            for i in order[start]:
                if not folded[i] and stacks[i] and (acted[i] < 0 or bets[i] < high):
                    actor = i
                    return
        close_round()

    def close_round() -> None:
        nonlocal actor, phase
        actor = -1
        most = max(bets)
        top = bets.index(most)
        bets[top] = -1
        excess = most - max(bets)
        bets[top] = most
        if excess > 0:  # the uncalled part of the last bet goes back
            stacks[top] += excess
            bets[top] = most - excess
            contributed[top] -= excess
            back[top] += excess
        if alive <= 1:
            winner = folded.index(False)
            amount = sum(contributed)
            stacks[winner] += amount
            won[winner] += amount
            phase = _OVER
        elif street == 3:
            begin_showdown()
        else:
            phase = _DEAL

    def begin_showdown() -> None:
        nonlocal phase, actor
        phase = _SHOWDOWN
        actor = -1
        settle()

    def settle() -> None:
        nonlocal phase
        if any(shown[i] is None for i in range(count) if not folded[i]):
            return
        values: dict[int, int] = {}
        for pot in reversed(side_pots(contributed, folded, all_in())):
            winners: Sequence[int] = pot.eligible
            if len(winners) > 1:
                for i in winners:
                    if i not in values:
                        values[i] = ranker.value([*shown[i], *board])  # type: ignore[misc]
                best = max(values[i] for i in winners)
                winners = [i for i in winners if values[i] == best]
            for player, share in split_pot(pot.amount, sorted(winners), 1).items():
                stacks[player] += share
                won[player] += share
        phase = _OVER

    def all_in() -> list[bool]:
        return [not stacks[i] and not folded[i] for i in range(count)]

    def betting_finished() -> bool:
        if phase == _SHOWDOWN:
            return True
        return phase == _DEAL and sum(1 for i in range(count) if stacks[i] and not folded[i]) <= 1

    # preflop: left of the largest blind or straddle posted (play.py `phh_bring_in`)
    bring_in = 0
    most = -1
    for i in range(count):
        posted = 0
        if blinds[i]:
            left = starting[i] - antes[i]
            posted = blinds[i] if blinds[i] < left else max(0, left)
        if posted >= most:
            most = posted
            bring_in = i
    open_round((bring_in + 1) % count)

    parsed = _PARSED.get(places)
    if parsed is None:
        parsed = _PARSED[places] = {}
    for text in history.actions:
        action = parsed.get(text)
        if action is None:
            action = _parse(text, places)
            if len(parsed) < _MEMO_SIZE:
                parsed[text] = action
        kind, player, amount, cards, names = action
        if player >= count:
            raise _GiveUpError
        if kind == _HIDDEN:  # unknown hole cards: nothing to record
            if phase == _OVER:
                raise _GiveUpError
            continue
        if kind == _FOLD:
            if phase != _BET or player != actor:
                raise _GiveUpError
            folded[player] = True
            alive -= 1
            advance(player + 1)
        elif kind == _CALL:
            if phase != _BET or player != actor:
                raise _GiveUpError
            owed = high - bets[player]
            acted[player] = high if owed > 0 else bets[player]
            if owed > 0:
                paid = owed if owed < stacks[player] else stacks[player]
                stacks[player] -= paid
                bets[player] += paid
                contributed[player] += paid
            advance(player + 1)
        elif kind == _RAISE:
            if phase != _BET or player != actor:
                raise _GiveUpError
            stack = stacks[player]
            if stack <= high - bets[player]:
                raise _GiveUpError  # only enough to call
            if acted[player] >= 0 and high - acted[player] < last_full_raise:
                raise _GiveUpError  # not reopened (T 47)
            all_in_to = bets[player] + stack
            least = high + last_full_raise
            if amount > all_in_to or amount < (least if least < all_in_to else all_in_to):
                raise _GiveUpError
            if not any(
                i != player and not folded[i] and bets[i] + stacks[i] > high for i in range(count)
            ):
                raise _GiveUpError  # nobody left to call a raise
            if amount - high >= last_full_raise:
                last_full_raise = amount - high
            paid = amount - bets[player]
            stacks[player] -= paid
            bets[player] = amount
            contributed[player] += paid
            high = amount
            acted[player] = amount
            advance(player + 1)
        elif kind == _BOARD:
            assert cards is not None
            assert names is not None
            if phase != _DEAL or len(cards) != _BOARD_SIZES[street]:
                raise _GiveUpError
            if not used.isdisjoint(names):
                raise _GiveUpError
            board.extend(cards)
            used.update(names)
            street += 1
            bets = [0] * count
            high = 0
            last_full_raise = big
            acted = [-1] * count
            if street == 3 and sum(1 for i in range(count) if stacks[i] and not folded[i]) < 2:
                begin_showdown()
            else:
                open_round(0)
        elif kind == _HOLE:
            assert names is not None
            if phase == _OVER or holes[player] is not None:
                raise _GiveUpError
            if not used.isdisjoint(names):
                raise _GiveUpError
            holes[player] = names
            used.update(names)
        else:  # _SHOW: cards, or None when unknown (`????`)
            if phase == _OVER:  # the pots are paid: a show changes nothing
                if folded[player] or shown[player] is not None:
                    raise _GiveUpError
            elif not betting_finished() or folded[player] or shown[player] is not None:
                raise _GiveUpError
            if cards is None:
                if phase != _OVER:
                    unknown.add(player)
                continue
            assert names is not None
            known = holes[player]
            if known is None:
                if not used.isdisjoint(names):
                    raise _GiveUpError
            elif known != names:
                raise _GiveUpError  # the engine compares them place by place
            if phase == _OVER:
                continue
            shown[player] = cards
            if known is None:
                holes[player] = names
                used.update(names)
            unknown.discard(player)
            if phase == _SHOWDOWN:
                settle()

    notes = dict(history.notes)
    if phase == _OVER:
        compare_checks(history, stacks, won, back, notes)
        return HandResult(status="complete", stacks=tuple(stacks), won=tuple(won), notes=notes)
    live = [i for i in range(count) if not folded[i] and shown[i] is None]
    if phase == _SHOWDOWN and live and all(i in unknown for i in live):
        pots = tuple(
            UnknownPot(
                amount=pot.amount,
                contenders=pot.eligible,
                unknown=tuple(i for i in pot.eligible if i in unknown),
            )
            for pot in side_pots(contributed, folded, all_in())
        )
        for name in ("finishing_stacks", "winnings"):
            if getattr(history, name) is not None:
                notes[name] = "not applicable: the winner is unknown"
        return HandResult(status="winner_unknown", stacks=tuple(stacks), pots=pots, notes=notes)
    raise _GiveUpError  # it stops early: the strict path says what is due


_HIDDEN, _FOLD, _CALL, _RAISE, _BOARD, _HOLE, _SHOW = range(7)
_MEMO_SIZE = 100_000
# An action read: (kind, player or -1, amount, cards, their names), cards and names None when
# the action has no cards or they are unknown.
_Action = tuple[int, int, int, tuple[Card, ...] | None, tuple[str, ...] | None]
# places -> action text -> the action read: actions repeat from hand to hand
_PARSED: dict[int, dict[str, _Action]] = {}


def _parse(text: str, places: int) -> _Action:
    """One action, as play.py's `parse_action` reads it (or give up)."""
    if "#" in text:
        raise _GiveUpError
    words = text.split()
    size = len(words)
    if size == 4 and words[0] == "d" and words[1] == "dh":
        player = _PLAYERS.get(words[2])
        if player is None:
            raise _GiveUpError
        if words[3] == "????":
            return (_HIDDEN, player, 0, None, None)
        return (_HOLE, player, 0, *_cards(words[3], 2))
    if size == 3 and words[0] == "d" and words[1] == "db" and 2 <= len(words[2]) <= 6:
        return (_BOARD, -1, 0, *_cards(words[2], len(words[2]) // 2))
    player = _PLAYERS.get(words[0]) if size >= 2 else None
    if player is None:
        raise _GiveUpError
    verb = words[1]
    if size == 2 and verb == "f":
        return (_FOLD, player, 0, None, None)
    if size == 2 and verb == "cc":
        return (_CALL, player, 0, None, None)
    if size == 3 and verb == "cbr":
        return (_RAISE, player, _amount(words[2], places), None, None)
    if size == 3 and verb == "sm":
        if words[2] == "????":
            return (_SHOW, player, 0, None, None)
        return (_SHOW, player, 0, *_cards(words[2], 2))
    raise _GiveUpError  # a muck, `sm -`, or anything else: the strict path


def _cards(text: str, count: int) -> tuple[tuple[Card, ...], tuple[str, ...]]:
    """The cards written, and their names (which hash faster than cards)."""
    if len(text) != 2 * count:
        raise _GiveUpError
    names = tuple(text[i : i + 2] for i in range(0, 2 * count, 2))
    try:
        cards = tuple(_CARDS[name] for name in names)
    except KeyError:
        raise _GiveUpError from None
    if len(set(names)) != count:
        raise _GiveUpError
    return cards, names


def _amount(word: str, places: int) -> int:
    """A `cbr` amount in whole units, as play.py's `amount_units` reads it (or give up)."""
    dot = word.find(".")
    if dot < 0:
        if not word.isdigit() or not word.isascii():
            raise _GiveUpError
        return int(word + "0" * places)
    whole, fraction = word[:dot], word[dot + 1 :]
    if not whole.isdigit() or not whole.isascii() or not (fraction.isdigit() or not fraction):
        raise _GiveUpError
    if not fraction.isascii():
        raise _GiveUpError
    fraction = fraction.rstrip("0")
    if len(fraction) > places:
        raise _GiveUpError
    return int(whole + fraction + "0" * (places - len(fraction)))
