"""Showdown: who shows first, showing and mucking, and the award of every pot (RULES.md 6-7)."""

from __future__ import annotations

from collections.abc import Sequence

from dealer.engine.actions import BETTING_KINDS, Action, Kind
from dealer.engine.cards import Card, suit_strength
from dealer.engine.errors import RuleViolation
from dealer.engine.game import check_cards_fit, ranker_for, seen_cards
from dealer.engine.pots import Pot, side_pots, split_pot
from dealer.engine.rake import drop_due, rake_due, take_rake
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
        return _check_pushes(_show(state, player, action.cards))
    if action.kind == Kind.MUCK:
        if pushes(state):  # a muck would renumber the pots the taps named
            raise RuleViolation(
                "A pot has been pushed by tap: tap the winners of the other pots.",
                code="pushing_started",
            )
        _check_muck(state, player)
        return _replace(state, mucked=replace_at(state.mucked, player, True))
    _check_claim(state, player)
    return _check_pushes(_replace(state, claims=replace_at(state.claims, player, True)))


def _check_pushes(state: HandState) -> HandState:
    """A hand tabled after a pot was pushed by tap may not go against the push."""
    pushed = pushes(state)
    if pushed:
        pots = _award_pots(state)
        for index, winners in pushed.items():
            _check_tap_agrees(state, pots, index, winners)
    return state


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


def claim_allowed(state: HandState) -> bool:
    """Whether a player playing the board may claim it without tabling both cards at this
    table (`play_board_claim`; the tablet offers the claim only then)."""
    return state.setup.rules.play_board_claim is not PlayBoardClaim.TABLE_BOTH


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
    """Award every pot once each has its winners: pushed by the dealer's tap, or every contender
    has shown, mucked or claimed the board."""
    if state.phase != Phase.SHOWDOWN:
        return state
    pushed = pushes(state)
    live = state.in_hand()
    # Without a muck or a push the main pot is contested by every live hand: settle only when all
    # of them are resolved (the common case, checked without building the pots).
    if (
        not pushed
        and not any(state.mucked)
        and len(live) > 1
        and not all(_resolved(state, i) for i in live)
    ):
        return state
    pots = _award_pots(state)
    for index, pot in enumerate(pots):
        contenders = [i for i in pot.eligible if not state.mucked[i]]
        if index in pushed or len(contenders) == 1:
            continue
        if not all(_resolved(state, i) for i in contenders):
            return state
    _check_pushes(state)  # board cards revealed since a tap may go against it
    return _award(state, pots)


def pushes(state: HandState) -> dict[int, tuple[int, ...]]:
    """The pots the dealer pushed by tap so far (pot index: winners), read from the hand's log.
    A push that names no pot went to every pot still unpushed that all its winners are in."""
    taps = _taps(state)
    if not taps:
        return {}
    pots = _award_pots(state)  # no muck after a push (`pushing_started`): the pots stay put
    pushed: dict[int, tuple[int, ...]] = {}
    for tap in taps:
        for index in [tap.amount] if tap.amount is not None else _covered(state, pots, pushed, tap):
            pushed[index] = tap.winners
    return pushed


def _taps(state: HandState) -> list[Action]:
    """The pushes in the log, oldest first. They all come after the last betting action or board
    deal, so only the log's tail is read: this runs at every show of every hand."""
    taps = []
    for action in reversed(state.log):
        if action.kind is Kind.AWARD:
            taps.append(action)
        elif action.kind in _BEFORE_PUSHES:
            break
    taps.reverse()
    return taps


_BEFORE_PUSHES = BETTING_KINDS | {Kind.DEAL_BOARD}


def _covered(
    state: HandState, pots: Sequence[Pot], pushed: dict[int, tuple[int, ...]], tap: Action
) -> list[int]:
    """The pots a push with no pot named goes to: not pushed yet, and every winner is in them.
    The best hand among a pot's players also beats the players of every pot above it that it
    is in, so one tap on the best hand pushes all of them."""
    return [
        index
        for index, pot in enumerate(pots)
        if index not in pushed
        and all(w in pot.eligible and not state.mucked[w] for w in tap.winners)
    ]


def showdown_pots(state: HandState) -> tuple[Pot, ...]:
    """The pots as they are awarded, numbered as an award names them (0 the main pot): a mucked
    hand has given up its claim like a fold."""
    return _award_pots(state)


def can_push(state: HandState) -> bool:
    """The dealer may push pots by tap now: the betting is over and the hand is run once (an
    all-in run-out still to deal counts: its board is dealt unentered at the tap)."""
    return (
        betting_finished(state)
        and state.runs == 1
        and not state.is_over
        and len(state.in_hand()) > 1
    )


def check_award(state: HandState, action: Action) -> HandState:
    """Showdown by tap (docs/rules.md "Showdown by tap"): the dealer pushes one pot to one or more
    winners once the betting is over. The winners must be in that pot, and a tap may not go
    against the hands tabled with the cards entered: the engine decides what it can see."""
    if state.phase != Phase.SHOWDOWN:
        raise RuleViolation("Pots are pushed once the betting is over.", code="not_showdown")
    if state.runs == 2:
        raise RuleViolation(
            "A hand run twice is settled from its two boards: show or muck each hand.",
            code="runs_need_boards",
        )
    pots = _award_pots(state)
    winners = action.winners
    if not winners or len(set(winners)) != len(winners):
        raise RuleViolation(
            "Tap each winner of the pot once (two or more split it).", code="winners_required"
        )
    index = action.amount
    if index is None:
        covered = _covered(state, pots, pushes(state), action)
        if not covered:
            raise RuleViolation(
                "Every pot these players are in has been pushed: tap a pot's winner.",
                code="not_eligible",
            )
        for pot in covered:
            _check_pot_winners(state, pots, pot, winners)
        return state
    if not 0 <= index < len(pots):
        raise RuleViolation(
            f"Say which pot is pushed: 0 for the main pot, up to {len(pots) - 1}.", code="bad_pot"
        )
    if index in pushes(state):
        raise RuleViolation(
            f"The {_pot_name(index)} has already been pushed.", code="already_pushed"
        )
    _check_pot_winners(state, pots, index, winners)
    return state


def _check_pot_winners(
    state: HandState, pots: Sequence[Pot], index: int, winners: Sequence[int]
) -> None:
    what = _pot_name(index)
    contenders = [i for i in pots[index].eligible if not state.mucked[i]]
    for player in winners:
        if player not in contenders:
            who = state.seat_name(player) if 0 <= player < state.player_count else "That player"
            raise RuleViolation(
                f"{who.capitalize()} cannot win the {what}: not in it, folded or mucked.",
                code="not_eligible",
            )
    _check_tap_agrees(state, pots, index, winners)


def _pot_name(index: int) -> str:
    return "main pot" if index == 0 else f"side pot {index}"


def _check_tap_agrees(
    state: HandState, pots: Sequence[Pot], index: int, winners: Sequence[int]
) -> None:
    """A tapped winner whose hand the engine knows must hold the best hand tabled in that pot:
    no hand shown by a player left out beats or ties it, and winners who split hold equal hands.
    A hand the engine cannot see (cards not entered) is the dealer's word."""
    contenders = [i for i in pots[index].eligible if not state.mucked[i]]
    ranker = ranker_for(state.setup.rules)
    values = {
        p: ranker.value(cards)
        for p in contenders
        if (cards := _known_hand(state, p, tapped=p in winners)) is not None
    }
    known = [w for w in winners if w in values]
    if not known:
        return
    what = _pot_name(index)
    best = max(values[w] for w in known)
    for w in known:
        if values[w] < best:
            raise RuleViolation(
                f"{state.seat_name(w).capitalize()}'s hand does not tie the best hand pushed: "
                f"only the best hand wins the {what}.",
                code="award_disagrees",
            )
    for p in contenders:
        if p in winners or p not in values or values[p] < best:
            continue
        verb = "ties" if values[p] == best else "beats"
        raise RuleViolation(
            f"{state.seat_name(p).capitalize()} showed a hand that {verb} the winner's: "
            f"{'split' if verb == 'ties' else 'push'} the {what} "
            f"{'with' if verb == 'ties' else 'to'} {state.seat_name(p)}.",
            code="award_disagrees",
        )


def _known_hand(state: HandState, player: int, *, tapped: bool, run: int = 0) -> list[Card] | None:
    """The player's cards with the whole board of `run`, when the engine knows them: a hand
    tabled (shown or playing the board), or for a tapped winner the hole cards entered at the
    deal."""
    board = [c for c in state.run_board(run or 1) if c is not None]
    if len(board) < 5:
        return None
    if state.claims[player]:
        return board
    cards = state.shown[player]
    if cards is None and tapped:
        holes = state.holes[player]
        if holes is not None and all(c is not None for c in holes):
            cards = tuple(c for c in holes if c is not None)
    return None if cards is None else [*cards, *board]


def award_uncontested(state: HandState) -> HandState:
    """Everyone else folded: the last player wins every chip in the middle unshown (S3), less
    the rake (RULES.md 6.5; none under "no flop, no drop" when it ends before the flop)."""
    winner = state.in_hand()[0]
    rake, drop = _rake(state, state.pot_total)
    amount = state.pot_total - rake
    award = Award(pot=0, amount=amount, winners=(winner,), shares=(amount,), hands=("",), rake=rake)
    stacks = replace_at(state.stacks, winner, state.stacks[winner] + amount)
    return _replace(
        state,
        phase=Phase.COMPLETE,
        actor=None,
        stacks=stacks,
        awards=(award,),
        rake=rake,
        drop=drop,
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
    return _replace(state, stacks=tuple(stacks), awards=(), rake=0, drop=0)


def _rake(state: HandState, pot: int) -> tuple[int, int]:
    """What the house takes from this hand's pots (RULES.md 6.5), rake and promotional drop
    together, and the drop's part of it: a flop is seen once three board cards are out."""
    setup = state.setup
    flop_seen = len(state.board) >= 3
    rake = rake_due(setup.rules, pot, flop_seen=flop_seen, unit=setup.unit)
    drop = drop_due(setup.rules, pot, flop_seen=flop_seen, rake=rake, unit=setup.unit)
    return rake + drop, drop


def _award_pots(state: HandState) -> tuple[Pot, ...]:
    # A mucked hand gives up its claim, exactly like a fold, for the award.
    out = tuple(f or m for f, m in zip(state.folded, state.mucked, strict=True))
    return side_pots(state.contributed, out, state.all_in, state.dead)


def _award(state: HandState, pots: Sequence[Pot]) -> HandState:
    """Award the highest side pot first and the main pot last, each split on its own (S3; R),
    once the rake is out of them, main pot first (RULES.md 6.5). Run twice (RIT), each pot is
    split in halves first, the odd chip to run 1, and each half goes by its own run's board;
    the pot's rake is written on run 1's award."""
    rake, drop = _rake(state, sum(pot.amount for pot in pots))
    pots, taken = take_rake(pots, rake)
    ranker = ranker_for(state.setup.rules)
    values: dict[tuple[int, int], int] = {}
    awards: list[Award] = []
    stacks = list(state.stacks)
    unit = state.setup.unit
    pushed = pushes(state)
    for index in reversed(range(len(pots))):
        pot = pots[index]
        contenders = [i for i in pot.eligible if not state.mucked[i]]
        if index in pushed:
            awards.append(_pushed_award(state, index, pot.amount, pushed[index], taken[index]))
            for player, share in zip(awards[-1].winners, awards[-1].shares, strict=True):
                stacks[player] += share
            continue
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
        state,
        phase=Phase.COMPLETE,
        stacks=tuple(stacks),
        awards=tuple(awards),
        rake=rake,
        drop=drop,
    )


def _pushed_award(
    state: HandState, index: int, amount: int, winners: Sequence[int], rake: int
) -> Award:
    """A pot pushed by tap: split in odd-chip order, each winner's hand named when it is known."""
    ordered = _odd_chip_order(state, winners)
    shares = split_pot(amount, ordered, state.setup.unit)
    ranker = ranker_for(state.setup.rules)
    hands = []
    for player in ordered:
        cards = _known_hand(state, player, tapped=True)
        hands.append("" if cards is None else ranker.best(cards).description)
    return Award(
        pot=index,
        amount=amount,
        winners=tuple(ordered),
        shares=tuple(shares[p] for p in ordered),
        hands=tuple(hands),
        rake=rake,
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
    by_suit = state.setup.rules.odd_chip is OddChip.HIGH_CARD_BY_SUIT and len(ordered) > 1
    # A pot pushed by tap without the cards entered goes by seat position (docs/rules.md).
    known = {p: _known_hand(state, p, tapped=True, run=run) for p in ordered} if by_suit else {}
    if by_suit and all(cards is not None for cards in known.values()):
        ranker = ranker_for(state.setup.rules)

        def top_card(player: int) -> tuple[int, int]:
            hand = known[player]
            assert hand is not None
            cards = ranker.best(hand).cards
            best = max(cards, key=lambda c: (c.rank, suit_strength(c.suit)))
            return best.rank, suit_strength(best.suit)

        ordered.sort(key=top_card, reverse=True)
    return ordered
