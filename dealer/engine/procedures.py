"""Dealer-error procedures (RULES.md section 8): what the dealer does and what the engine records.

The dealer picks what went wrong (a `Trigger`); `remedy(state, trigger)` answers with the steps to
follow, read aloud at the table, and the engine actions that record the outcome. The answer
depends on the table's rule options (`r_misdeal_triggers`, `early_exposed_misdeal`,
`allow_short_card_fix`, `redeal_cut`, `premature_river_burn`) and on the hand: before the action
threshold (RULES.md 5.6) a misdeal voids the hand; after it play goes on (R).

Board cards are accepted only when they are due, so cards turned early (a premature flop, turn or
river) were never entered: their remedy has no engine action, only steps. Board cards that were
entered and must be dealt again (a flop with too many cards, a burn error found before that
street's betting) are taken back with `take_back_board`.

The floor's own decisions are triggers too (`floor_misdeal`, `floor_dead_hand`): their remedy is
the engine's `misdeal` or `kill` with the dealer's note as the reason, refused here already when
the engine would refuse the action. What each trigger asks for is data in `triggers.py`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from dealer.engine.actions import (
    Action,
    Kind,
    kill,
    misdeal,
    out_of_turn,
    premature,
    set_aside,
    take_back_board,
)
from dealer.engine.actions import burn as burn_action
from dealer.engine.betting import to_call
from dealer.engine.cards import Card, CardError, parse_cards_unknown
from dealer.engine.errors import RuleViolation
from dealer.engine.hand import apply, threshold_passed
from dealer.engine.out_of_turn import skipped
from dealer.engine.rules import ActionThreshold, EarlyExposedMisdeal
from dealer.engine.state import STREET_NAMES, HandState, Phase
from dealer.engine.triggers import (
    TRIGGER_LABELS,
    TRIGGERS,
    Effect,
    Group,
    PlayerNeed,
    Question,
    Trigger,
    TriggerInfo,
    trigger_info,
)

__all__ = [
    "TRIGGERS",
    "TRIGGER_LABELS",
    "Effect",
    "Group",
    "PlayerNeed",
    "Question",
    "Remedy",
    "Trigger",
    "TriggerInfo",
    "remedy",
    "trigger_info",
]


@dataclass(frozen=True, slots=True, kw_only=True)
class Remedy:
    """A procedure for one dealer error: the steps in order, and the engine actions to apply.

    `rule` names the source (S2, S4, R, T); `option` the rule keys that decided it, with their
    values ("early_exposed_misdeal=first"), or None when no option is involved.
    """

    trigger: Trigger
    title: str
    steps: tuple[str, ...]
    effect: Effect
    actions: tuple[Action, ...] = ()
    rule: str
    option: str | None = None
    player: int | None = None

    def numbered(self) -> str:
        """The steps as numbered lines, for printing or reading aloud."""
        return "\n".join(f"{n}. {step}" for n, step in enumerate(self.steps, start=1))


@dataclass(frozen=True, slots=True, kw_only=True)
class _Case:
    state: HandState
    trigger: Trigger
    player: int | None
    details: Mapping[str, object]

    @property
    def late(self) -> bool:
        return threshold_passed(self.state)

    @property
    def who(self) -> str:
        if self.player is None:
            return "the player"
        return f"seat {self.state.setup.players[self.player].seat}"

    @property
    def subject(self) -> str:
        """`who` at the start of a sentence."""
        return self.who[0].upper() + self.who[1:]

    def need_player(self) -> int:
        if self.player is None:
            raise RuleViolation(
                f"Say which player this is for: {TRIGGER_LABELS[self.trigger].lower()}.",
                code="player_required",
            )
        return self.player

    def choice(self, key: str, allowed: tuple[str, ...]) -> str | None:
        value = self.details.get(key)
        if value is None:
            return None
        if isinstance(value, str) and value in allowed:
            return value
        raise RuleViolation(
            f"'{key}' must be one of {', '.join(allowed)}, not '{value}'.", code="bad_details"
        )

    def make(
        self,
        title: str,
        steps: list[str],
        effect: Effect,
        *,
        rule: str,
        option: str | None = None,
        actions: tuple[Action, ...] = (),
    ) -> Remedy:
        return Remedy(
            trigger=self.trigger,
            title=title,
            steps=tuple(steps),
            effect=effect,
            actions=actions,
            rule=rule,
            option=option or None,
            player=self.player,
        )


def remedy(
    state: HandState,
    trigger: Trigger,
    *,
    player: int | None = None,
    details: Mapping[str, object] | None = None,
) -> Remedy:
    """The procedure for `trigger` in this hand, under its rule options (RULES.md 8).

    `player` is the player concerned (index in the hand), needed for a wrong card count, a joker
    dealt face down and two or more extra cards after the threshold. `details`:
    `count` = "too_many" | "too_few" (wrong card count, required); `acted` = bool (a face-down
    joker: the holder acted before reporting it; by default whether he has acted); `burn` =
    "missed" | "double" (a burn error); `card` = the exposed hole card (its entered value is
    forgotten so the replacement can be entered); `note` = the dealer's reason for a floor
    decision. What each trigger asks for is `TRIGGERS[trigger]`; a player it requires is
    refused as missing (`player_required`) whatever the hand. Pure: the state is not changed;
    apply `remedy(...).actions` in order to record the outcome.
    """
    if state.is_over:
        raise RuleViolation("This hand is over: start the next hand.", code="hand_over")
    if player is not None and not 0 <= player < state.player_count:
        raise RuleViolation(f"There is no player {player + 1} in this hand.", code="bad_player")
    try:
        chosen = Trigger(trigger)
    except ValueError as error:
        names = ", ".join(t.value for t in Trigger)
        raise RuleViolation(
            f"Unknown dealer error '{trigger}': use one of {names}.", code="unknown_trigger"
        ) from error
    case = _Case(state=state, trigger=chosen, player=player, details=details or {})
    if TRIGGERS[chosen].player is PlayerNeed.REQUIRED:
        case.need_player()
    return _HANDLERS[case.trigger](case)


# --- misdeal or play on ---------------------------------------------------------------------------


def _threshold_words(state: HandState) -> str:
    if state.setup.rules.action_threshold is ActionThreshold.TWO_ACTED:
        return "two players have acted after the blinds (action_threshold=two_acted)"
    return "substantial action has taken place (action_threshold=tda_substantial)"


def _options(case: _Case, *keys: str) -> str:
    values = case.state.setup.rules.as_dict()
    return ", ".join(f"{key}={_text(values[key])}" for key in keys)


def _text(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def _void(case: _Case, rule: str, keys: tuple[str, ...], first: list[str] | None = None) -> Remedy:
    """A misdeal (T): the hand is void and every chip goes back; redeal with the same button."""
    label = TRIGGER_LABELS[case.trigger]
    steps = [
        *(first or []),
        f"Stop play: this is a misdeal ({label.lower()}).",
        "Return every bet to its owner; the same blinds and antes are posted for the redeal.",
        "Gather all the cards, shuffle and cut.",
        "Redeal with the same button, blinds and players.",
    ]
    return case.make(
        f"Misdeal: {label.lower()}",
        steps,
        Effect.VOID_HAND,
        actions=(misdeal(label),),
        rule=rule,
        option=_options(case, *keys, "action_threshold"),
    )


def _play_on(
    case: _Case, rule: str, steps: list[str], option: str | None = None, title: str = ""
) -> Remedy:
    label = TRIGGER_LABELS[case.trigger]
    return case.make(
        title or f"Play on: {label.lower()}", steps, Effect.NONE, rule=rule, option=option
    )


def _too_late(case: _Case) -> str:
    return f"Too late for a misdeal: {_threshold_words(case.state)}. Play goes on (R)."


def _late_count(case: _Case) -> str:
    return (
        f"{case.subject} has the wrong number of hole cards, found too late for a misdeal: "
        f"{_threshold_words(case.state)} (S2)."
    )


def _dead_hand(case: _Case, rule: str, why: str, option: str | None = None) -> Remedy:
    player = case.need_player()
    if case.state.folded[player]:
        return _play_on(case, rule, [f"The hand of {case.who} is already out of play.", why])
    steps = [
        why,
        f"Kill the hand of {case.who}: it is dead, and every chip {case.who} has put in "
        "(blinds, antes and bets) stays in the pot.",
        "Play goes on without that hand.",
    ]
    return case.make(
        f"Dead hand: {case.who}",
        steps,
        Effect.DEAD_HAND,
        actions=(kill(player, TRIGGER_LABELS[case.trigger]),),
        rule=rule,
        option=option,
    )


# --- hole cards -----------------------------------------------------------------------------------


def _named_cards(case: _Case) -> tuple[Card | None, ...]:
    """The cards the dealer named (`details["cards"]`, or `"card"` for one), as many as the
    trigger concerns (`TriggerInfo.cards`): unknown ones are None ("??" or not given). Refused
    when they are not cards or when there are more of them."""
    count = TRIGGERS[case.trigger].cards
    value = case.details.get("cards", case.details.get("card"))
    if value is None or value == "":
        return (None,) * count
    if isinstance(value, Card):
        cards: tuple[Card | None, ...] = (value,)
    else:
        text = " ".join(str(item) for item in value) if isinstance(value, list) else str(value)
        try:
            cards = parse_cards_unknown(text)
        except CardError as error:
            raise RuleViolation(f"'{text}' is not a card: {error}", code="bad_details") from error
    if len(cards) > count:
        raise RuleViolation(
            f"Name at most {count} card{'s' if count > 1 else ''} for this procedure.",
            code="bad_details",
        )
    return cards + (None,) * (count - len(cards))


def _owner(case: _Case, card: Card | None) -> int | None:
    """The player concerned: the one named, else the one whose entered hand holds the card."""
    if case.player is not None or card is None:
        return case.player
    for player, hole in enumerate(case.state.holes):
        if hole is not None and card in hole:
            return player
    return None


def _replace(
    case: _Case,
    rule: str,
    steps: list[str],
    option: str | None = None,
    title: str = "",
    actions: tuple[Action, ...] = (),
) -> Remedy:
    """A card replaced: `actions` record where the replaced card goes (the ledger)."""
    label = TRIGGER_LABELS[case.trigger]
    entered = case.player is not None and any(case.state.holes[case.player] or ())
    if entered and any(action.player is not None for action in actions):
        steps = [*steps, f"Enter the new hole card of {case.who} once it is known."]
    return case.make(
        title or f"Replace the card: {label.lower()}",
        steps,
        Effect.REPLACE_CARD,
        actions=_checked(case, actions),
        rule=rule,
        option=option,
    )


def _checked(case: _Case, actions: tuple[Action, ...]) -> tuple[Action, ...]:
    """The remedy's actions, refused now if the engine would refuse them (a card named that is
    already elsewhere, ...), so the preview says so before the dealer confirms."""
    state = case.state
    for action in actions:
        state = apply(state, action)
    return actions


def _exposed_steps(case: _Case) -> list[str]:
    return [
        f"Finish the deal; {case.who} may not keep the exposed card.",
        f"Give {case.who} the top card of the stub in its place.",
        "Put the exposed card face up on top of the stub.",
        "When the preflop betting is over, use the exposed card as the burn card for the flop.",
    ]


def _exposed_replaced(case: _Case, rule: str, option: str | None) -> Remedy:
    """S2: the player may not keep the card; it becomes the burn card for the flop."""
    if case.state.street > 0:
        return _play_on(
            case,
            rule,
            ["The deal is over: this procedure is for a card exposed on the deal.", _floor()],
        )
    first = [_too_late(case)] if case.late else []
    (card,) = _named_cards(case)
    player = _owner(case, card)
    if player is not None and player != case.player:
        case = dataclasses.replace(case, player=player)
    # S2: the exposed card leaves the hand and lies face up on the stub: the flop's burn.
    action = burn_action((card,), player=player, reason=TRIGGER_LABELS[case.trigger])
    return _replace(case, rule, [*first, *_exposed_steps(case)], option, actions=(action,))


def _floor() -> str:
    return "Play goes on; call the floor if a player disputes it."


def _first_exposed(case: _Case) -> Remedy:
    """S4: the first card exposed is a misdeal; R: the first or second; S2: replaced."""
    setting = case.state.setup.rules.early_exposed_misdeal
    key = f"early_exposed_misdeal={setting}"
    if setting is EarlyExposedMisdeal.NONE or case.late:
        return _exposed_replaced(case, "S2", key)
    rule = "S4" if setting is EarlyExposedMisdeal.FIRST else "R"
    return _void(case, rule, ("early_exposed_misdeal",), ["Take the exposed card back."])


def _second_exposed(case: _Case) -> Remedy:
    setting = case.state.setup.rules.early_exposed_misdeal
    key = f"early_exposed_misdeal={setting}"
    if setting is not EarlyExposedMisdeal.FIRST_OR_SECOND or case.late:
        return _exposed_replaced(case, "S2, S4", key)
    return _void(case, "R", ("early_exposed_misdeal",), ["Take the exposed card back."])


def _other_exposed(case: _Case) -> Remedy:
    return _exposed_replaced(case, "S2, S4", None)


def _two_exposed(case: _Case) -> Remedy:
    if case.late:
        return _play_on(case, "S2, S4; R", [_too_late(case), _floor()])
    return _void(case, "S2, S4", ())


def _own_card(case: _Case) -> Remedy:
    steps = [
        "A card a player exposes himself is not a dealer error: it plays (R).",
        "Do not replace it; the deal and the betting go on.",
    ]
    return _play_on(case, "R", steps, title="Play on: the exposed card plays")


def _boxed_steps(which: str) -> list[str]:
    return [
        f"Treat {which} boxed card (face up in the stub) as scrap paper: set it aside, out of "
        "play.",
        "The next card in the stub takes its place.",
        "If a boxed card already went face down to a player, replace it with the top card of "
        "the stub once the round of dealing is complete (R).",
    ]


def _boxed(case: _Case) -> Remedy:
    (card,) = _named_cards(case)
    player = _owner(case, card) if case.state.street == 0 else None
    if player is not None and player != case.player:
        case = dataclasses.replace(case, player=player)
    # R: scrap paper, out of play for the rest of the hand.
    action = set_aside((card,), None, player=player, reason=TRIGGER_LABELS[case.trigger])
    return _replace(case, "S2; R", _boxed_steps("the"), actions=(action,))


def _two_boxed(case: _Case) -> Remedy:
    rules = case.state.setup.rules
    if rules.r_misdeal_triggers and not case.late:
        return _void(case, "R; T", ("r_misdeal_triggers",))
    first = (
        _too_late(case)
        if case.late
        else "Boxed cards are not a misdeal at this table (r_misdeal_triggers=false)."
    )
    steps = [first, *_boxed_steps("each")]
    cards = tuple(card for card in _named_cards(case) if card is not None) or (None, None)
    action = set_aside(cards, None, reason=TRIGGER_LABELS[case.trigger])
    option = _options(case, "r_misdeal_triggers", "action_threshold")
    return _replace(case, "S2; R", steps, option, actions=(action,))


def _joker_up(case: _Case) -> Remedy:
    steps = [
        "The joker is scrap paper: take it out of the deal.",
        "The next card in the stub takes its place.",
        "A joker is never a misdeal (R).",
    ]
    return _replace(case, "S2; R", steps)


def _joker_down(case: _Case) -> Remedy:
    """S2: replaced after the deal, unless the holder acted first: then his hand is fouled."""
    player = case.need_player()
    acted = case.details.get("acted")
    if acted is None:
        acted = case.state.street > 0 or case.state.acted[player] >= 0
    elif not isinstance(acted, bool):
        raise RuleViolation(f"'acted' must be true or false, not '{acted}'.", code="bad_details")
    if acted:
        why = f"{case.subject} acted before reporting the joker: the hand is fouled (S2)."
        return _dead_hand(case, "S2", why)
    steps = [
        f"Leave the joker with {case.who} until the deal is complete.",
        f"Then give {case.who} the top card of the stub for the joker, and take the joker out "
        "of the deck.",
        "A joker is never a misdeal (R).",
    ]
    return _replace(case, "S2; R", steps)


# --- wrong number of hole cards ----------------------------------------------------------------


def _short_card_fix(case: _Case, player: int) -> bool:
    """R; T: the button, one card short and before acting, takes the top card of the stub."""
    state = case.state
    return (
        state.setup.rules.allow_short_card_fix
        and player == state.setup.button_index
        and state.street == 0
        and state.acted[player] < 0
    )


def _wrong_count(case: _Case) -> Remedy:
    player = case.need_player()
    count = case.choice("count", ("too_many", "too_few"))
    if count is None:
        raise RuleViolation(
            f"Say whether {case.who} has too many or too few hole cards.", code="details_required"
        )
    if count == "too_few" and _short_card_fix(case, player):
        steps = [
            f"{case.subject} is the button and one card short, and has not acted: "
            "give him the top card of the stub (R; T).",
            "This keeps the order of the deal: the hand goes on.",
        ]
        option = _options(case, "allow_short_card_fix")
        return _replace(case, "R; T", steps, option, f"Complete the hand of {case.who}")
    first = []
    if count == "too_few":
        first = ["Only the button may take a missing card, before acting (T)."]
        if not case.state.setup.rules.allow_short_card_fix:
            first = ["A short hand is not completed at this table (allow_short_card_fix=false)."]
    keys = ("allow_short_card_fix",) if count == "too_few" else ()
    if case.late:
        why = _late_count(case)
        option = _options(case, *keys, "action_threshold")
        return _dead_hand(case, "S2; R", " ".join([*first, why]), option)
    return _void(case, "S2", keys, first)


def _extra_around(case: _Case) -> Remedy:
    """R: the first player got a third card; it is taken back and used as the burn."""
    if case.player is None:  # the first player dealt is the one left of the button
        case = dataclasses.replace(case, player=0)
    if case.late:
        why = _late_count(case)
        return _dead_hand(case, "S2; R", why, _options(case, "action_threshold"))
    steps = [
        f"Take back the extra card: the third card {case.who} received, without showing it.",
        "Use it as the burn card for the flop.",
        "The hand goes on; this is not a misdeal (R).",
    ]
    action = burn_action(_named_cards(case), reason=TRIGGER_LABELS[case.trigger])
    return case.make(
        "Take back the extra card",
        steps,
        Effect.REPLACE_CARD,
        actions=_checked(case, (action,)),
        rule="R",
    )


def _two_extra(case: _Case) -> Remedy:
    rules = case.state.setup.rules
    if case.late:
        why = _late_count(case)
        return _dead_hand(case, "S2; R", why, _options(case, "action_threshold"))
    if rules.r_misdeal_triggers:
        return _void(case, "R", ("r_misdeal_triggers",))
    # Without R's list, S2's wrong-card-count rule still makes it a misdeal.
    first = ["Players hold the wrong number of hole cards (S2)."]
    return _void(case, "S2", ("r_misdeal_triggers",), first)


_R_ONLY_EXTRA = {
    Trigger.BUTTON_OUT_OF_PLACE: "Put the button in its right place before the next hand.",
    Trigger.EMPTY_OR_INELIGIBLE_SEAT_DEALT_IN: "Cards dealt to an empty seat are dead: muck "
    "them. For an ineligible player, the floor decides whether the hand plays.",
    Trigger.ELIGIBLE_PLAYER_DEALT_OUT: "The player dealt out sits out this hand.",
}


def _r_only(case: _Case) -> Remedy:
    """R's extra misdeal triggers, used only with r_misdeal_triggers=true (RULES.md 8)."""
    rules = case.state.setup.rules
    if rules.r_misdeal_triggers and not case.late:
        return _void(case, "R", ("r_misdeal_triggers",))
    if case.late:
        first = _too_late(case)
    else:
        first = "This is not a misdeal at this table (r_misdeal_triggers=false)."
    steps = [first, _floor()]
    if case.trigger in _R_ONLY_EXTRA:
        steps.insert(1, _R_ONLY_EXTRA[case.trigger])
    return _play_on(case, "R", steps, _options(case, "r_misdeal_triggers", "action_threshold"))


# --- board cards ---------------------------------------------------------------------------------


def _mix(case: _Case, what: str) -> str:
    """The reshuffle of set-aside cards into the stub; the cut follows `redeal_cut` (S4; R)."""
    if case.state.setup.rules.redeal_cut:
        return f"mix {what} with the stub (not the muck or the burn cards), shuffle and cut"
    return f"mix {what} with the stub (not the muck or the burn cards) and shuffle, with no cut"


def _capital(clause: str) -> str:
    return f"{clause[0].upper()}{clause[1:]}."


def _river_deal(case: _Case) -> str:
    if case.state.setup.rules.premature_river_burn:
        return "Burn one card, then deal the river."
    return "Deal the river with no burn."


def _not_entered() -> str:
    return "Nothing was entered for these cards: enter the new ones when they are dealt."


def _taken_back(case: _Case, street: int) -> bool:
    """The street's cards were entered and may still be taken back (no betting on it yet)."""
    if case.state.street != street:
        return False
    try:
        apply(case.state, take_back_board())
    except RuleViolation:
        return False
    return True


def _reshuffle(
    case: _Case,
    title: str,
    steps: list[str],
    rule: str,
    option: str | None,
    *,
    keep_burn: bool = True,
) -> Remedy:
    steps = [*steps, "Take the cards back on the tablet, then enter the cards dealt now."]
    return case.make(
        title,
        steps,
        Effect.RESHUFFLE_BOARD,
        actions=(take_back_board(TRIGGER_LABELS[case.trigger], keep_burn=keep_burn),),
        rule=rule,
        option=option,
    )


def _redeal_flop_steps(case: _Case) -> list[str]:
    return [
        _capital(_mix(case, "the flop cards")),
        "Deal three new flop cards with no new burn: the first burn card stays.",
    ]


def _stands(case: _Case, street: int, rule: str) -> Remedy:
    name = STREET_NAMES[street]
    steps = [f"Betting on the {name} has started (or later cards are out): the {name} stands."]
    return _play_on(case, rule, [*steps, "Call the floor."], title=f"The {name} stands")


def _flop_too_many(case: _Case) -> Remedy:
    """S2, S4: every flop card goes back into the stub; a new flop without a new burn."""
    state = case.state
    option = _options(case, "redeal_cut")
    collect = "Take back every flop card, even if the extra card is known (S4); the burn stays."
    if state.street == 0:
        steps = [collect, *_redeal_flop_steps(case), _not_entered()]
        if state.phase == Phase.BETTING:
            steps[1:1] = [
                "Finish the preflop betting first; deal a new flop only if two or more "
                "players remain."
            ]
        return _play_on(case, "S2, S4", steps, option, "Redeal the flop")
    if _taken_back(case, 1):
        return _reshuffle(
            case, "Redeal the flop", [collect, *_redeal_flop_steps(case)], "S2, S4", option
        )
    return _stands(case, 1, "S2, S4")


def _premature(case: _Case, street: int) -> Remedy | None:
    """None when the street really was dealt early: betting on the street before is under way."""
    state = case.state
    name = STREET_NAMES[street]
    if state.street == street - 1 and state.phase == Phase.BETTING:
        return None
    if state.street == street - 1 and state.phase == Phase.DEALING:
        steps = [
            f"The {STREET_NAMES[street - 1]} betting is over: the {name} is not early.",
            f"Enter the {name} as dealt.",
        ]
        return _play_on(case, "S2", steps, title=f"The {name} is due")
    if state.street < street - 1:
        first = (
            f"The {STREET_NAMES[street - 1]} is not out yet: every board card turned during the "
            f"{state.street_name} betting is a premature {STREET_NAMES[state.street + 1]}."
        )
    else:
        first = f"The {name} was entered after its betting round: it is not early."
    return _play_on(case, "S2", [first, _floor()], title=f"The {name} is not early")


def _premature_flop(case: _Case) -> Remedy:
    other = _premature(case, 1)
    if other is not None:
        return other
    steps = [
        "Set the flop cards aside: they are not in play.",
        "Finish the preflop betting.",
        f"If two or more players remain, {_mix(case, 'the flop cards')}.",
        "Deal three new flop cards with no new burn: the first burn card stays.",
        _not_entered(),
    ]
    option = _options(case, "redeal_cut")
    return _set_aside(case, 1, steps, "S2, S4", option, "Premature flop")


def _set_aside(
    case: _Case, street: int, steps: list[str], rule: str, option: str, title: str
) -> Remedy:
    """Premature board cards: out of play now, back into the stub for a later deal (S2)."""
    cards = _named_cards(case)
    action = premature(cards, street, reason=TRIGGER_LABELS[case.trigger])
    return case.make(
        title,
        steps,
        Effect.SET_ASIDE,
        actions=_checked(case, (action,)),
        rule=rule,
        option=option,
    )


def _premature_turn(case: _Case) -> Remedy:
    other = _premature(case, 2)
    if other is not None:
        return other
    steps = [
        "Take the card out of play; it stays out even if the remaining players fold.",
        "Finish the flop betting.",
        "Burn a card, then turn the next card as the turn (it would have been the river).",
        f"After the turn betting, {_mix(case, 'the card taken out')}.",
        _river_deal(case),
        _not_entered(),
    ]
    option = _options(case, "premature_river_burn", "redeal_cut")
    return _set_aside(case, 2, steps, "S2; R", option, "Premature turn")


def _premature_river(case: _Case) -> Remedy:
    other = _premature(case, 3)
    if other is not None:
        return other
    steps = [
        "Take the card out of play.",
        "Finish the turn betting.",
        f"Then {_mix(case, 'the card taken out')}.",
        _river_deal(case),
        _not_entered(),
    ]
    option = _options(case, "premature_river_burn", "redeal_cut")
    return _set_aside(case, 3, steps, "S2; R", option, "Premature river")


def _either(burn: str | None, steps: Mapping[str, str]) -> list[str]:
    """The step for the burn error named, or both when the dealer did not say which."""
    if burn:
        return [steps[burn]]
    missed, double = (steps[key][0].lower() + steps[key][1:] for key in ("missed", "double"))
    return [f"If a burn was missed, {missed}", f"If two cards were burned, {double}"]


def _burn(case: _Case) -> Remedy:
    """R: a missed or double burn is fixed before that street's betting; after it, cards stand."""
    state = case.state
    burn = case.choice("burn", ("missed", "double"))
    if state.street == 0:
        fix = {
            "missed": "Burn one card before dealing the flop.",
            "double": "Put the second burn card back on top of the stub.",
        }
        steps = [*_either(burn, fix), "Then deal the flop as usual."]
        return _play_on(case, "S4; R", steps, title="Fix the burn")
    name = state.street_name
    if _taken_back(case, state.street):
        keep = burn != "missed"  # a missed burn was never made: the redeal burns (R)
        again = {
            "missed": f"Put the {name} cards back on top of the stub in the order dealt, burn "
            f"the top card and deal the {name} again.",
            "double": f"Put the {name} cards back on top of the stub in the order dealt, with "
            f"the second burn card on top of them, and deal the {name} again with no new burn.",
        }
        title = f"Deal the {name} again"
        return _reshuffle(case, title, _either(burn, again), "R", None, keep_burn=keep)
    steps = [f"Betting on the {name} has started: the cards stand (R)."]
    if state.street < 3:
        later = {
            "missed": "Burn two cards before the next street.",
            "double": "Deal the next street with no burn.",
        }
        steps += ["Deal the later cards as they would have come.", *_either(burn, later)]
        if burn is not None:
            # The next street's burns as R says: two for a missed one, none after a double.
            burned: tuple[Card | None, ...] = (None, None) if burn == "missed" else ()
            action = burn_action(burned, reason=TRIGGER_LABELS[case.trigger])
            return case.make(
                f"The {name} stands",
                steps,
                Effect.SET_ASIDE,
                actions=_checked(case, (action,)),
                rule="R",
            )
    return _play_on(case, "R", steps, title=f"The {name} stands")


def _exposed_before_flop(case: _Case) -> Remedy:
    """R: stub cards exposed before the flop are shuffled back into the stub."""
    if case.state.street > 0:
        return _play_on(
            case, "R", ["The flop is out: this procedure is for before the flop.", _floor()]
        )
    steps = [
        "The exposed cards are not in play.",
        "Finish the preflop betting if it is under way.",
        _capital(_mix(case, "the exposed cards")),
        "Burn and deal the flop as usual.",
        _not_entered(),
    ]
    option = _options(case, "redeal_cut")
    cards = tuple(card for card in _named_cards(case) if card is not None)
    if not cards:
        return _play_on(case, "R", steps, option, "Reshuffle the stub")
    # Out of play until the flop, when they go back into the stub before it is dealt.
    action = set_aside(cards, 1, reason=TRIGGER_LABELS[case.trigger])
    return case.make(
        "Reshuffle the stub",
        steps,
        Effect.SET_ASIDE,
        actions=_checked(case, (action,)),
        rule="R",
        option=option,
    )


# --- betting ------------------------------------------------------------------------------------

_OOT_CHOICES = ("fold", "check_call", "bet_raise", "all_in")


def _amount(case: _Case) -> int:
    """The bet or raise-to total the dealer gave (`details["amount"]`), a whole number of chips."""
    value = case.details.get("amount")
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value.strip())
    if value is None or value == "":
        raise RuleViolation(f"Give the amount {case.who} bet or raised to.", code="amount_required")
    if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
        raise RuleViolation("The amount must be a whole number of chips.", code="bad_details")
    return value


def _declared(case: _Case, player: int) -> tuple[Kind, int | None, str]:
    """The betting action the dealer named, its amount, and how the steps call it."""
    chosen = case.choice("action", _OOT_CHOICES)
    if chosen is None:
        raise RuleViolation(f"Say what {case.who} did out of turn.", code="action_required")
    state = case.state
    if chosen == "fold":
        return Kind.FOLD, None, "fold"
    if chosen == "all_in":
        return Kind.ALL_IN, None, "all-in"
    if chosen == "check_call":
        owed = to_call(state, player)
        return (Kind.CALL, None, f"call of {owed}") if owed else (Kind.CHECK, None, "check")
    amount = _amount(case)
    if state.high == 0:
        return Kind.BET, amount, f"bet of {amount}"
    return Kind.RAISE, amount, f"raise to {amount}"


def _acted_out_of_turn(case: _Case) -> Remedy:
    """T 53: the action goes back to the player skipped. A fold out of turn stands at once; any
    other action waits, and stands if the action to its player has not changed by their turn
    (T 53-A). A skipped player must speak up before substantial action (T 36, T 53-B)."""
    player = case.need_player()
    kind, amount, what = _declared(case, player)
    action = out_of_turn(player, kind, amount, reason=TRIGGER_LABELS[case.trigger])
    actions = _checked(case, (action,))
    names = [f"seat {case.state.setup.players[i].seat}" for i in skipped(case.state, player)]
    back = f"The action goes back to {names[0]}, the player skipped"
    if len(names) > 1:
        listed = f"{', '.join(names[:-1])} and {names[-1]}"
        back = f"The action goes back to {names[0]}: the players skipped ({listed}) act in order"
    if kind == Kind.FOLD:
        steps = [
            f"{case.subject}'s fold out of turn stands (T 53-A): the hand is out, and the chips "
            "put in stay in the pot.",
            f"{back}.",
        ]
        return case.make(
            f"Fold out of turn: {case.who}", steps, Effect.DEAD_HAND, actions=actions, rule="T 53"
        )
    steps = [
        f"{back} (T 53-A).",
        f"{case.subject}'s {what} waits: no chip of it goes into the pot yet.",
        "If every player skipped checks, calls or folds, the action has not changed: the "
        f"{what} stands, and the tablet enters it when the turn of {case.who} comes.",
        "If a player skipped bets or raises, the action has changed: return the chips of "
        f"{case.who}, who then has every option (fold, call or raise).",
        "A player skipped must speak up: if substantial action (T 36) was made out of turn "
        "after him before he did, call the floor (T 53-B).",
    ]
    return case.make(
        f"Action out of turn: {case.who}", steps, Effect.BACK_UP, actions=actions, rule="T 53"
    )


# --- the floor's decisions ----------------------------------------------------------------------


def _note(case: _Case) -> str:
    """The dealer's reason for a floor decision ("" when none was given)."""
    note = case.details.get("note")
    if note is None:
        return ""
    if not isinstance(note, str):
        raise RuleViolation("The reason must be text.", code="bad_details")
    return " ".join(note.split())


def _decided(case: _Case, action: Action) -> tuple[Action, ...]:
    """The floor's action, refused now if the engine would refuse it (a misdeal after the
    threshold, a hand already dead), so the preview says so before the dealer confirms."""
    apply(case.state, action)
    return (action,)


def _reason_steps(case: _Case, steps: list[str]) -> list[str]:
    note = _note(case)
    return [f"The floor's reason: {note.rstrip('.')}.", *steps] if note else steps


def _floor_misdeal(case: _Case) -> Remedy:
    """T: the floor voids the hand; allowed only before the action threshold (RULES.md 5.6)."""
    reason = _note(case) or TRIGGER_LABELS[case.trigger]
    steps = [
        "Stop the deal.",
        "Return every bet to its owner; the same blinds and antes are posted again.",
        "Gather all the cards, shuffle and cut.",
        "Redeal with the same button, blinds and players.",
    ]
    return case.make(
        "Misdeal",
        _reason_steps(case, steps),
        Effect.VOID_HAND,
        actions=_decided(case, misdeal(reason)),
        rule="T",
    )


def _floor_dead_hand(case: _Case) -> Remedy:
    """R: the floor kills one player's hand; every chip he put in stays in the pot."""
    player = case.need_player()
    reason = _note(case) or TRIGGER_LABELS[case.trigger]
    steps = [
        f"Kill the hand of {case.who}: every chip put in (blinds, antes, bets) stays in the pot.",
        "Play goes on without that hand.",
    ]
    return case.make(
        f"Dead hand: {case.who}",
        _reason_steps(case, steps),
        Effect.DEAD_HAND,
        actions=_decided(case, kill(player, reason)),
        rule="R",
    )


_HANDLERS: dict[Trigger, Callable[[_Case], Remedy]] = {
    Trigger.FIRST_HOLE_CARD_EXPOSED: _first_exposed,
    Trigger.SECOND_HOLE_CARD_EXPOSED: _second_exposed,
    Trigger.OTHER_HOLE_CARD_EXPOSED: _other_exposed,
    Trigger.TWO_OR_MORE_EXPOSED_ON_DEAL: _two_exposed,
    Trigger.PLAYER_EXPOSED_OWN_CARD: _own_card,
    Trigger.BOXED_CARD: _boxed,
    Trigger.TWO_OR_MORE_BOXED_CARDS: _two_boxed,
    Trigger.JOKER_FACE_UP: _joker_up,
    Trigger.JOKER_FACE_DOWN: _joker_down,
    Trigger.WRONG_HOLE_CARD_COUNT: _wrong_count,
    Trigger.EXTRA_CARD_DEALT_AROUND: _extra_around,
    Trigger.TWO_OR_MORE_EXTRA_CARDS: _two_extra,
    Trigger.CARD_OUT_OF_ORDER: _r_only,
    Trigger.BUTTON_OUT_OF_PLACE: _r_only,
    Trigger.FIRST_CARD_TO_WRONG_SEAT: _r_only,
    Trigger.EMPTY_OR_INELIGIBLE_SEAT_DEALT_IN: _r_only,
    Trigger.ELIGIBLE_PLAYER_DEALT_OUT: _r_only,
    Trigger.FLOP_TOO_MANY_CARDS: _flop_too_many,
    Trigger.PREMATURE_FLOP: _premature_flop,
    Trigger.PREMATURE_TURN: _premature_turn,
    Trigger.PREMATURE_RIVER: _premature_river,
    Trigger.MISSED_OR_DOUBLE_BURN: _burn,
    Trigger.CARDS_EXPOSED_BEFORE_FLOP: _exposed_before_flop,
    Trigger.ACTED_OUT_OF_TURN: _acted_out_of_turn,
    Trigger.FLOOR_MISDEAL: _floor_misdeal,
    Trigger.FLOOR_DEAD_HAND: _floor_dead_hand,
}
