"""Playing a PHH hand through the engine, and writing a hand the engine played as PHH.

Import is strict: every action is applied with `apply`, so an illegal action raises the engine's
`RuleViolation` (its code, and its sentence prefixed with the action), and a history that stops
early is `hand_incomplete` in `verify`. Nothing is repaired or guessed. See docs/phh.md.

Mapping of PHH actions (players are `pN`, N = our index + 1):
- `d dh pN CARDS` deals hole cards (`????` = unknown), `d db CARDS` the next board cards;
- `pN f` folds, `pN cc` checks or calls (whichever is due), `pN cbr X` bets X when nothing is bet
  on this street (`state.high == 0`) and raises to X otherwise (X is the street total);
- `pN sm CARDS` shows, `pN sm -` shows the cards dealt, `pN sm` mucks. A show with an unknown card
  (`pN sm ????`) is a hand tabled face up whose cards the history does not know: nothing happens
  in the engine, the player is remembered as "tabled, unknown", and a later `pN sm CARDS` (an
  all-in player's cards, revealed at the end) shows the cards. A hand that ends with an unknown
  tabled hand still contesting a pot has no known winner: its result is `winner_unknown`, not an
  award (`outcome`). Once the pots are awarded, a `sm` by a player still in the hand (a winner
  showing after everyone folded, or the last live hand pokerkit asks to show) changes nothing.
- `d dh pN ????` for a player dealt no known card is a no-op: unknown cards say nothing.

Amounts are whole units: a `cbr` amount in the file's units times the hand's `scale` (history.py).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal

from dealer.engine.actions import (
    LEDGER_KINDS,
    Action,
    Kind,
    bet,
    call,
    check,
    deal_board,
    deal_hole,
    fold,
    muck,
    raise_to,
    show,
)
from dealer.engine.betting import legal_actions
from dealer.engine.cards import Card, CardError, format_cards, parse_cards_unknown
from dealer.engine.errors import EngineError, RuleViolation
from dealer.engine.game import check_cards_fit, seen_cards
from dealer.engine.hand import apply, start_hand
from dealer.engine.phh.history import (
    CODES,
    UNIT_FIELD,
    HandHistory,
    PhhError,
    amount_text,
    dumps_phh,
)
from dealer.engine.phh.result import (  # re-exported: play.py's public names before result.py
    HandResult as HandResult,
)
from dealer.engine.phh.result import (
    UnknownPot as UnknownPot,
)
from dealer.engine.phh.result import (
    compare_checks as compare_checks,
)
from dealer.engine.pots import side_pots
from dealer.engine.rules import Game, Rules, make_rules
from dealer.engine.setup import HandSetup, PlayerSetup
from dealer.engine.showdown import betting_finished, showdown_order
from dealer.engine.state import STREET_NAMES, HandState, Phase, replace_at


class ReplayError(PhhError):
    """An action of the history that cannot be applied. `number` counts actions from 1."""

    def __init__(self, detail: str, *, code: str, number: int, action: str) -> None:
        super().__init__(detail, code=code)
        self.number = number
        self.action = action


@dataclass(frozen=True, slots=True, kw_only=True)
class PhhAction:
    """One parsed PHH action. `player` is our index (None for a board deal).

    For `sm`, `cards` is None for a muck, () for `-` (the cards dealt) and the cards otherwise.
    """

    text: str  # the action without its commentary, single-spaced
    verb: str  # "dh", "db", "f", "cc", "cbr" or "sm"
    player: int | None = None
    amount: int | None = None
    cards: tuple[Card | None, ...] | None = None


_PLAYER = re.compile(r"p([1-9][0-9]*)")
_AMOUNT = re.compile(r"([0-9]+)(?:\.([0-9]*))?")
_UNSUPPORTED = {"pb": "posting a bring-in (stud)", "sd": "standing pat or discarding (draw)"}


def parse_action(text: str, player_count: int, scale: int = 1) -> PhhAction | None:
    """Parse one PHH action; None for a no-op (empty, or only a `# commentary`). A `cbr` amount
    is read in the file's units and given in whole units of the hand (`scale`, a power of ten)."""
    words = text.split("#", 1)[0].split()
    if not words:
        return None
    shown = " ".join(words)
    if words[0] == "d":
        if len(words) == 3 and words[1] == "db":
            return PhhAction(text=shown, verb="db", cards=_cards(words[2]))
        if len(words) == 4 and words[1] == "dh":
            player = _player(words[2], player_count)
            return PhhAction(text=shown, verb="dh", player=player, cards=_cards(words[3]))
        raise PhhError("A dealer action is 'd dh pN CARDS' or 'd db CARDS'.", code="bad_action")
    player = _player(words[0], player_count)
    verb, args = (words[1], words[2:]) if len(words) > 1 else ("", [])
    if verb in ("f", "cc") and not args:
        return PhhAction(text=shown, verb=verb, player=player)
    if verb == "cbr" and len(args) == 1:
        return PhhAction(text=shown, verb="cbr", player=player, amount=amount_units(args[0], scale))
    if verb == "sm" and len(args) <= 1:
        cards: tuple[Card | None, ...] | None = None
        if args:
            cards = () if args[0] == "-" else _cards(args[0])
            if cards and len(cards) != 2:
                raise PhhError("A hold'em hand shows its two hole cards.", code="bad_action")
        return PhhAction(text=shown, verb="sm", player=player, cards=cards)
    if verb in _UNSUPPORTED:
        raise PhhError(
            f"'{verb}' ({_UNSUPPORTED[verb]}) is not an action of Texas hold'em.",
            code="unsupported_action",
        )
    raise PhhError(
        "An action is 'pN f', 'pN cc', 'pN cbr AMOUNT', 'pN sm [CARDS|-]', 'd dh pN CARDS' or "
        "'d db CARDS'.",
        code="bad_action",
    )


def amount_units(word: str, scale: int = 1) -> int:
    """A `cbr` amount written in the file's units, in whole units of the hand: ("3.50", 100) ->
    350. `bad_action` when it is not a plain amount or is finer than one unit."""
    match = _AMOUNT.fullmatch(word)
    if match is None:
        raise PhhError(f"'{word}' is not an amount.", code="bad_action")
    whole, fraction = match.group(1), (match.group(2) or "").rstrip("0")
    places = len(str(scale)) - 1
    if len(fraction) > places:
        unit = amount_text(1, scale)
        raise PhhError(
            f"'{word}' is finer than the hand's unit ({unit}): amounts are whole units.",
            code="bad_action",
        )
    return int(whole) * scale + (int(fraction) * 10 ** (places - len(fraction)) if fraction else 0)


def _player(word: str, count: int) -> int:
    match = _PLAYER.fullmatch(word)
    if match is None:
        raise PhhError(f"'{word}' is not a player: write p1 to p{count}.", code="bad_action")
    number = int(match.group(1))
    if number > count:
        raise PhhError(f"There is no {word} in a {count}-player hand.", code="bad_action")
    return number - 1


def _cards(word: str) -> tuple[Card | None, ...]:
    try:
        return parse_cards_unknown(word)
    except CardError as error:
        raise PhhError(error.message, code=error.code) from None


# --- import ----------------------------------------------------------------------------------


def default_rules(history: HandHistory) -> Rules:
    """The rules a PHH hand is played under unless told otherwise: `casino_cash` with the
    variant's betting structure."""
    return make_rules("casino_cash", {"structure": history.structure})


def history_to_setup(history: HandHistory, rules: Rules | None = None) -> HandSetup:
    """The engine set-up for a PHH hand (players in PHH order; the last one has the button).

    Each player's blind or straddle and ante come from the file (heads-up reversed, so p1 posts
    the big blind). `min_bet` (NT, PT) is our big blind and minimum bet; FT's `small_bet` is our
    small bet (the big bet is twice it) and stands for the big blind. Preflop action starts left
    of the largest blind or straddle posted (the later player on a tie), as in pokerkit.
    """
    if rules is None:
        rules = default_rules(history)
    elif rules.structure != history.structure or rules.game is not Game.HOLDEM:
        raise PhhError(
            f"Variant {history.variant} is {history.structure} Texas hold'em; the rules given "
            f"are {rules.structure} {rules.game}.",
            code="rules_mismatch",
        )
    count = history.player_count
    blinds = history.effective_blinds
    antes = history.effective_antes
    big = history.min_bet if history.min_bet is not None else history.small_bet
    assert big is not None  # history_from_fields requires one of them
    positive = [b for b in blinds if 0 < b <= big]
    players = tuple(
        PlayerSetup(
            stack=history.starting_stacks[i],
            seat=history.seats[i] if history.seats else i + 1,
            name=history.players[i] if history.players else f"p{i + 1}",
            blind=blinds[i],
            ante=antes[i],
        )
        for i in range(count)
    )
    return HandSetup(
        rules=rules,
        players=players,
        small_blind=min(positive, default=0),
        big_blind=big,
        small_bet=history.small_bet or big,
        unit=_unit(history),
        button_index=count - 1,
        bring_in_index=phh_bring_in(blinds, antes, history.starting_stacks),
    )


def _unit(history: HandHistory) -> int:
    """The chip unit in whole units of the hand: one unit (one cent at scale 100) unless the
    `_unit` field gives it, in the file's units."""
    if UNIT_FIELD not in history.extra:
        return 1
    raw: object = history.extra[UNIT_FIELD]
    bad = PhhError(
        f"The field '{UNIT_FIELD}' must be a positive amount, a whole number of the hand's "
        f"units ({amount_text(1, history.scale)}).",
        code="bad_field",
    )
    if isinstance(raw, bool) or not isinstance(raw, int | float | Decimal):
        raise bad
    units = Decimal(repr(raw)) if isinstance(raw, float) else Decimal(raw)
    if not units.is_finite():
        raise bad
    units *= history.scale
    if units < 1 or units != units.to_integral_value():
        raise bad
    return int(units)


def phh_bring_in(blinds: Sequence[int], antes: Sequence[int], stacks: Sequence[int]) -> int:
    """The player preflop action starts after: the largest blind or straddle actually posted
    (after the ante), the later player on a tie; the button when nobody posts a blind."""

    def posted(i: int) -> int:
        return min(blinds[i], max(0, stacks[i] - antes[i])) if blinds[i] > 0 else 0

    return max(range(len(blinds)), key=lambda i: (posted(i), i))


def apply_action(state: HandState, action: PhhAction, unknown: set[int] | None = None) -> HandState:
    """Apply one parsed PHH action with the engine (see the module docstring for the mapping).
    `unknown` collects the players whose hand is tabled with unknown cards (`sm ????`)."""
    player = action.player
    if action.verb == "db":
        assert action.cards is not None
        return apply(state, deal_board(action.cards))
    assert player is not None
    if action.verb == "dh":
        assert action.cards is not None
        if _unknown_deal(state, action.cards):
            return state
        return apply(state, deal_hole(player, action.cards))
    if action.verb == "f":
        return apply(state, fold(player))
    if action.verb == "cc":
        owed = state.actor is not None and state.high > state.bets[state.actor]
        return apply(state, call(player) if owed else check(player))
    if action.verb == "cbr":
        assert action.amount is not None
        chosen = bet if state.high == 0 else raise_to
        return apply(state, chosen(action.amount, player))
    return _show_or_muck(state, player, action.cards, unknown)


def _unknown_deal(state: HandState, cards: tuple[Card | None, ...]) -> bool:
    """Two unknown hole cards dealt during the hand: nothing to record (a no-op)."""
    return len(cards) == 2 and cards[0] is None and cards[1] is None and not state.is_over


def _show_or_muck(
    state: HandState,
    player: int,
    cards: tuple[Card | None, ...] | None,
    unknown: set[int] | None,
) -> HandState:
    if cards == ():
        cards = state.holes[player] or (None, None)
    if cards is not None:
        _check_shown_cards(state, player, cards)
    if state.is_over:
        if _still_in(state, player):
            return state  # the pots are paid: a show now changes nothing
        return apply(state, muck(player))  # the engine says why not (the hand is over)
    if cards is None:
        return apply(state, muck(player))
    if None in cards:
        _check_may_table(state, player)
        if unknown is not None:
            unknown.add(player)
        return state
    if unknown is not None:
        unknown.discard(player)
    return apply(state, show(player, cards))


def _still_in(state: HandState, player: int) -> bool:
    """In the hand and neither shown nor mucked (nor playing the board)."""
    return not (
        state.folded[player]
        or state.mucked[player]
        or state.claims[player]
        or state.shown[player] is not None
    )


def _check_may_table(state: HandState, player: int) -> None:
    """What the engine asks of a show, for a hand tabled with cards the history does not know."""
    if not betting_finished(state):
        raise RuleViolation("Hands are shown once the betting is over.", code="not_showdown")
    name = state.seat_name(player).capitalize()
    if state.folded[player]:
        raise RuleViolation(f"{name} is not in the hand.", code="not_in_hand")
    if not _still_in(state, player):
        raise RuleViolation(f"{name} has already shown or mucked.", code="already_resolved")


def _check_shown_cards(state: HandState, player: int, cards: tuple[Card | None, ...]) -> None:
    known = state.holes[player]
    if known is not None and any(
        k is not None and c is not None and k != c for k, c in zip(known, cards, strict=True)
    ):
        raise RuleViolation(
            f"Player {player + 1}'s shown cards differ from the cards dealt.", code="cards_conflict"
        )
    others = dataclasses.replace(state, holes=replace_at(state.holes, player, None))
    check_cards_fit(state.setup.rules, cards, seen_cards(others))


def replay(history: HandHistory, rules: Rules | None = None) -> HandState:
    """Apply every action of the history, strictly, and return the state reached (which may be
    mid-hand: see `verify`). Raises `ReplayError` for the first action that cannot be applied."""
    return _run(history, rules)[0]


def _run(history: HandHistory, rules: Rules | None) -> tuple[HandState, frozenset[int]]:
    return _play(history, rules)[:2]


def _play(history: HandHistory, rules: Rules | None) -> tuple[HandState, frozenset[int], list[int]]:
    """Replay: the state reached, the players tabled with unknown cards, and the chips each
    player took back as an uncalled bet."""
    state = start_hand(history_to_setup(history, rules))
    unknown: set[int] = set()
    back = [0] * history.player_count
    count, scale = history.player_count, history.scale
    for number, text in enumerate(history.actions, 1):
        try:
            action = parse_action(text, count, scale)
            if action is not None:
                before = state.contributed
                state = apply_action(state, action, unknown)
                if state.contributed != before:
                    for i, (old, new) in enumerate(zip(before, state.contributed, strict=True)):
                        if new < old:
                            back[i] += old - new
        except EngineError as error:
            shown = " ".join(text.split("#", 1)[0].split()) or text.strip()
            raise ReplayError(
                f"action {number} ({shown}): {error.detail}",
                code=error.code,
                number=number,
                action=shown,
            ) from None
    return state, frozenset(unknown), back


def outcome(history: HandHistory, rules: Rules | None = None) -> HandResult:
    """Replay the history and say how the hand ends: every pot awarded ("complete"), or a pot
    whose winner the history cannot tell ("winner_unknown"). The check fields are compared when
    they apply: `finishing_stacks_mismatch`, `winnings_mismatch`. A history that stops before
    the end is `hand_incomplete`."""
    return result_of(history, *_play(history, rules))


def verify(history: HandHistory, rules: Rules | None = None) -> HandState:
    """Replay the history and require a finished hand (every pot awarded) whose finishing stacks
    and winnings match the file's when it gives them. A hand whose winner the history cannot
    tell is refused with `winner_unknown` (see `outcome`, which reports it instead)."""
    state, unknown, back = _play(history, rules)
    result = result_of(history, state, unknown, back)
    if result.status == "winner_unknown":
        pots = ", ".join(
            f"{history.amount_text(pot.amount)} ({_names(pot.unknown)} unknown)"
            for pot in result.pots
            if pot.unknown and len(pot.contenders) > 1
        )
        raise PhhError(
            f"The winner is unknown: a hand tabled with unknown cards contests {pots}.",
            code="winner_unknown",
        )
    return state


def result_of(
    history: HandHistory,
    state: HandState,
    unknown: frozenset[int] = frozenset(),
    back: Sequence[int] | None = None,
) -> HandResult:
    """The `HandResult` of a replayed state (see `outcome`); `back` is the chips each player
    took back as an uncalled bet (for the `winnings` check)."""
    notes = dict(history.notes)
    if state.is_over:
        won = [0] * state.player_count
        for award in state.awards:
            for player, share in zip(award.winners, award.shares, strict=True):
                won[player] += share
        compare_checks(history, state.stacks, won, back or [0] * len(won), notes)
        return HandResult(status="complete", stacks=state.stacks, won=tuple(won), notes=notes)
    live = [i for i in state.in_hand() if _still_in(state, i)]
    if state.phase == Phase.SHOWDOWN and live and all(i in unknown for i in live):
        out = tuple(f or m for f, m in zip(state.folded, state.mucked, strict=True))
        pots = tuple(
            UnknownPot(
                amount=pot.amount,
                contenders=pot.eligible,
                unknown=tuple(i for i in pot.eligible if i in unknown),
            )
            for pot in side_pots(state.contributed, out, state.all_in, state.dead)
        )
        for name in ("finishing_stacks", "winnings"):
            if getattr(history, name) is not None:
                notes[name] = "not applicable: the winner is unknown"
        return HandResult(status="winner_unknown", stacks=state.stacks, pots=pots, notes=notes)
    raise PhhError(
        f"The history stops before the hand is over: {what_is_due(state)}.",
        code="hand_incomplete",
    )


def _names(players: Sequence[int]) -> str:
    return ", ".join(f"p{i + 1}" for i in players)


def what_is_due(state: HandState) -> str:
    """What the hand waits for, in words with PHH player names."""
    if state.phase == Phase.BETTING and state.actor is not None:
        return f"p{state.actor + 1} is to act"
    if state.phase == Phase.DEALING:
        due = state.board_cards_due()
        street = STREET_NAMES[state.street + 1]
        return f"the {street} ({due} card{'s' if due > 1 else ''}) is to be dealt"
    if state.phase == Phase.SHOWDOWN:
        waiting = [
            f"p{i + 1}"
            for i in showdown_order(state)
            if state.shown[i] is None and not state.mucked[i] and not state.claims[i]
        ]
        return f"{', '.join(waiting)} to show or muck"
    return "the hand is over"


def decision(state: HandState) -> dict[str, object]:
    """The betting decision due now, as the CLI's `legal` prints it (raise-to totals, as PHH's
    `cbr` uses them; None when no bet or raise is possible). Raises `PhhError` when no betting
    decision is due: `hand_over`, `board_due` or `showdown_due`."""
    legal = legal_actions(state)
    if legal is None:
        code = {Phase.DEALING: "board_due", Phase.SHOWDOWN: "showdown_due"}.get(
            state.phase, "hand_over"
        )
        raise PhhError(f"No betting decision is due: {what_is_due(state)}.", code=code)
    return {
        "actor": f"p{legal.actor + 1}",
        "can_fold": legal.can_fold,
        "can_check": legal.can_check,
        "call": legal.call,
        "min_raise_to": legal.min_raise_to,
        "max_raise_to": legal.max_raise_to,
    }


# --- export ----------------------------------------------------------------------------------


def history_from_state(
    state: HandState,
    *,
    players: Sequence[str] | None = None,
    extra: Mapping[str, object] | None = None,
    scale: int = 1,
) -> HandHistory:
    """The PHH history of a hand our engine played (finished or not).

    Every player's hole cards are dealt first (`????` where unknown), then the log follows in
    order. A show is written with its cards, a muck as a bare `sm`. `scale` (a power of ten)
    says how many of the engine's units make one unit of the file: with 100, the engine counted
    cents and the file says dollars (20030 is written 200.30), and reading it back gives the same
    hand. Raises `PhhError` (`not_representable`) for what PHH cannot say: dead posts, a kill, a
    board claim, a misdeal, or a preflop order PHH would not derive from the blinds;
    `unsupported_variant` for Texas 6+.
    """
    if scale < 1 or 10 ** (len(str(scale)) - 1) != scale:
        raise PhhError(
            f"The scale must be a power of ten (1, 10, 100, ...), not {scale}.", code="bad_scale"
        )
    setup = state.setup
    rules = setup.rules
    if rules.game is not Game.HOLDEM:
        raise PhhError(
            "Texas 6+ has no PHH variant here (PHH's NS ranks hands differently).",
            code="unsupported_variant",
        )
    count = setup.player_count
    stacks = [p.stack for p in setup.players]
    blinds = [p.blind for p in setup.players]
    antes = [p.ante for p in setup.players]
    if any(p.dead for p in setup.players):
        raise PhhError("PHH has no dead posts (missed blinds).", code="not_representable")
    if phh_bring_in(blinds, antes, stacks) != setup.bring_in_index:
        raise PhhError(
            "PHH starts preflop action left of the largest blind; this hand started elsewhere.",
            code="not_representable",
        )
    variant = CODES[rules.structure]
    history = HandHistory(
        variant=variant,
        antes=_heads_up_file_order(antes),
        blinds_or_straddles=_heads_up_file_order(blinds),
        starting_stacks=stacks,
        actions=_export_actions(state, scale),
        scale=scale,
    )
    if variant == "FT":
        history.small_bet = setup.small_bet
        history.big_bet = 2 * setup.small_bet
    else:
        history.min_bet = setup.big_blind
    if any(antes) and len(set(antes)) == 1:
        history.ante_trimming_status = True  # antes count in the pot layers, as in RULES.md 6
    names = [p.name for p in setup.players]
    if players is not None:
        history.players = list(players)
    elif all(names) and names != [f"p{i + 1}" for i in range(count)]:
        history.players = names
    if all(p.seat > 0 for p in setup.players):
        history.seats = [p.seat for p in setup.players]
    if state.is_over:
        history.finishing_stacks = list(state.stacks)
        if any(action.kind == Kind.AWARD for action in state.log):
            history.winnings = _won(state)  # the pots as the dealer pushed them by tap
    if Decimal(setup.unit) / scale != Decimal(1) / _written_scale(history):
        unit = amount_text(setup.unit, scale)
        history.extra[UNIT_FIELD] = int(unit) if scale == 1 else Decimal(unit)
    history.extra.update(extra or {})
    return history


def _won(state: HandState) -> list[int]:
    won = [0] * state.player_count
    for award in state.awards:
        for player, share in zip(award.winners, award.shares, strict=True):
            won[player] += share
    return won


def _written_scale(history: HandHistory) -> int:
    """The scale a reader finds in the amounts as written (1 when they are all whole)."""
    scale = history.scale
    amounts = [
        *history.starting_stacks,
        *history.antes,
        *history.blinds_or_straddles,
        *(v for v in (history.min_bet, history.small_bet, history.big_bet) if v is not None),
    ]
    if any(v % scale for v in amounts):
        return scale
    for text in history.actions:
        if " cbr " in text and "." in text:
            return scale
    return 1


def state_to_phh(
    state: HandState,
    *,
    players: Sequence[str] | None = None,
    extra: Mapping[str, object] | None = None,
) -> str:
    """The PHH text of a hand our engine played (see `history_from_state`)."""
    return dumps_phh(history_from_state(state, players=players, extra=extra))


def _heads_up_file_order(values: list[int]) -> list[int]:
    return list(reversed(values)) if len(values) == 2 else values


def _export_actions(state: HandState, scale: int) -> list[str]:
    setup = state.setup
    # The cards each player ended the hand with: entered, shown, or the replacement of a card
    # a procedure took away (an exposed card became the burn: PHH has no burns to say it).
    holes: list[tuple[Card | None, ...]] = [hole or (None, None) for hole in state.holes]
    lines = [f"d dh p{i + 1} {format_cards(hole, sep='')}" for i, hole in enumerate(holes)]
    current = start_hand(
        dataclasses.replace(
            setup, players=tuple(dataclasses.replace(p, hole=None) for p in setup.players)
        )
    )
    for i, hole in enumerate(holes):
        current = apply(current, deal_hole(i, hole))
    tabled: set[int] = set()
    for action in state.log:
        if action.kind == Kind.DEAL_HOLE or action.kind in LEDGER_KINDS:
            continue  # hole cards go first; burns and cards set aside move no chip
        if action.kind == Kind.AWARD:
            lines.extend(_run_out_lines(current))
            current = apply(current, action)
            lines.extend(_push_lines(current, action, tabled))
            continue
        text = _action_text(current, action, scale)
        current = apply(current, action)
        if action.kind == Kind.SHOW:
            assert action.player is not None
            shown = current.shown[action.player]
            assert shown is not None
            text = f"p{action.player + 1} sm {format_cards(shown, sep='')}"
        lines.append(text)
    return lines


def _run_out_lines(state: HandState) -> list[str]:
    """The board a pot pushed by tap dealt unentered (an all-in run-out): unknown cards."""
    lines = []
    while state.phase == Phase.DEALING and betting_finished(state):
        due = state.board_cards_due()
        lines.append(f"d db {'??' * due}")
        state = apply(state, deal_board((None,) * due))
    return lines


def _push_lines(state: HandState, action: Action, tabled: set[int]) -> list[str]:
    """A pot pushed by tap (docs/phh.md): its winners table their hands, `????` when their cards
    were not entered; once the last pot is pushed, the hands that won nothing are mucked, so a
    reader gives a pot with one winner to that winner without comparing cards."""
    lines = []
    for player in action.winners:
        if state.shown[player] is None and not state.claims[player] and player not in tabled:
            tabled.add(player)
            hole = state.holes[player] or (None, None)
            lines.append(f"p{player + 1} sm {format_cards(hole, sep='')}")
    if state.is_over:
        for player in state.in_hand():
            if player not in tabled and state.shown[player] is None and not state.mucked[player]:
                lines.append(f"p{player + 1} sm")
    return lines


def _action_text(state: HandState, action: Action, scale: int) -> str:
    kind = action.kind
    if kind == Kind.DEAL_BOARD:
        return f"d db {format_cards(action.cards, sep='')}"
    player = action.player if action.player is not None else state.actor
    if player is None:
        raise PhhError(f"The action '{action}' has no player.", code="not_representable")
    name = f"p{player + 1}"
    if kind == Kind.FOLD:
        return f"{name} f"
    if kind in (Kind.CHECK, Kind.CALL):
        return f"{name} cc"
    if kind in (Kind.BET, Kind.RAISE):
        assert action.amount is not None
        return f"{name} cbr {amount_text(action.amount, scale)}"
    if kind == Kind.ALL_IN:
        total = state.bets[player] + state.stacks[player]
        return f"{name} cc" if total <= state.high else f"{name} cbr {amount_text(total, scale)}"
    if kind == Kind.MUCK:
        return f"{name} sm"
    if kind == Kind.SHOW:
        return f"{name} sm"  # the cards are filled in once the show is applied
    raise PhhError(
        f"PHH has no action for '{kind.value}' (a dead hand, a board claim or a misdeal).",
        code="not_representable",
    )
