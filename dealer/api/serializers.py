"""Input and output serializers of the dealer API.

Inputs are checked here before any service runs (types, ranges, card text, sizes), so whatever a
tablet sends is a 400 with field errors or reaches the engine as well-formed values. Outputs
describe the hand's state snapshot (`dealer.hand_log.hand_snapshot`), which the views send as
stored: the serializers below are its schema.
"""

from __future__ import annotations

import json
from typing import Any

from rest_framework import serializers

from common.limits import MAX_ID, MAX_INT
from dealer.engine.actions import Kind
from dealer.engine.cards import CardError, parse_cards_unknown
from dealer.models import Hand, HandEvent
from tournaments.api.fields import NamedChoiceField

MAX_SEAT = 10  # a table seats at most 10 (Tournament.seats_per_table)
MAX_CARDS = 7  # the most cards one entry can name: a whole board, or hole cards
MAX_CLIENT_ID = 64  # HandEvent.client_id
MAX_REASON = 200
MAX_DETAILS = 2000  # characters of a procedure's details as JSON


class HandStatusField(NamedChoiceField):
    schema_name = "HandStatus"
    values = tuple(Hand.Status.values)


class EventKindField(NamedChoiceField):
    schema_name = "HandEventKind"
    values = tuple(HandEvent.Kind.values)


class ActionKindField(NamedChoiceField):
    schema_name = "ActionKind"
    values = tuple(kind.value for kind in Kind)


class PhaseField(NamedChoiceField):
    schema_name = "HandPhase"
    values = ("betting", "dealing", "showdown", "complete", "void")


def client_id_field() -> serializers.CharField:
    return serializers.CharField(
        min_length=1,
        max_length=MAX_CLIENT_ID,
        help_text="made by the client for this write (a UUID): a resent write is answered once",
    )


def seat_field(
    *, required: bool = True, allow_null: bool = False, help_text: str | None = None
) -> serializers.IntegerField:
    return serializers.IntegerField(
        min_value=1,
        max_value=MAX_SEAT,
        required=required,
        allow_null=allow_null,
        help_text=help_text,
    )


# --- inputs ----------------------------------------------------------------------------------


class HandStartInputSerializer(serializers.Serializer):
    client_id = client_id_field()
    straddle = serializers.BooleanField(
        default=False, help_text="cash tables: the player offered the straddle straddles"
    )
    plan = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=32,
        help_text="cash tables: the `signature` of the next-hand plan shown to the dealer; the "
        "start is refused (409 `plan_changed`) if the seats changed since",
    )


class HandWriteInputSerializer(serializers.Serializer):
    client_id = client_id_field()
    version = serializers.IntegerField(
        min_value=0, max_value=MAX_INT, help_text="the hand's version the write was made against"
    )


class CardsField(serializers.ListField):
    """Cards as text, one card per item: "As", "Td", or "??" for a card nobody has seen."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(
            child=serializers.CharField(max_length=4, trim_whitespace=True),
            max_length=MAX_CARDS,
            **kwargs,
        )

    def to_internal_value(self, data: Any) -> list[str]:
        texts = super().to_internal_value(data)
        cards = []
        for index, text in enumerate(texts):
            try:
                parsed = parse_cards_unknown(text)
            except CardError as error:
                raise serializers.ValidationError({str(index): [str(error)]}) from error
            if len(parsed) != 1:
                raise serializers.ValidationError({str(index): ["One card per item, like As."]})
            cards.append("??" if parsed[0] is None else str(parsed[0]))
        known = [card for card in cards if card != "??"]
        if len(set(known)) != len(known):
            raise serializers.ValidationError("A card is given twice.")
        return cards


class ActionSerializer(serializers.Serializer):
    kind = ActionKindField()
    seat = seat_field(
        required=False, allow_null=True, help_text="the player's seat number (or give `player`)"
    )
    player = serializers.IntegerField(
        min_value=0,
        max_value=MAX_SEAT - 1,
        required=False,
        allow_null=True,
        help_text="the player's engine index: 0 = first seat left of the button (the order of "
        "`players` in the state)",
    )
    amount = serializers.IntegerField(
        min_value=0,
        max_value=MAX_INT,
        required=False,
        allow_null=True,
        help_text="bet or raise: the total for this street (raise to)",
    )
    cards = CardsField(required=False)
    reason = serializers.CharField(max_length=MAX_REASON, required=False, allow_blank=True)
    pot = serializers.IntegerField(
        min_value=0,
        max_value=MAX_SEAT,
        required=False,
        help_text="`award`: the pot pushed, 0 = main pot (the state's `push` lists them)",
    )
    seats = serializers.ListField(
        child=seat_field(),
        min_length=1,
        max_length=MAX_SEAT,
        required=False,
        help_text="`award`: the seat numbers that win the pot (two or more split it)",
    )


class ActionInputSerializer(HandWriteInputSerializer):
    action = ActionSerializer()
    expected_seat = seat_field(
        required=False,
        allow_null=True,
        help_text="optional: the seat the client saw as the one to act; if another seat (or no "
        "one) is to act, the write is refused 409 `stale_tap` with the hand's `state`",
    )
    deal_unentered = serializers.BooleanField(
        required=False,
        default=False,
        help_text="the board cards due were dealt without being entered; the betting action is "
        "the next street's first (one entry; the state's `legal_after_deal` lists its actions)",
    )


class UndoInputSerializer(HandWriteInputSerializer):
    reason = serializers.CharField(max_length=MAX_REASON, help_text="why the entry is undone")


class ReopenInputSerializer(HandWriteInputSerializer):
    reason = serializers.CharField(max_length=MAX_REASON, help_text="why the hand is reopened")


class DetailsField(serializers.JSONField):
    """A procedure's details: a small JSON object (which card was exposed, and so on)."""

    def to_internal_value(
        self, data: dict[str, object] | list[dict[str, object]]
    ) -> dict[str, object]:
        value = super().to_internal_value(data)
        if not isinstance(value, dict):
            raise serializers.ValidationError("Give the details as a JSON object.")
        if len(json.dumps(value)) > MAX_DETAILS:
            raise serializers.ValidationError(f"At most {MAX_DETAILS} characters of details.")
        return value


class ProcedurePreviewQuerySerializer(serializers.Serializer):
    trigger = serializers.CharField(max_length=60, help_text="what went wrong")
    seat = seat_field(required=False, help_text="the player it concerns, if any")
    details = serializers.CharField(
        max_length=MAX_DETAILS, required=False, help_text="a JSON object, as for the POST"
    )

    def validate_details(self, text: str) -> dict[str, object]:
        try:
            value = json.loads(text)
        except (ValueError, RecursionError) as error:
            raise serializers.ValidationError("Give the details as a JSON object.") from error
        if not isinstance(value, dict):
            raise serializers.ValidationError("Give the details as a JSON object.")
        return value


class ProcedureInputSerializer(HandWriteInputSerializer):
    trigger = serializers.CharField(max_length=60, help_text="what went wrong")
    seat = seat_field(required=False, allow_null=True, help_text="the player it concerns")
    details = DetailsField(required=False, default=dict)


class PageQuerySerializer(serializers.Serializer):
    before = serializers.IntegerField(
        min_value=1, max_value=MAX_ID, required=False, help_text="older than this id"
    )
    limit = serializers.IntegerField(min_value=1, max_value=500, default=50)


class ProcedureLogFilterSerializer(serializers.Serializer):
    tournament = serializers.IntegerField(min_value=1, max_value=MAX_ID, required=False)
    table = serializers.IntegerField(
        min_value=1, max_value=MAX_ID, required=False, help_text="the table's id"
    )
    dealer = serializers.IntegerField(
        min_value=1, max_value=MAX_ID, required=False, help_text="the dealer's user id"
    )


class ProcedureLogQuerySerializer(ProcedureLogFilterSerializer, PageQuerySerializer):
    pass


# --- outputs: the state snapshot -------------------------------------------------------------


class StakesOutputSerializer(serializers.Serializer):
    small_blind = serializers.IntegerField()
    big_blind = serializers.IntegerField()
    ante = serializers.IntegerField()


class HandPlayerOutputSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    entry = serializers.IntegerField(allow_null=True)
    name = serializers.CharField()
    stack = serializers.IntegerField(help_text="chips behind")
    bet = serializers.IntegerField(help_text="in front of the player on this street")
    contributed = serializers.IntegerField(help_text="to the pot in this hand, all streets")
    folded = serializers.BooleanField()
    all_in = serializers.BooleanField()
    shown = serializers.ListField(child=serializers.CharField(), allow_null=True)
    mucked = serializers.BooleanField()


class PotOutputSerializer(serializers.Serializer):
    amount = serializers.IntegerField()
    eligible_seats = serializers.ListField(child=serializers.IntegerField())


class PushOutputSerializer(serializers.Serializer):
    pot = serializers.IntegerField(help_text="0 = main pot: the `pot` of an `award` action")
    amount = serializers.IntegerField()
    eligible_seats = serializers.ListField(child=serializers.IntegerField())
    pushed_to = serializers.ListField(
        child=serializers.IntegerField(), allow_null=True, help_text="seats; null until pushed"
    )


class LegalOutputSerializer(serializers.Serializer):
    actor = serializers.IntegerField(help_text="the seat to act")
    can_fold = serializers.BooleanField()
    can_check = serializers.BooleanField()
    call = serializers.IntegerField(help_text="chips to add to call (0: check)")
    is_bet = serializers.BooleanField(help_text="an aggressive action is a bet, not a raise")
    min_raise_to = serializers.IntegerField(allow_null=True)
    max_raise_to = serializers.IntegerField(allow_null=True)
    pot_raise_to = serializers.IntegerField(allow_null=True, help_text="the POT button")
    half_pot_raise_to = serializers.IntegerField(
        allow_null=True,
        help_text="the ½ POT button: raise by half the pot; offered only strictly between the "
        "minimum and the pot size",
    )
    all_in_to = serializers.IntegerField()


class AwardOutputSerializer(serializers.Serializer):
    pot = serializers.IntegerField(help_text="0 = main pot")
    amount = serializers.IntegerField()
    winners = serializers.ListField(child=serializers.IntegerField(), help_text="seats")
    shares = serializers.ListField(child=serializers.IntegerField(), help_text="odd chips first")
    hands = serializers.ListField(child=serializers.CharField())
    rake = serializers.IntegerField(
        required=False, help_text="the house's take from this pot before the award (cash tables)"
    )
    run = serializers.IntegerField(
        required=False, help_text="run it twice: the run (1 or 2) whose board awarded this half"
    )


class CardOutOutputSerializer(serializers.Serializer):
    card = serializers.CharField(help_text="`??` when the dealer did not name it")
    back = serializers.CharField(help_text="the street whose deal shuffles it back into the stub")


class CardLedgerOutputSerializer(serializers.Serializer):
    stub = serializers.IntegerField(help_text="cards left in the stub")
    burned = serializers.IntegerField(help_text="burn cards so far, named or not")
    burn_cards = serializers.ListField(
        child=serializers.CharField(), help_text="the burn cards the dealer named"
    )
    next_burn = serializers.ListField(
        child=serializers.CharField(),
        help_text="the next deal's burn when it is already known (an exposed hole card, S2)",
    )
    out = CardOutOutputSerializer(many=True, help_text="cards set aside until a later street")
    dead = serializers.ListField(
        child=serializers.CharField(), help_text="cards out for the rest of the hand (boxed)"
    )
    deck = serializers.ChoiceField(
        choices=["standard52", "sixplus36"],
        help_text="the game's deck: 52 cards, or 36 for Texas 6+",
    )
    out_of_play = serializers.ListField(
        child=serializers.CharField(),
        help_text="the deck's cards that may not be named now: the board, cards shown, burns, "
        "cards set aside (those set aside until the deal due now are back in the stub); every "
        "other card of the deck may be named, as far as the table knows",
    )


class OutOfTurnOutputSerializer(serializers.Serializer):
    seat = serializers.IntegerField(help_text="the player who acted out of turn")
    action = serializers.CharField(help_text="fold, check, call, bet, raise or all_in")
    amount = serializers.IntegerField(allow_null=True, help_text="a bet or raise-to total")


class HandStateOutputSerializer(serializers.Serializer):
    hand = serializers.IntegerField(help_text="the hand's id")
    table = serializers.IntegerField(help_text="the table's number")
    number = serializers.IntegerField(help_text="the hand's number at the table")
    version = serializers.IntegerField(help_text="send it back with the next write")
    status = HandStatusField()
    button_seat = serializers.IntegerField(allow_null=True)
    small_blind_seat = serializers.IntegerField(allow_null=True)
    big_blind_seat = serializers.IntegerField(allow_null=True)
    stakes = StakesOutputSerializer()
    phase = PhaseField()
    street = serializers.CharField()
    board = serializers.ListField(child=serializers.CharField(), allow_null=True)
    board_cards_due = serializers.IntegerField()
    runs = serializers.IntegerField(required=False, help_text="2 once the players run it twice")
    common = serializers.IntegerField(
        required=False, help_text="run it twice: the board cards both runs share"
    )
    board2 = serializers.ListField(
        child=serializers.CharField(),
        required=False,
        help_text="run it twice: the second run's cards, after the cards both runs share",
    )
    can_run_twice = serializers.BooleanField(
        required=False, help_text="the `run_twice` action is legal now (docs/rules.md 6.6)"
    )
    actor_seat = serializers.IntegerField(allow_null=True)
    high = serializers.IntegerField(help_text="the bet to match on this street")
    pot_total = serializers.IntegerField()
    threshold_passed = serializers.BooleanField(help_text="substantial action has happened")
    players = HandPlayerOutputSerializer(many=True, help_text="from the left of the button")
    pots = PotOutputSerializer(many=True)
    legal = LegalOutputSerializer(allow_null=True, help_text="null when no bet is due")
    legal_after_deal = LegalOutputSerializer(
        allow_null=True,
        help_text="while a board deal is due: the next street's first actions once the board is "
        "dealt unentered (send them with `deal_unentered`)",
    )
    pot_limit = serializers.BooleanField(
        help_text="a pot-limit hand: the pot-sized raise is the largest (the bar's POT)"
    )
    claim_allowed = serializers.BooleanField(
        help_text="a player playing the board may claim it without tabling both cards "
        "(`play_board_claim`)"
    )
    showdown_order = serializers.ListField(child=serializers.IntegerField(), help_text="seats")
    next_to_show = serializers.IntegerField(allow_null=True)
    push = PushOutputSerializer(
        many=True,
        help_text="showdown by tap: the pots the dealer may push now with an `award` action "
        "(empty while no tap is due)",
    )
    awards = AwardOutputSerializer(many=True)
    rake = serializers.IntegerField(
        required=False,
        help_text="the house's take from the pots at the award (cash tables), the promotional "
        "drop included",
    )
    drop = serializers.IntegerField(
        required=False, help_text="of `rake`, the promotional or jackpot drop (cash tables)"
    )
    finishing_stacks = serializers.DictField(
        child=serializers.IntegerField(), allow_null=True, help_text="seat to chips, at the end"
    )
    cards = CardLedgerOutputSerializer(help_text="the card ledger: burns and cards out of play")
    out_of_turn = OutOfTurnOutputSerializer(
        many=True,
        required=False,
        help_text="actions out of turn waiting for their player's turn (T 53-A)",
    )


class StaleVersionSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="`stale_version`")
    detail = serializers.CharField()
    state = HandStateOutputSerializer(
        required=False, help_text="the hand as it is now: with `stale_version`, `hand_in_progress`"
    )


# --- outputs: history, events, procedures ----------------------------------------------------


class WinnerOutputSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    name = serializers.CharField()
    amount = serializers.IntegerField(help_text="chips won, every pot together")


class HandSummaryOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    status = HandStatusField()
    button_seat = serializers.IntegerField(allow_null=True)
    small_blind_seat = serializers.IntegerField(allow_null=True)
    big_blind_seat = serializers.IntegerField(allow_null=True)
    version = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    ended_at = serializers.DateTimeField(allow_null=True)
    winners = WinnerOutputSerializer(many=True)


class HandHistoryOutputSerializer(serializers.Serializer):
    results = HandSummaryOutputSerializer(many=True)
    next_before = serializers.IntegerField(
        allow_null=True, help_text="pass as `before` for older hands; null at the end"
    )


class HandEventOutputSerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    kind = EventKindField()
    payload = serializers.JSONField()
    client_id = serializers.CharField()
    actor = serializers.CharField(source="actor.username", allow_null=True)
    created_at = serializers.DateTimeField()


class RemedyOutputSerializer(serializers.Serializer):
    trigger = serializers.CharField()
    title = serializers.CharField()
    steps = serializers.ListField(child=serializers.CharField(), help_text="what to do, in order")
    effect = serializers.CharField(help_text="what it does to the hand")
    rule = serializers.CharField(allow_null=True, help_text="the rule it follows")
    option = serializers.CharField(allow_null=True, help_text="the rule option that decided it")


class ProcedureLogOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    tournament = serializers.IntegerField(allow_null=True)
    table = serializers.IntegerField(help_text="the table's number")
    hand = serializers.IntegerField(help_text="the hand's id")
    hand_number = serializers.IntegerField()
    dealer = serializers.CharField(allow_null=True, help_text="the dealer's username")
    trigger = serializers.CharField()
    title = serializers.CharField()
    steps = serializers.ListField(child=serializers.CharField())
    effect = serializers.CharField()
    player_seat = serializers.IntegerField(allow_null=True)
    rule = serializers.CharField()


class ProcedureRecordOutputSerializer(RemedyOutputSerializer):
    player_seat = serializers.IntegerField(allow_null=True)


class ProcedureRunOutputSerializer(serializers.Serializer):
    state = HandStateOutputSerializer()
    procedure = ProcedureRecordOutputSerializer(help_text="what was done, as logged")


class ProcedureLogPageOutputSerializer(serializers.Serializer):
    results = ProcedureLogOutputSerializer(many=True)
    next_before = serializers.IntegerField(allow_null=True)
