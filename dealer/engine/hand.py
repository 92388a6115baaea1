"""The hand as an immutable state machine: `start_hand(setup)` then `apply(state, action)`.

`apply` returns a new state or raises `RuleViolation` with a stable code and a sentence a dealer
understands. Nothing here mutates a state, reads a clock or draws a random number.
"""

from __future__ import annotations

from dealer.engine import betting, out_of_turn, showdown
from dealer.engine.actions import BETTING_KINDS, LEDGER_KINDS, Action, Kind
from dealer.engine.card_moves import ledger_action
from dealer.engine.cards import Card
from dealer.engine.errors import RuleViolation
from dealer.engine.game import check_cards_fit, seen_cards
from dealer.engine.ledger import burn_and_return, stub_count
from dealer.engine.pots import uncalled_excess
from dealer.engine.rules import ActionThreshold, FlShortAllin, Structure
from dealer.engine.runs import apply_run_twice
from dealer.engine.setup import HandSetup
from dealer.engine.state import (
    BOARD_SIZES,
    STREET_NAMES,
    HandState,
    OutOfTurn,
    Phase,
    evolve,
    replace_at,
)


def start_hand(setup: HandSetup) -> HandState:
    """Post the forced bets and open preflop betting (RULES.md section 3).

    When every player antes the same, the antes go in first and count in the pot layers (RULES.md
    6.1). An ante asked of only some players, such as the big-blind ante (`bb_ante`, T), is paid
    after that player's blind and is dead money in the main pot: it is paid for the table, so it
    must not keep a caller out of the main pot. A live blind is posted at its nominal size, or
    all-in for less; the bet to match stays the full blind (`short_blind=allin_post`, R). Dead
    posts go to the middle.
    """
    players = setup.players
    count = len(players)
    stacks = [p.stack for p in players]
    bets = [0] * count
    contributed = [0] * count
    dead = 0
    shortfall = 0
    table_ante = setup.rules.bb_ante or len({p.ante for p in players}) > 1
    for i, player in enumerate(players):
        if not table_ante:
            ante = min(player.ante, stacks[i])
            stacks[i] -= ante
            contributed[i] += ante
        posted = min(player.blind, stacks[i])
        stacks[i] -= posted
        bets[i] = posted
        contributed[i] += posted
        shortfall += player.blind - posted
        if table_ante:
            ante = min(player.ante, stacks[i])
            stacks[i] -= ante
            dead += ante
        paid_dead = min(player.dead, stacks[i])
        stacks[i] -= paid_dead
        dead += paid_dead
    high = max(p.blind for p in players)
    extra = shortfall
    if setup.rules.pl_sb_as_bb and any(p.blind == setup.small_blind for p in players):
        extra += setup.big_blind - setup.small_blind
    state = HandState(
        setup=setup,
        phase=Phase.BETTING,
        street=0,
        stacks=tuple(stacks),
        bets=tuple(bets),
        contributed=tuple(contributed),
        folded=(False,) * count,
        dead=dead,
        high=high,
        full_level=high,
        last_full_raise=max(setup.big_blind, high),
        raise_count=(1 if high > 0 else 0) + (1 if high > setup.big_blind else 0),
        capped=False,
        acted=(-1,) * count,
        actor=None,
        aggressor=None,
        river_aggressor=None,
        pl_preflop_extra=extra,
        board=(),
        holes=tuple(p.hole for p in players),
        shown=(None,) * count,
        mucked=(False,) * count,
        claims=(False,) * count,
        turn_actions=0,
        chip_actions=0,
        awards=(),
        log=(),
    )
    return _open_round(state, first=(setup.bring_in_index + 1) % count)


def apply(state: HandState, action: Action) -> HandState:
    """Apply one action and return the new state (the input state is never changed)."""
    if state.is_over:
        raise RuleViolation("This hand is over: start the next hand.", code="hand_over")
    kind = action.kind
    if kind in BETTING_KINDS:
        new = _apply_betting(state, action)
    elif kind == Kind.DEAL_BOARD:
        new = _deal_board(state, action.cards)
    elif kind == Kind.DEAL_HOLE:
        new = _deal_hole(state, _player(state, action), action.cards)
    elif kind in (Kind.SHOW, Kind.MUCK, Kind.CLAIM_BOARD):
        new = showdown.apply_showdown_action(state, action)
        new = _replace(new, log=(*new.log, action))
        return showdown.settle_if_done(new)
    elif kind == Kind.AWARD:
        new = showdown.check_award(_run_out_unentered(state), action)
        new = _replace(new, log=(*new.log, action))
        return showdown.settle_if_done(new)
    elif kind == Kind.OUT_OF_TURN:
        new = _out_of_turn(state, action)
    elif kind == Kind.KILL:
        new = _kill(state, _player(state, action))
    elif kind == Kind.MISDEAL:
        new = _misdeal(state)
    elif kind == Kind.TAKE_BACK_BOARD:
        new = _take_back_board(state, keep_burn=action.amount != 0)
    elif kind in LEDGER_KINDS:
        new = ledger_action(state, action)
    elif kind == Kind.RUN_TWICE:
        new = apply_run_twice(state)
    elif kind == Kind.REVEAL_BOARD:
        new = _replace(_reveal_board(state, action.cards), log=(*state.log, action))
        return showdown.settle_if_done(new)
    else:  # pragma: no cover - Kind is closed
        raise RuleViolation(f"Unknown action '{kind}'.", code="unknown_action")
    return _replace(new, log=(*new.log, action))


_replace = evolve


def _player(state: HandState, action: Action) -> int:
    if action.player is None or not 0 <= action.player < state.player_count:
        raise RuleViolation("Say which player this is for.", code="player_required")
    return action.player


# --- betting ------------------------------------------------------------------------------------


def _apply_betting(state: HandState, action: Action) -> HandState:
    if state.phase != Phase.BETTING or state.actor is None:
        raise RuleViolation("No betting action is due now.", code="not_betting")
    player = state.actor
    if action.player is not None and action.player != player:
        raise RuleViolation(
            f"It is {state.seat_name(player)}'s turn, not {state.seat_name(action.player)}'s."
            if 0 <= action.player < state.player_count
            else f"It is {state.seat_name(player)}'s turn.",
            code="not_your_turn",
        )
    owed = betting.to_call(state, player)
    kind = action.kind
    if kind == Kind.ALL_IN:
        total = state.bets[player] + state.stacks[player]
        if total <= state.high:
            kind = Kind.CALL
        else:
            return _aggress(state, player, total, kind)
    if kind == Kind.FOLD:
        return _after_action(
            _replace(state, folded=replace_at(state.folded, player, True)), player, chips=False
        )
    if kind == Kind.CHECK:
        if owed:
            raise RuleViolation(
                f"{state.seat_name(player).capitalize()} cannot check: {owed} to call.",
                code="cannot_check",
            )
        return _after_action(_mark_acted(state, player), player, chips=False)
    if kind == Kind.CALL:
        if not owed:
            raise RuleViolation("There is nothing to call: check instead.", code="cannot_call")
        return _after_action(_put_in(_mark_acted(state, player), player, owed), player, chips=True)
    if action.amount is None:
        raise RuleViolation("Give the amount to bet or raise to.", code="amount_required")
    return _aggress(state, player, action.amount, kind)


def _aggress(state: HandState, player: int, total: int, kind: Kind) -> HandState:
    """A bet or raise to `total` (all-ins included), after checking its size."""
    refusal = betting.raise_refusal(state, player)
    if refusal is not None:
        raise RuleViolation(refusal[1], code=refusal[0])
    is_bet = state.high == 0
    word = "Bet" if is_bet else "Raise to"
    if kind == Kind.BET and not is_bet:
        raise RuleViolation(
            f"There is already a bet of {state.high}: raise, call or fold.", code="bet_not_allowed"
        )
    if kind == Kind.RAISE and is_bet:
        raise RuleViolation("There is no bet to raise yet: bet instead.", code="raise_not_allowed")
    low, top = betting.raise_bounds(state, player)
    all_in_to = state.bets[player] + state.stacks[player]
    if total > all_in_to:
        raise RuleViolation(
            f"{word} {total} is more than {state.seat_name(player)} has ({all_in_to} in all).",
            code="not_enough_chips",
        )
    if total < low:
        name = "minimum bet of" if is_bet else "minimum raise to"
        raise RuleViolation(f"{word} {total} is below the {name} {low}.", code="below_minimum")
    if total > top:
        limit = {
            Structure.POT_LIMIT: "pot-limit maximum",
            Structure.FIXED_LIMIT: "fixed-limit size",
        }
        name = limit.get(state.setup.rules.structure, "maximum")
        raise RuleViolation(f"{word} {total} is above the {name} of {top}.", code="above_maximum")
    return _after_action(_raise_to(state, player, total), player, chips=True)


def _raise_to(state: HandState, player: int, total: int) -> HandState:
    rules = state.setup.rules
    increment = total - state.high
    full_level, last_full_raise, count = state.full_level, state.last_full_raise, state.raise_count
    if rules.structure is Structure.FIXED_LIMIT:
        unit = betting.limit_unit(state)
        full = total >= state.full_level + unit or (
            rules.fl_short_allin is FlShortAllin.HALF_BET and 2 * increment >= unit
        )
    else:
        full = increment >= state.last_full_raise
        if full:
            last_full_raise = increment
    if full:
        full_level = total
        count += 1
    new = _put_in(state, player, total - state.bets[player])
    new = _replace(
        new,
        high=total,
        full_level=full_level,
        last_full_raise=last_full_raise,
        raise_count=count,
        aggressor=player,
    )
    if (
        rules.structure is Structure.FIXED_LIMIT
        and count >= rules.fl_cap_bets
        and not betting.headsup_lift(new)
    ):
        new = _replace(new, capped=True)
    return _mark_acted(new, player)


def _put_in(state: HandState, player: int, amount: int) -> HandState:
    amount = min(amount, state.stacks[player])
    return _replace(
        state,
        stacks=replace_at(state.stacks, player, state.stacks[player] - amount),
        bets=replace_at(state.bets, player, state.bets[player] + amount),
        contributed=replace_at(state.contributed, player, state.contributed[player] + amount),
    )


def _mark_acted(state: HandState, player: int) -> HandState:
    return _replace(
        state, acted=replace_at(state.acted, player, max(state.high, state.bets[player]))
    )


def _after_action(state: HandState, player: int, *, chips: bool) -> HandState:
    state = _replace(
        state,
        turn_actions=state.turn_actions + 1,
        chip_actions=state.chip_actions + (1 if chips else 0),
    )
    return _advance(state, player + 1)


def _advance(state: HandState, start: int) -> HandState:
    """Hand the turn to the next player who owes a decision, or close the round."""
    if len(state.in_hand()) <= 1:
        return _close_round(state)
    count = state.player_count
    for step in range(count):
        candidate = (start + step) % count
        if state.needs_to_act(candidate):
            return _turn_to(state, candidate)
    return _close_round(state)


def _turn_to(state: HandState, player: int) -> HandState:
    """The turn goes to `player`; an action they made out of turn is applied now if it stands
    (T 53-A), else it is dropped and they have every option."""
    state = _replace(state, actor=player)
    entry = state.pending_of(player)
    if entry is None:
        return state
    state = _replace(state, pending=out_of_turn.without(state, player))
    if not out_of_turn.stands(state, entry):
        return state
    try:
        return _apply_betting(state, entry.action)
    except RuleViolation:
        return state  # it can no longer be made as declared: the player chooses again


def _out_of_turn(state: HandState, action: Action) -> HandState:
    """T 53-A: an action out of turn. It is checked now, against the bet the player faces, as if
    it were their turn. A fold stands at once; anything else waits for the player's turn."""
    declared = out_of_turn.declared_action(state, action)
    player = _player(state, declared)
    _apply_betting(_replace(state, actor=player), declared)
    if declared.kind == Kind.FOLD:
        state = _replace(state, folded=replace_at(state.folded, player, True))
        if len(state.in_hand()) <= 1:
            return _advance(state, state.actor or 0)
        return state
    entry = OutOfTurn(action=declared, facing=state.high)
    return _replace(state, pending=(*state.pending, entry))


def _open_round(state: HandState, first: int) -> HandState:
    """Start a betting round; skip it when fewer than two players can still bet.

    As in PHH's reference implementation, a player whose every opponent is all-in for no more than
    the player's own bet has nothing to decide and is passed over (effective stack of zero).
    """
    count = state.player_count
    acted = list(state.acted)
    deciders = []
    for i in range(count):
        if not state.can_act(i):
            continue
        others = [
            state.bets[j] + state.stacks[j] for j in range(count) if j != i and not state.folded[j]
        ]
        if not others or max(others) <= state.bets[i]:
            acted[i] = state.high
        else:
            deciders.append(i)
    state = _replace(state, acted=tuple(acted), phase=Phase.BETTING, actor=None)
    if not deciders or (len(deciders) == 1 and state.bets[deciders[0]] >= state.high):
        return _close_round(state)
    return _advance(state, first)


def _close_round(state: HandState) -> HandState:
    """End the betting round: return an uncalled bet, then deal on, show down or award."""
    state = _return_uncalled(_replace(state, actor=None, pending=()))
    if state.street == 3:
        state = _replace(state, river_aggressor=state.aggressor)
    if len(state.in_hand()) <= 1:
        return showdown.award_uncontested(state)
    if state.street == 3:
        return showdown.begin(state)
    return _replace(state, phase=Phase.DEALING)


def _return_uncalled(state: HandState) -> HandState:
    # Only this street's bets can be uncalled: totals would count a big-blind ante as a bet.
    player, excess = uncalled_excess(state.bets)
    if player is None:
        return state
    excess = min(excess, state.bets[player])
    if excess <= 0:
        return state
    return _replace(
        state,
        stacks=replace_at(state.stacks, player, state.stacks[player] + excess),
        bets=replace_at(state.bets, player, state.bets[player] - excess),
        contributed=replace_at(state.contributed, player, state.contributed[player] - excess),
    )


# --- cards ---------------------------------------------------------------------------------------


def _deal_board(state: HandState, cards: tuple[Card | None, ...]) -> HandState:
    due = state.board_cards_due()
    if state.phase != Phase.DEALING:
        raise RuleViolation(
            f"No board card is due now: {_what_is_due(state)}.", code="board_not_due"
        )
    if state.street == 3:  # run 1 is complete: the cards are the second run's (RIT)
        return _deal_run2(state, cards, due)
    if len(cards) != due:
        street = STREET_NAMES[state.street + 1]
        raise RuleViolation(
            f"The {street} is {due} card{'s' if due > 1 else ''}, not {len(cards)}.",
            code="wrong_card_count",
        )
    state = burn_and_return(state, state.street + 1)
    _check_new_cards(state, cards)
    state = _replace(
        state,
        board=state.board + cards,
        street=state.street + 1,
        bets=(0,) * state.player_count,
        high=0,
        full_level=0,
        last_full_raise=state.setup.big_blind,
        raise_count=0,
        capped=False,
        acted=(-1,) * state.player_count,
        aggressor=None,
    )
    _check_stub(state)
    if state.street == 3 and not _betting_possible(state):
        if state.runs == 2:  # run 2 is dealt next (RIT)
            return _replace(state, phase=Phase.DEALING, actor=None)
        return showdown.begin(state)
    return _open_round(state, first=0)


def _deal_run2(state: HandState, cards: tuple[Card | None, ...], due: int) -> HandState:
    """The second run's next street (RIT): burned and dealt like run 1's, no betting between."""
    street = state.run2_street + 1
    if len(cards) != due:
        raise RuleViolation(
            f"The second run's {STREET_NAMES[street]} is {due} card{'s' if due > 1 else ''}, "
            f"not {len(cards)}.",
            code="wrong_card_count",
        )
    state = burn_and_return(state, street)
    _check_new_cards(state, cards)
    state = _replace(state, board2=state.board2 + cards)
    _check_stub(state)
    if state.common + len(state.board2) == BOARD_SIZES[3]:
        return showdown.begin(state)
    return state


def _check_stub(state: HandState) -> None:
    if stub_count(state) < 0:
        raise RuleViolation(
            "There are not enough cards left in the stub for this deal: check the burn and "
            "set-aside cards entered.",
            code="stub_empty",
        )


def unentered_deal(state: HandState) -> Action:
    """The board cards due now, dealt at the table without being entered: a betting tap may say
    so (docs/rules.md "Showdown by tap": a street's first action implies its deal)."""
    if state.phase != Phase.DEALING or state.board_cards_due() == 0:
        raise RuleViolation(
            f"No board card is due now: {_what_is_due(state)}.", code="board_not_due"
        )
    return Action(kind=Kind.DEAL_BOARD, cards=(None,) * state.board_cards_due())


def _run_out_unentered(state: HandState) -> HandState:
    """Before a pot is pushed by tap once the betting is over: board cards still due were dealt
    at the table without being entered (docs/rules.md "Showdown by tap"), so the dealer does not
    tap each street of an all-in run-out. A hand run twice needs its boards entered."""
    if state.phase != Phase.DEALING or not showdown.betting_finished(state):
        return state
    if state.runs == 2:
        raise RuleViolation(
            "A hand run twice is settled from its two boards: deal both runs first.",
            code="runs_need_boards",
        )
    while state.phase == Phase.DEALING:
        state = _deal_board(state, (None,) * state.board_cards_due())
    return state


def _reveal_board(state: HandState, cards: tuple[Card | None, ...]) -> HandState:
    """Fill in board cards that were dealt without being entered (optional card entry). In a hand
    run twice the cards may go on to the second run's (RIT)."""
    if state.board2 and len(cards) == len(state.board) + len(state.board2):
        split = len(state.board)
        state = _reveal_board(state, cards[:split])
        # Run 2's cards in `board`, run 1's in `board2`: the ledger still sees both.
        run2 = _reveal_board(_replace(state, board=state.board2, board2=state.board), cards[split:])
        return _replace(state, board2=run2.board)
    if len(cards) != len(state.board):
        raise RuleViolation(
            f"The board has {len(state.board)} cards so far; enter all of them, "
            "known ones included.",
            code="wrong_card_count",
        )
    fresh = []
    for old, new in zip(state.board, cards, strict=True):
        if old is not None and new is not None and old != new:
            raise RuleViolation(
                f"The board already shows {old} there, not {new}.", code="cards_conflict"
            )
        if old is None and new is not None:
            fresh.append(new)
    _check_new_cards(state, tuple(fresh))
    board = tuple(new if old is None else old for old, new in zip(state.board, cards, strict=True))
    return _replace(state, board=board)


def _betting_possible(state: HandState) -> bool:
    return sum(1 for i in range(state.player_count) if state.can_act(i)) >= 2


def _deal_hole(state: HandState, player: int, cards: tuple[Card | None, ...]) -> HandState:
    if len(cards) != 2:
        raise RuleViolation("A hold'em hand is two hole cards.", code="wrong_card_count")
    # The player's own cards (entered or already shown) may be entered again.
    others = _replace(
        state,
        holes=replace_at(state.holes, player, None),
        shown=replace_at(state.shown, player, None),
    )
    _check_new_cards(others, cards)
    return _replace(state, holes=replace_at(state.holes, player, _merged(state, player, cards)))


def _merged(
    state: HandState, player: int, cards: tuple[Card | None, ...]
) -> tuple[Card | None, ...]:
    """The player's hand with the cards entered now: a card entered before and not given again
    fills an unknown place (hole cards have no order); with no place left, the two entries
    disagree."""
    hand = list(cards)
    for card in state.holes[player] or ():
        if card is None or card in hand:
            continue
        if None not in hand:
            raise RuleViolation(
                f"{state.seat_name(player).capitalize()}'s hole cards were entered differently.",
                code="cards_conflict",
            )
        hand[hand.index(None)] = card
    return tuple(hand)


def _check_new_cards(state: HandState, cards: tuple[Card | None, ...]) -> None:
    check_cards_fit(state.setup.rules, cards, seen_cards(state))


def _what_is_due(state: HandState) -> str:
    if state.phase == Phase.BETTING and state.actor is not None:
        return f"{state.seat_name(state.actor)} is to act"
    if state.phase == Phase.SHOWDOWN:
        return "the showdown is under way"
    return "the hand is over"


# --- dealer-error operations -------------------------------------------------------------------


def _kill(state: HandState, player: int) -> HandState:
    """Dead hand (R): the player is out of the pot and their chips stay in it."""
    if state.folded[player]:
        raise RuleViolation(
            f"{state.seat_name(player).capitalize()}'s hand is already out of play.",
            code="already_folded",
        )
    others = [i for i in state.in_hand() if i != player]
    if others and all(state.mucked[i] for i in others):
        # Every other hand is mucked: nobody would be left to win the pots.
        raise RuleViolation(
            f"{state.seat_name(player).capitalize()} holds the last live hand (the others are "
            "mucked), so it cannot be killed.",
            code="last_live_hand",
        )
    state = _replace(
        state,
        folded=replace_at(state.folded, player, True),
        pending=out_of_turn.without(state, player),
    )
    if state.phase == Phase.BETTING:
        if len(state.in_hand()) <= 1 or state.actor == player:
            start = player + 1 if state.actor == player else (state.actor or 0)
            return _advance(state, start)
        return state
    if len(state.in_hand()) <= 1:
        return showdown.award_uncontested(_return_uncalled(state))
    if state.phase == Phase.SHOWDOWN:
        return showdown.settle_if_done(state)
    return state


def _misdeal(state: HandState) -> HandState:
    """Void the hand (T): every chip goes back, the button and blinds stay for the redeal."""
    if threshold_passed(state):
        raise RuleViolation(
            "Too late for a misdeal: substantial action has taken place, so the "
            "hand plays on (RULES.md 8).",
            code="misdeal_too_late",
        )
    count = state.player_count
    return _replace(
        state,
        phase=Phase.VOID,
        actor=None,
        stacks=state.starting_stacks,
        bets=(0,) * count,
        contributed=(0,) * count,
        dead=0,
    )


def _take_back_board(state: HandState, *, keep_burn: bool = True) -> HandState:
    """RULES.md 8: the last street's board cards go back to be dealt again (S2, S4; R burns).

    Allowed while nobody has bet, checked, shown or mucked since they were dealt: the hand is
    replayed without that deal, so it is back to the previous street with the street due.
    """
    entries = _board_in_force(state.log)
    deals = [i for i, action in enumerate(entries) if action.kind == Kind.DEAL_BOARD]
    if not deals:
        raise RuleViolation(
            "No board card has been dealt: there is nothing to take back.", code="no_board"
        )
    street = STREET_NAMES[state.street]
    later = entries[deals[-1] + 1 :]
    if any(action.kind in BETTING_KINDS or action.kind == Kind.OUT_OF_TURN for action in later):
        raise RuleViolation(
            f"Betting on the {street} has started, so its cards stand (RULES.md 8).",
            code="board_action_started",
        )
    if any(action.kind == Kind.RUN_TWICE for action in later):
        raise RuleViolation(
            f"The players agreed to run it twice after the {street}, so its cards stand.",
            code="board_action_started",
        )
    if any(action.kind in (Kind.SHOW, Kind.MUCK, Kind.CLAIM_BOARD) for action in later):
        raise RuleViolation(
            f"Hands have been shown or mucked since the {street} was dealt, so its cards stand.",
            code="board_action_started",
        )
    replayed = start_hand(state.setup)
    for action in entries[: deals[-1]] + later:
        replayed = apply(replayed, action)
    # The cards set aside until this deal went back into the stub with it and stay there.
    replayed = _replace(replayed, log=state.log, aside=state.aside)
    if keep_burn:
        # S2, S4: the cards go back, the burn stays and the redeal takes no new one.
        redealt = state.run2_street if state.board2 else state.street
        return _replace(replayed, burns=state.burns, next_burn=None, skip_burn=redealt)
    return replayed  # R: the burn was missed, so the redeal burns (the burn is not counted)


def _board_in_force(log: tuple[Action, ...]) -> list[Action]:
    """The log without its take-backs and the board deals they cancelled."""
    entries: list[Action] = []
    for action in log:
        if action.kind != Kind.TAKE_BACK_BOARD:
            entries.append(action)
            continue
        last = max(i for i, a in enumerate(entries) if a.kind == Kind.DEAL_BOARD)
        del entries[last]
    return entries


def threshold_passed(state: HandState) -> bool:
    """RULES.md 5.6: has the action gone far enough that a misdeal is no longer possible?

    `two_acted` (S2; R): two players have acted in turn after the blinds. `tda_substantial` (T 36):
    two actions in turn of which one put chips in, or any three actions. Blinds never count.
    """
    if state.street > 0:
        return True
    if state.setup.rules.action_threshold is ActionThreshold.TWO_ACTED:
        return state.turn_actions >= 2
    return state.turn_actions >= 3 or (state.turn_actions >= 2 and state.chip_actions >= 1)
