"""Engine values as JSON for the event log and the API: actions in, state snapshots out."""

from __future__ import annotations

from typing import Any

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
from dealer.engine.cards import Card, CardError, parse_cards_unknown
from dealer.engine.errors import RuleViolation
from dealer.engine.hand import threshold_passed, unentered_deal
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


def action_to_dict(action: Action) -> dict[str, Any]:
    """An action as the event log and the API write it (its cards as a list)."""
    return action_to_json(action, card_list=True)


def action_from_dict(data: dict[str, Any]) -> Action:
    """Read an action; anything malformed is a RuleViolation the API answers with 400."""
    try:
        kind = Kind(data["kind"])
    except (KeyError, ValueError, TypeError) as error:
        kinds = ", ".join(k.value for k in Kind)
        raise RuleViolation(f"Unknown action: use one of {kinds}.", code="bad_action") from error
    declared: Kind | None = None
    if data.get("declared") is not None:
        try:
            declared = Kind(data["declared"])
        except (ValueError, TypeError) as error:
            raise RuleViolation(
                "Say what the player did: fold, check, call, bet or raise.", code="bad_action"
            ) from error
    cards: tuple[Card | None, ...] = ()
    if data.get("cards"):
        try:
            cards = parse_cards_unknown(" ".join(str(c) for c in data["cards"]))
        except CardError as error:
            raise RuleViolation(str(error), code="bad_card") from error
    return Action(
        kind=kind,
        player=data.get("player"),
        amount=data.get("amount"),
        cards=cards,
        reason=str(data.get("reason", ""))[:200],
        declared=declared,
        winners=_winners(data.get("winners")),
    )


def _winners(value: Any) -> tuple[int, ...]:
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
    state: HandState, seats: list[dict[str, Any]], *, reopened: bool = False
) -> dict[str, Any]:
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
        "legal": None if legal is None else {**legal.as_dict(), "actor": seat_of[legal.actor]},
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


def _legal_after_deal(state: HandState, seat_of: list[int]) -> dict[str, Any] | None:
    """While a board deal is due and betting follows it: the actions of the next street's first
    player once the board is dealt unentered (a betting tap may say so: `deal_unentered`)."""
    if state.phase != Phase.DEALING or state.runs != 1 or betting_finished(state):
        return None
    try:
        after = apply(state, unentered_deal(state))
    except RuleViolation:
        return None
    legal = legal_actions(after)
    return None if legal is None else {**legal.as_dict(), "actor": seat_of[legal.actor]}


def _push(state: HandState, seat_of: list[int]) -> list[dict[str, Any]]:
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


def _ledger(state: HandState) -> dict[str, Any]:
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
