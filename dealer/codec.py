"""Engine values as JSON for the event log and the API: actions in, state snapshots out."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NotRequired, TypedDict

from dealer.engine import (
    HandState,
    Phase,
    apply,
    before_award,
    legal_actions,
    next_to_show,
    showdown_order,
)
from dealer.engine.actions import Action, Kind
from dealer.engine.betting import LegalActions
from dealer.engine.cards import Card, CardError, parse_cards_unknown
from dealer.engine.errors import RuleViolation
from dealer.engine.hand import threshold_passed, unentered_deal
from dealer.engine.json_values import JsonObject
from dealer.engine.ledger import card_choice, stub_count
from dealer.engine.rules import Structure
from dealer.engine.runs import can_run_twice
from dealer.engine.showdown import (
    betting_finished,
    can_push,
    claim_allowed,
    pushes,
    showdown_pots,
)
from dealer.engine.snapshot import action_to_json
from dealer.engine.state import STREET_NAMES

# --- the snapshot's shape --------------------------------------------------------------------
# What `state_snapshot` writes (and `Hand.state` stores, with the hand's own keys added by
# `dealer.services.hand_snapshot`). The tablet, the API and the history read these keys.


class SeatRow(TypedDict):
    """One player dealt in, as `Hand.seats` stores it (the fields the snapshot reads)."""

    seat: int
    entry: NotRequired[int | None]
    name: NotRequired[str]


class PlayerView(TypedDict):
    seat: int
    entry: int | None
    name: str
    stack: int
    bet: int
    contributed: int
    folded: bool
    all_in: bool
    shown: list[str] | None
    mucked: bool


class PotView(TypedDict):
    amount: int
    eligible_seats: list[int]


class LegalView(TypedDict):
    """The engine's `LegalActions` with the player to act as a seat number."""

    actor: int
    can_fold: bool
    can_check: bool
    call: int
    is_bet: bool
    min_raise_to: int | None
    max_raise_to: int | None
    pot_raise_to: int | None
    half_pot_raise_to: int | None
    all_in_to: int


class PushView(TypedDict):
    pot: int
    amount: int
    eligible_seats: list[int]
    pushed_to: list[int] | None


class AwardView(TypedDict):
    pot: int
    amount: int
    winners: list[int]
    shares: list[int]
    hands: list[str]
    rake: int
    run: int


class OutOfPlay(TypedDict):
    card: str
    back: str


class CardLedger(TypedDict):
    stub: int
    burned: int
    burn_cards: list[str]
    next_burn: list[str]
    out: list[OutOfPlay]
    dead: list[str]
    deck: str
    out_of_play: list[str]


class OutOfTurn(TypedDict):
    seat: int
    action: str
    amount: int | None


class StateSnapshot(TypedDict):
    """Everything the tablet shows of a hand's state (`state_snapshot`)."""

    phase: str
    street: str
    board: list[str] | None
    board_cards_due: int
    runs: int
    common: int
    board2: list[str] | None
    can_run_twice: bool
    actor_seat: int | None
    high: int
    pot_total: int
    threshold_passed: bool
    players: list[PlayerView]
    pots: list[PotView]
    legal: LegalView | None
    pot_limit: bool
    claim_allowed: bool
    legal_after_deal: LegalView | None
    showdown_order: list[int]
    next_to_show: int | None
    push: list[PushView]
    awards: list[AwardView]
    rake: int
    drop: int
    finishing_stacks: dict[str, int] | None
    cards: CardLedger
    out_of_turn: list[OutOfTurn]


class HandSnapshot(StateSnapshot, total=False):
    """`Hand.state`: the state's snapshot with the hand's own keys (`hand_snapshot`). Read with
    `.get` where a key may be missing (an empty state before the first write)."""

    hand: int
    table: int
    number: int
    version: int
    status: str
    button_seat: int | None
    small_blind_seat: int | None
    big_blind_seat: int | None
    stakes: dict[str, int]


def action_to_dict(action: Action) -> JsonObject:
    """An action as the event log and the API write it (its cards as a list)."""
    return action_to_json(action, card_list=True)


def action_from_dict(data: Mapping[str, object]) -> Action:
    """Read an action; anything malformed is a RuleViolation the API answers with 400."""
    try:
        kind = Kind(str(data["kind"]))
    except (KeyError, ValueError, TypeError) as error:
        kinds = ", ".join(k.value for k in Kind)
        raise RuleViolation(f"Unknown action: use one of {kinds}.", code="bad_action") from error
    declared: Kind | None = None
    if data.get("declared") is not None:
        try:
            declared = Kind(str(data["declared"]))
        except (ValueError, TypeError) as error:
            raise RuleViolation(
                "Say what the player did: fold, check, call, bet or raise.", code="bad_action"
            ) from error
    cards: tuple[Card | None, ...] = ()
    listed = data.get("cards")
    if listed:
        try:
            if not isinstance(listed, list | tuple):
                raise CardError("List the cards, one code each (As, Kd, ?? for a card unseen).")
            cards = parse_cards_unknown(" ".join(str(c) for c in listed))
        except CardError as error:
            raise RuleViolation(str(error), code="bad_card") from error
    return Action(
        kind=kind,
        player=_whole(data.get("player")),
        amount=_whole(data.get("amount")),
        cards=cards,
        reason=str(data.get("reason", ""))[:200],
        declared=declared,
        winners=_winners(data.get("winners")),
    )


def _whole(value: object) -> int | None:
    """A player index or an amount: a whole number, or None when the action has none."""
    if value is None or type(value) is int:
        return value
    raise RuleViolation("Give player numbers and amounts as whole numbers.", code="bad_action")


def _winners(value: object) -> tuple[int, ...]:
    if value is None:
        return ()
    if not isinstance(value, list) or not all(type(w) is int for w in value):
        raise RuleViolation("List the winners as player numbers.", code="bad_action")
    return tuple(value)


def _cards(cards: tuple[Card | None, ...] | None) -> list[str] | None:
    if cards is None:
        return None
    return ["??" if c is None else str(c) for c in cards]


def state_snapshot(
    state: HandState, seats: Sequence[SeatRow], *, reopened: bool = False
) -> StateSnapshot:
    """Everything the tablet shows, computed by the engine (the browser does no arithmetic).
    `reopened`: the hand is over but reopened to correct it; it shows what the engine says it
    was before its pots were pushed (`before_award`: stacks, all-ins, pots, no award) and has
    no finishing stacks until it ends again."""
    ended = state.finishing_stacks
    if reopened:
        state, ended = before_award(state), None
    legal = legal_actions(state)
    seat_of = [s["seat"] for s in seats]
    pots = state.pots()
    return {
        "phase": state.phase.value,
        "street": STREET_NAMES[state.street],
        "board": _cards(state.board),
        "board_cards_due": state.board_cards_due(),
        # Run it twice (RIT): the second run's cards after the common ones, and whether the
        # dealer may offer it now.
        "runs": state.runs,
        "common": state.common,
        "board2": _cards(state.board2),
        "can_run_twice": can_run_twice(state),
        "actor_seat": seat_of[state.actor] if state.actor is not None else None,
        "high": state.high,
        "pot_total": state.pot_total,
        "threshold_passed": threshold_passed(state),
        "players": [
            {
                "seat": seat_of[i],
                "entry": seats[i].get("entry"),
                "name": seats[i].get("name", ""),
                "stack": state.stacks[i],
                "bet": state.bets[i],
                "contributed": state.contributed[i],
                "folded": state.folded[i],
                "all_in": state.all_in[i],
                "shown": _cards(state.shown[i]),
                "mucked": state.mucked[i],
            }
            for i in range(state.player_count)
        ],
        "pots": [
            {"amount": pot.amount, "eligible_seats": [seat_of[i] for i in pot.eligible]}
            for pot in pots
        ],
        "legal": None if legal is None else _legal(legal, seat_of),
        # What the tablet draws from the hand's rules, decided here so that it compares no
        # option itself: "POT" on a pot-limit bar, and the board claim offered at showdown.
        "pot_limit": state.setup.rules.structure is Structure.POT_LIMIT,
        "claim_allowed": claim_allowed(state),
        "legal_after_deal": _legal_after_deal(state, seat_of),
        "showdown_order": [seat_of[i] for i in showdown_order(state)]
        if state.phase.value == "showdown"
        else [],
        "next_to_show": None if (n := next_to_show(state)) is None else seat_of[n],
        "push": _push(state, seat_of),
        "awards": [
            {
                "pot": a.pot,
                "amount": a.amount,
                "winners": [seat_of[w] for w in a.winners],
                "shares": list(a.shares),
                "hands": list(a.hands),
                "rake": a.rake,
                "run": a.run,
            }
            for a in state.awards
        ],
        "rake": state.rake,
        "drop": state.drop,  # of the rake, the promotional drop (docs/rules.md)
        "finishing_stacks": None
        if ended is None
        else {str(seat_of[i]): s for i, s in enumerate(ended)},
        "cards": _ledger(state),
        # Actions out of turn waiting for their player's turn (T 53-A): said aloud at the table,
        # so public like the bets.
        "out_of_turn": [
            {
                "seat": seat_of[entry.player],
                "action": entry.action.kind.value,
                "amount": entry.action.amount,
            }
            for entry in state.pending
        ],
    }


def _legal(legal: LegalActions, seat_of: list[int]) -> LegalView:
    return {
        "actor": seat_of[legal.actor],
        "can_fold": legal.can_fold,
        "can_check": legal.can_check,
        "call": legal.call,
        "is_bet": legal.is_bet,
        "min_raise_to": legal.min_raise_to,
        "max_raise_to": legal.max_raise_to,
        "pot_raise_to": legal.pot_raise_to,
        "half_pot_raise_to": legal.half_pot_raise_to,
        "all_in_to": legal.all_in_to,
    }


def _legal_after_deal(state: HandState, seat_of: list[int]) -> LegalView | None:
    """While a board deal is due and betting follows it: the actions of the next street's first
    player once the board is dealt unentered (a betting tap may say so: `deal_unentered`)."""
    if state.phase != Phase.DEALING or state.runs != 1 or betting_finished(state):
        return None
    try:
        after = apply(state, unentered_deal(state))
    except RuleViolation:
        return None
    legal = legal_actions(after)
    return None if legal is None else _legal(legal, seat_of)


def _push(state: HandState, seat_of: list[int]) -> list[PushView]:
    """The pots the dealer may push by tap now (showdown by tap), each with the seats that can
    win it and the seats it was pushed to (None until then); empty when no tap is due."""
    if not can_push(state):
        return []
    pushed = pushes(state)
    return [
        {
            "pot": index,
            "amount": pot.amount,
            "eligible_seats": [seat_of[i] for i in pot.eligible],  # a muck is out, as a fold
            "pushed_to": None if index not in pushed else [seat_of[i] for i in pushed[index]],
        }
        for index, pot in enumerate(showdown_pots(state))
    ]


def _ledger(state: HandState) -> CardLedger:
    """The card ledger beside the board: the stub's count, the burns, the cards out of play
    (an exposed card waiting to be the burn, premature cards set aside, boxed cards), and the
    card picker's answer for now (`ledger.card_choice`: public cards only, like the rest)."""
    choice = card_choice(state)
    return {
        "stub": stub_count(state),
        "burned": len(state.burns),
        "burn_cards": [str(card) for card in state.burns if card is not None],
        "next_burn": _cards(state.next_burn) or [],
        "out": [
            {"card": "??" if card is None else str(card), "back": STREET_NAMES[back]}
            for card, back in state.aside
            if back is not None
        ],
        "dead": ["??" if card is None else str(card) for card, back in state.aside if back is None],
        # The deck and the cards out of play, not the cards pickable: those are the rest of the
        # deck, and a list of them would name the hidden hole cards too (`dealer.card_gate`).
        "deck": choice.deck.value,
        "out_of_play": [str(card) for card in choice.out_of_play],
    }
