"""What a dealer-error procedure needs before it can answer (RULES.md 8), as data on the trigger.

Every `Trigger` has a `TriggerInfo`: its label on the pick list, the group it is listed under,
whether a player must, may or need not be named, the one question it asks (a burn missed or
doubled, too many or too few cards, ...) and whether the dealer may give a reason. The tablet and
the API read this instead of keeping their own lists, so a new trigger cannot land under "Other"
or ask for a player it does not need. `Effect` is what a procedure does to the hand, with the
sentence that tells the dealer so.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum


class Trigger(StrEnum):
    """What went wrong, as the dealer picks it (one value per situation of RULES.md 8), and the
    floor's two decisions that need no other cause: a misdeal and a dead hand."""

    FIRST_HOLE_CARD_EXPOSED = "first_hole_card_exposed"
    SECOND_HOLE_CARD_EXPOSED = "second_hole_card_exposed"
    OTHER_HOLE_CARD_EXPOSED = "other_hole_card_exposed"
    TWO_OR_MORE_EXPOSED_ON_DEAL = "two_or_more_exposed_on_deal"
    PLAYER_EXPOSED_OWN_CARD = "player_exposed_own_card"
    BOXED_CARD = "boxed_card"
    TWO_OR_MORE_BOXED_CARDS = "two_or_more_boxed_cards"
    JOKER_FACE_UP = "joker_face_up"
    JOKER_FACE_DOWN = "joker_face_down"
    WRONG_HOLE_CARD_COUNT = "wrong_hole_card_count"
    EXTRA_CARD_DEALT_AROUND = "extra_card_dealt_around"
    TWO_OR_MORE_EXTRA_CARDS = "two_or_more_extra_cards"
    CARD_OUT_OF_ORDER = "card_out_of_order"
    BUTTON_OUT_OF_PLACE = "button_out_of_place"
    FIRST_CARD_TO_WRONG_SEAT = "first_card_to_wrong_seat"
    EMPTY_OR_INELIGIBLE_SEAT_DEALT_IN = "empty_or_ineligible_seat_dealt_in"
    ELIGIBLE_PLAYER_DEALT_OUT = "eligible_player_dealt_out"
    FLOP_TOO_MANY_CARDS = "flop_too_many_cards"
    PREMATURE_FLOP = "premature_flop"
    PREMATURE_TURN = "premature_turn"
    PREMATURE_RIVER = "premature_river"
    MISSED_OR_DOUBLE_BURN = "missed_or_double_burn"
    CARDS_EXPOSED_BEFORE_FLOP = "cards_exposed_before_flop"
    ACTED_OUT_OF_TURN = "acted_out_of_turn"
    FLOOR_MISDEAL = "floor_misdeal"
    FLOOR_DEAD_HAND = "floor_dead_hand"


class Group(StrEnum):
    """The pick list's sections, in the order things happen at the table (the value is the
    section's title)."""

    HOLE_CARDS = "Hole cards on the deal"
    STUB = "The stub and the deck"
    BOARD = "The board"
    BETTING = "Betting"
    FLOOR = "Floor decisions"


class PlayerNeed(StrEnum):
    """Whether a procedure is about one player: never, when one is concerned, or always."""

    NONE = "none"
    OPTIONAL = "optional"
    REQUIRED = "required"


@dataclass(frozen=True, slots=True, kw_only=True)
class Choice:
    """One answer to a question: `value` is what `remedy(details=...)` takes."""

    value: str | bool
    label: str

    @property
    def token(self) -> str:
        """The answer as it travels in a form or a query string ("yes"/"no" for a bool)."""
        if isinstance(self.value, bool):
            return "yes" if self.value else "no"
        return self.value


@dataclass(frozen=True, slots=True, kw_only=True)
class Question:
    """A detail the procedure asks for: `key` in `remedy(details=...)`, the text and answers."""

    key: str
    text: str
    choices: tuple[Choice, ...]

    def answer(self, token: str | None) -> str | bool | None:
        """The detail value for a form's answer (`Choice.token`); None when unanswered or not
        one of the choices (the remedy then asks or covers both)."""
        for choice in self.choices:
            if choice.token == token:
                return choice.value
        return None


@dataclass(frozen=True, slots=True, kw_only=True)
class TriggerInfo:
    """What the dealer is asked before the remedy: see the module docstring.

    `reason`: the dealer may add a note, kept as the reason of the engine action (floor
    decisions, where the trigger itself does not say what happened). `cards`: how many cards
    the dealer may name (optional: the card ledger then knows which cards left play).
    `amount`: the dealer gives an amount (`details["amount"]`: a bet or raise-to total).
    """

    label: str
    group: Group
    player: PlayerNeed = PlayerNeed.NONE
    question: Question | None = None
    reason: bool = False
    cards: int = 0
    amount: bool = False


_H, _S, _B, _F = Group.HOLE_CARDS, Group.STUB, Group.BOARD, Group.FLOOR
_MAY, _MUST = PlayerNeed.OPTIONAL, PlayerNeed.REQUIRED

COUNT = Question(
    key="count",
    text="Too many or too few cards?",
    choices=(Choice(value="too_many", label="Too many"), Choice(value="too_few", label="Too few")),
)
BURN = Question(
    key="burn",
    text="Which burn error?",
    choices=(
        Choice(value="missed", label="Burn missed"),
        Choice(value="double", label="Two cards burned"),
    ),
)
ACTED = Question(
    key="acted",
    text="Did the holder act before reporting it?",
    choices=(
        Choice(value=True, label="Acted first"),
        Choice(value=False, label="Reported at once"),
    ),
)
OUT_OF_TURN_ACTION = Question(
    key="action",
    text="What did the player do out of turn?",
    choices=(
        Choice(value="fold", label="Folded"),
        Choice(value="check_call", label="Checked or called"),
        Choice(value="bet_raise", label="Bet or raised (give the amount)"),
        Choice(value="all_in", label="Went all in"),
    ),
)

# In pick-list order within each group.
TRIGGERS: Mapping[Trigger, TriggerInfo] = {
    Trigger.FIRST_HOLE_CARD_EXPOSED: TriggerInfo(
        label="First hole card of the deal exposed by the dealer",
        group=_H,
        player=_MAY,
        cards=1,
    ),
    Trigger.SECOND_HOLE_CARD_EXPOSED: TriggerInfo(
        label="Second hole card of the deal exposed by the dealer",
        group=_H,
        player=_MAY,
        cards=1,
    ),
    Trigger.OTHER_HOLE_CARD_EXPOSED: TriggerInfo(
        label="One other hole card exposed by the dealer", group=_H, player=_MAY, cards=1
    ),
    Trigger.TWO_OR_MORE_EXPOSED_ON_DEAL: TriggerInfo(
        label="Two or more hole cards exposed on the deal", group=_H
    ),
    Trigger.PLAYER_EXPOSED_OWN_CARD: TriggerInfo(
        label="A player exposed his own card", group=_H, player=_MAY
    ),
    Trigger.WRONG_HOLE_CARD_COUNT: TriggerInfo(
        label="A player has too many or too few hole cards",
        group=_H,
        player=_MUST,
        question=COUNT,
    ),
    Trigger.EXTRA_CARD_DEALT_AROUND: TriggerInfo(
        label="One extra card dealt around (first player got a third)",
        group=_H,
        player=_MAY,
        cards=1,
    ),
    # The player is needed only after the action threshold, when that hand is killed.
    Trigger.TWO_OR_MORE_EXTRA_CARDS: TriggerInfo(
        label="Two or more extra cards dealt", group=_H, player=_MAY
    ),
    Trigger.CARD_OUT_OF_ORDER: TriggerInfo(label="A card dealt out of order", group=_H),
    Trigger.FIRST_CARD_TO_WRONG_SEAT: TriggerInfo(
        label="The first card went to the wrong seat", group=_H
    ),
    Trigger.BUTTON_OUT_OF_PLACE: TriggerInfo(label="The button is out of place", group=_H),
    Trigger.EMPTY_OR_INELIGIBLE_SEAT_DEALT_IN: TriggerInfo(
        label="An empty seat or an ineligible player dealt in", group=_H, player=_MAY
    ),
    Trigger.ELIGIBLE_PLAYER_DEALT_OUT: TriggerInfo(
        label="An eligible player dealt out", group=_H, player=_MAY
    ),
    Trigger.BOXED_CARD: TriggerInfo(
        label="A boxed card (face up in the stub)", group=_S, player=_MAY, cards=1
    ),
    Trigger.TWO_OR_MORE_BOXED_CARDS: TriggerInfo(
        label="Two or more boxed cards in the deal", group=_S, cards=4
    ),
    Trigger.JOKER_FACE_UP: TriggerInfo(label="A joker turned face up", group=_S),
    Trigger.JOKER_FACE_DOWN: TriggerInfo(
        label="A joker dealt face down to a player", group=_S, player=_MUST, question=ACTED
    ),
    Trigger.CARDS_EXPOSED_BEFORE_FLOP: TriggerInfo(
        label="Stub cards exposed before the flop", group=_S, cards=5
    ),
    Trigger.MISSED_OR_DOUBLE_BURN: TriggerInfo(
        label="A burn card missed, or two burned", group=_S, question=BURN
    ),
    Trigger.FLOP_TOO_MANY_CARDS: TriggerInfo(label="The flop has too many cards", group=_B),
    Trigger.PREMATURE_FLOP: TriggerInfo(
        label="Flop dealt before the preflop betting was over", group=_B, cards=3
    ),
    Trigger.PREMATURE_TURN: TriggerInfo(
        label="Turn dealt before the flop betting was over", group=_B, cards=1
    ),
    Trigger.PREMATURE_RIVER: TriggerInfo(
        label="River dealt before the turn betting was over", group=_B, cards=1
    ),
    Trigger.ACTED_OUT_OF_TURN: TriggerInfo(
        label="A player acted out of turn",
        group=Group.BETTING,
        player=_MUST,
        question=OUT_OF_TURN_ACTION,
        amount=True,
    ),
    Trigger.FLOOR_MISDEAL: TriggerInfo(label="Misdeal (floor decision)", group=_F, reason=True),
    Trigger.FLOOR_DEAD_HAND: TriggerInfo(
        label="Dead hand (floor decision)", group=_F, player=_MUST, reason=True
    ),
}

# Short labels for a pick list (kept for callers that only need the words).
TRIGGER_LABELS: Mapping[Trigger, str] = {trigger: info.label for trigger, info in TRIGGERS.items()}


def trigger_info(value: str) -> TriggerInfo | None:
    """The info of the trigger named `value`, or None for a name that is not a trigger."""
    try:
        return TRIGGERS[Trigger(value)]
    except ValueError:
        return None


class Effect(StrEnum):
    """What the procedure does to the hand (the engine actions of the remedy carry it out)."""

    VOID_HAND = "void_hand"  # misdeal: every chip returned, redeal with the same button (T)
    DEAD_HAND = "dead_hand"  # the player's hand is killed, his chips stay in the pot (R)
    REPLACE_CARD = "replace_card"  # hole cards corrected (replaced, taken back, added); no chips
    RESHUFFLE_BOARD = "reshuffle_board"  # entered board cards taken back to be dealt again
    SET_ASIDE = "set_aside"  # cards out of play or burned: the ledger records where they are
    BACK_UP = "back_up"  # action out of turn: it waits for its turn, binding if nothing changed
    NONE = "none"  # play goes on; nothing to record

    @property
    def sentence(self) -> str:
        """What it means for the hand, in a sentence to show before the dealer confirms."""
        return _EFFECT_SENTENCES[self]


_EFFECT_SENTENCES: Mapping[Effect, str] = {
    Effect.VOID_HAND: "The hand is void: every chip goes back, same button for the redeal.",
    Effect.DEAD_HAND: "The player's hand is dead: the chips put in stay in the pot.",
    Effect.REPLACE_CARD: "A card is replaced: the chips do not move.",
    Effect.RESHUFFLE_BOARD: "The board cards entered are taken back to be dealt again.",
    Effect.SET_ASIDE: "The cards out of play are recorded: they cannot be dealt or shown.",
    Effect.BACK_UP: "The action goes back to the player skipped: the action out of turn stands "
    "only if the action to that player does not change.",
    Effect.NONE: "Play goes on: the procedure is logged for the floor.",
}
