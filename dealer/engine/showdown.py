"""Showdown: who shows first, showing and mucking, and the award of every pot (RULES.md 6-7)."""

from __future__ import annotations

from collections.abc import Sequence

from dealer.engine.actions import Action, Kind
from dealer.engine.cards import Card, suit_strength
from dealer.engine.errors import RuleViolation
from dealer.engine.game import check_cards_fit, ranker_for, seen_cards
from dealer.engine.pots import Pot, side_pots, split_pot
from dealer.engine.rake import rake_due, take_rake
from dealer.engine.rules import OddChip, PlayBoardClaim
from dealer.engine.state import Award, HandState, Phase, evolve, replace_at

_replace = evolve


def showdown_order(state: HandState) -> tuple[int, ...]:
    """The order in which the players still in the hand show (RULES.md 7; S0, S3; R).

    The last bettor or raiser of the river shows first; if nobody bet there (checked around, or
    everyone all-in) the first player clockwise from the button does. Others follow clockwise,
    except that players contesting a side pot show before a player all-in only for the main pot (R).
    """
    live = state.in_hand()
    if not live:
        return ()
    first = state.river_aggressor if state.river_aggressor in live else live[0]
    clockwise = sorted(live, key=lambda i: (i - first) % state.player_count)
    pots = state.pots()
    depth = {
        i: max((k for k, pot in enumerate(pots) if i in pot.eligible), default=0) for i in live
    }
    return tuple(sorted(clockwise, key=lambda i: -depth[i]))


def next_to_show(state: HandState) -> int | None:
    """The first player in showdown order who has neither shown, mucked nor claimed the board."""
    if state.phase != Phase.SHOWDOWN:
        return None
    for player in showdown_order(state):
        if not _resolved(state, player):
            return player
    return None


def _resolved(state: HandState, player: int) -> bool:
    return state.shown[player] is not None or state.mucked[player] or state.claims[player]


def begin(state: HandState) -> HandState:
    """Betting is over with two or more players left and the board is complete."""
    return settle_if_done(_replace(state, phase=Phase.SHOWDOWN, actor=None))


def betting_finished(state: HandState) -> bool:
    """No more betting can happen in this hand: hands may be tabled now (T 16)."""
    if state.phase == Phase.SHOWDOWN:
        return True
    if state.phase != Phase.DEALING:
        return False
    return sum(1 for i in range(state.player_count) if state.can_act(i)) <= 1


def apply_showdown_action(state: HandState, action: Action) -> HandState:
    """Show, muck or claim the board; the pots are settled once every hand is resolved."""
    player = action.player
    if player is None or not 0 <= player < state.player_count:
        raise RuleViolation("Say which player shows or mucks.", code="player_required")
    if not betting_finished(state):
        raise RuleViolation("Hands are shown once the betting is over.", code="not_showdown")
    name = state.seat_name(player).capitalize()
    if state.folded[player]:
        raise RuleViolation(f"{name} is not in the hand.", code="not_in_hand")
    if _resolved(state, player):
        raise RuleViolation(f"{name} has already shown or mucked.", code="already_resolved")
    if action.kind == Kind.SHOW:
        return _show(state, player, action.cards)
    if action.kind == Kind.MUCK:
        _check_muck(state, player)
        return _replace(state, mucked=replace_at(state.mucked, player, True))
    _check_claim(state, player)
    return _replace(state, claims=replace_at(state.claims, player, True))


def _show(state: HandState, player: int, cards: tuple[Card | None, ...]) -> HandState:
    known = state.holes[player]
    if not cards and known is not None:
        cards = known
    if len(cards) != 2 or any(c is None for c in cards):
        raise RuleViolation(
            "To win, both hole cards must be tabled face up (R): enter both.",
            code="both_cards_required",
        )
    if known is not None and any(
        k is not None and k != c for k, c in zip(known, cards, strict=True)
    ):
        raise RuleViolation(
            f"{state.seat_name(player).capitalize()}'s shown cards differ from the cards dealt.",
            code="cards_conflict",
        )
    if cards != known:  # cards entered at the deal were checked then
        others = replace_at(state.holes, player, None)
        check_cards_fit(state.setup.rules, cards, seen_cards(_replace(state, holes=others)))
    shown = tuple(c for c in cards if c is not None)
    return _replace(
        state,
        shown=replace_at(state.shown, player, shown),
        holes=replace_at(state.holes, player, cards),
    )


def _check_muck(state: HandState, player: int) -> None:
    rules = state.setup.rules
    if rules.table_all_in and any(state.all_in) and betting_finished(state):
        raise RuleViolation(
            "A player is all-in and the betting is over: every hand is tabled (T 16).",
            code="must_table",
        )
    for index, pot in enumerate(_award_pots(state)):
        contenders = [i for i in pot.eligible if not state.mucked[i]]
        if contenders == [player]:
            what = "main pot" if index == 0 else f"side pot {index}"
            raise RuleViolation(
                f"{state.seat_name(player).capitalize()} is the last live hand for the {what} and "
                "wins it without showing.",
                code="last_live_hand",
            )


def _check_claim(state: HandState, player: int) -> None:
    policy = state.setup.rules.play_board_claim
    if policy is PlayBoardClaim.TABLE_BOTH:
        raise RuleViolation(
            "At this table a player playing the board must table both cards "
            "(play_board_claim=table_both).",
            code="must_table",
        )
    if policy is PlayBoardClaim.MUCK_OK and state.raise_count > 1:
        raise RuleViolation(
            "Mucking while playing the board is allowed only after the last "
            "round was checked around or a bet was called (S2).",
            code="claim_not_allowed",
        )
    for run in range(1, state.runs + 1):
        board = state.run_board(run)
        if len(board) < 5 or any(c is None for c in board):
            raise RuleViolation(
                "Enter the whole board before a player claims it.", code="board_unknown"
            )


def settle_if_done(state: HandState) -> HandState:
    """Award every pot once each contender has shown, mucked or claimed the board."""
    if state.phase != Phase.SHOWDOWN:
        return state
    live = state.in_hand()
    # Without a muck the main pot is contested by every live hand: settle only when all of them
    # are resolved (the common case, checked without building the pots).
    if not any(state.mucked) and len(live) > 1 and not all(_resolved(state, i) for i in live):
        return state
    pots = _award_pots(state)
    for pot in pots:
        contenders = [i for i in pot.eligible if not state.mucked[i]]
        if len(contenders) > 1 and not all(_resolved(state, i) for i in contenders):
            return state
    return _award(state, pots)


def award_uncontested(state: HandState) -> HandState:
    """Everyone else folded: the last player wins every chip in the middle unshown (S3), less
    the rake (RULES.md 6.5; none under "no flop, no drop" when it ends before the flop)."""
    winner = state.in_hand()[0]
    rake = _rake(state, state.pot_total)
    amount = state.pot_total - rake
    award = Award(pot=0, amount=amount, winners=(winner,), shares=(amount,), hands=("",), rake=rake)
    stacks = replace_at(state.stacks, winner, state.stacks[winner] + amount)
    return _replace(
        state, phase=Phase.COMPLETE, actor=None, stacks=stacks, awards=(award,), rake=rake
    )


def before_award(state: HandState) -> HandState:
    """The hand as it stood when its pots were about to be pushed: each award's shares taken
    back from its winners' stacks, the rake back in the pots (they are built from what each
    player put in, which the award leaves as it was), no awards. A hand reopened to correct it
    (RULES.md 7) is shown this way until its wrong entry is undone, so that its stacks, all-ins
    and side pots are the hand's, not its old end's. A hand with no award (not over, or void)
    is returned as it is."""
    if not state.awards:
        return state
    stacks = list(state.stacks)
    for award in state.awards:
        for player, share in zip(award.winners, award.shares, strict=True):
            stacks[player] -= share
    return _replace(state, stacks=tuple(stacks), awards=(), rake=0)


def _rake(state: HandState, pot: int) -> int:
    """The rake the rules take from this hand's pots (RULES.md 6.5): a flop is seen once three
    board cards are out."""
    setup = state.setup
    return rake_due(setup.rules, pot, flop_seen=len(state.board) >= 3, unit=setup.unit)


def _award_pots(state: HandState) -> tuple[Pot, ...]:
    # A mucked hand gives up its claim, exactly like a fold, for the award.
    out = tuple(f or m for f, m in zip(state.folded, state.mucked, strict=True))
    return side_pots(state.contributed, out, state.all_in, state.dead)


def _award(state: HandState, pots: Sequence[Pot]) -> HandState:
    """Award the highest side pot first and the main pot last, each split on its own (S3; R),
    once the rake is out of them, main pot first (RULES.md 6.5). Run twice (RIT), each pot is
    split in halves first, the odd chip to run 1, and each half goes by its own run's board;
    the pot's rake is written on run 1's award."""
    rake = _rake(state, sum(pot.amount for pot in pots))
    pots, taken = take_rake(pots, rake)
    ranker = ranker_for(state.setup.rules)
    values: dict[tuple[int, int], int] = {}
    awards: list[Award] = []
    stacks = list(state.stacks)
    unit = state.setup.unit
    for index in reversed(range(len(pots))):
        pot = pots[index]
        contenders = [i for i in pot.eligible if not state.mucked[i]]
        if state.runs == 2:
            halves = split_pot(pot.amount, (1, 2), unit)
            parts = [(1, halves[1], taken[index]), (2, halves[2], 0)]
        else:
            parts = [(0, pot.amount, taken[index])]
        for run, amount, pot_rake in parts:
            if len(contenders) == 1:
                winners = contenders
            else:
                for i in contenders:
                    if (run, i) not in values:
                        values[run, i] = ranker.value(_cards_for(state, i, run))
                best = max(values[run, i] for i in contenders)
                winners = [i for i in contenders if values[run, i] == best]
            ordered = _odd_chip_order(state, winners, run)
            shares = split_pot(amount, ordered, unit)
            for player, share in shares.items():
                stacks[player] += share
            awards.append(
                Award(
                    pot=index,
                    amount=amount,
                    winners=tuple(ordered),
                    shares=tuple(shares[p] for p in ordered),
                    hands=tuple(
                        _describe(state, p, run) if len(contenders) > 1 else "" for p in ordered
                    ),
                    rake=pot_rake,
                    run=run,
                )
            )
    return _replace(
        state, phase=Phase.COMPLETE, stacks=tuple(stacks), awards=tuple(awards), rake=rake
    )


def _cards_for(state: HandState, player: int, run: int = 0) -> list[Card]:
    """The player's cards with the board of `run` (0 or 1: the board; 2: the second run's)."""
    board = [c for c in state.run_board(run or 1) if c is not None]
    if len(board) < 5:
        raise RuleViolation("Enter the whole board to settle the showdown.", code="board_unknown")
    if state.claims[player]:
        return board
    shown = state.shown[player]
    assert shown is not None
    return [*shown, *board]


def _describe(state: HandState, player: int, run: int = 0) -> str:
    best = ranker_for(state.setup.rules).best(_cards_for(state, player, run))
    return f"{best.description} (plays the board)" if state.claims[player] else best.description


def _odd_chip_order(state: HandState, winners: Sequence[int], run: int = 0) -> list[int]:
    """Odd chips go clockwise from the button (S3; R; T), or to the highest card by suit (R)."""
    ordered = sorted(winners)  # index order is clockwise from the button
    if state.setup.rules.odd_chip is OddChip.HIGH_CARD_BY_SUIT and len(ordered) > 1:
        ranker = ranker_for(state.setup.rules)

        def top_card(player: int) -> tuple[int, int]:
            cards = ranker.best(_cards_for(state, player, run)).cards
            best = max(cards, key=lambda c: (c.rank, suit_strength(c.suit)))
            return best.rank, suit_strength(best.suit)

        ordered.sort(key=top_card, reverse=True)
    return ordered
