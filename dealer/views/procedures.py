"""Dealer-error procedures on the tablet: pick what happened, read the remedy, confirm.

The steps come from the engine (`procedure_preview` in dealer.services, read-only); confirming
runs `hand_run_procedure`, which applies the remedy's effect (a misdeal voids the hand, a dead
hand is killed, ...) and writes the ProcedureLog. Two floor decisions that need no procedure are
always offered: a misdeal and a dead hand, entered as engine actions with the dealer's reason.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET, require_POST

from dealer.engine.errors import EngineError
from dealer.engine.procedures import TRIGGER_LABELS
from dealer.forms import ProcedureForm
from dealer.models import Hand
from dealer.services import can_write, hand_record_action, hand_run_procedure, procedure_preview
from dealer.views import tablet
from dealer.views.access import dealer_required, require_write, table_get
from tournaments.services.errors import FloorError

FLOOR_MISDEAL = "floor_misdeal"
FLOOR_DEAD_HAND = "floor_dead_hand"
FLOOR = {
    FLOOR_MISDEAL: "Misdeal (floor decision)",
    FLOOR_DEAD_HAND: "Dead hand (floor decision)",
}

# The pick list, in the order things happen at the table.
GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "Hole cards on the deal",
        (
            "first_hole_card_exposed",
            "second_hole_card_exposed",
            "other_hole_card_exposed",
            "two_or_more_exposed_on_deal",
            "player_exposed_own_card",
            "wrong_hole_card_count",
            "extra_card_dealt_around",
            "two_or_more_extra_cards",
            "card_out_of_order",
            "first_card_to_wrong_seat",
            "button_out_of_place",
            "empty_or_ineligible_seat_dealt_in",
            "eligible_player_dealt_out",
        ),
    ),
    (
        "The stub and the deck",
        (
            "boxed_card",
            "two_or_more_boxed_cards",
            "joker_face_up",
            "joker_face_down",
            "cards_exposed_before_flop",
            "missed_or_double_burn",
        ),
    ),
    ("The board", ("flop_too_many_cards", "premature_flop", "premature_turn", "premature_river")),
)
BOARD_TRIGGERS = {"flop_too_many_cards", "premature_flop", "premature_turn", "premature_river"}
NO_PLAYER = BOARD_TRIGGERS | {
    "two_or_more_exposed_on_deal",
    "card_out_of_order",
    "first_card_to_wrong_seat",
    "button_out_of_place",
    "two_or_more_boxed_cards",
    "joker_face_up",
    "cards_exposed_before_flop",
    "missed_or_double_burn",
    FLOOR_MISDEAL,
}
# Questions some procedures ask: (detail key, question, [(value, label)]).
DETAILS: dict[str, tuple[str, str, tuple[tuple[str, str], ...]]] = {
    "wrong_hole_card_count": (
        "count",
        "Too many or too few cards?",
        (("too_many", "Too many"), ("too_few", "Too few")),
    ),
    "missed_or_double_burn": (
        "burn",
        "Which burn error?",
        (("missed", "Burn missed"), ("double", "Two cards burned")),
    ),
    "joker_face_down": (
        "acted",
        "Did the holder act before reporting it?",
        (("yes", "Acted first"), ("no", "Reported at once")),
    ),
}
EFFECTS = {
    "void_hand": ("danger", "The hand is void: every chip goes back, same button for the redeal."),
    "dead_hand": ("danger", "The player's hand is dead: the chips put in stay in the pot."),
    "replace_card": ("info", "A card is replaced: the chips do not move."),
    "reshuffle_board": ("warning", "The board cards entered are taken back to be dealt again."),
    "none": ("info", "Play goes on: the procedure is logged for the floor."),
}


def _labels() -> dict[str, str]:
    return {str(t.value): label for t, label in TRIGGER_LABELS.items()}


def _groups(labels: dict[str, str]) -> list[dict[str, Any]]:
    listed = {t for _, triggers in GROUPS for t in triggers}
    groups = [
        {"title": title, "items": [(t, labels[t]) for t in triggers if t in labels]}
        for title, triggers in GROUPS
    ]
    others = [(t, label) for t, label in labels.items() if t not in listed]
    if others:
        groups.append({"title": "Other", "items": others})
    groups.append({"title": "Floor decisions", "items": list(FLOOR.items())})
    return [g for g in groups if g["items"]]


def _details(trigger: str, values: Any) -> dict[str, Any]:
    if trigger not in DETAILS:
        return {}
    key = DETAILS[trigger][0]
    value = values.get(key) or None
    if value is None:
        return {}
    if key == "acted":
        return {"acted": value == "yes"}
    return {key: value}


def _seat(values: Any) -> int | None:
    seat = str(values.get("seat", "") or "")
    return int(seat) if seat.isdigit() else None


def _floor_remedy(trigger: str, seat: int | None) -> dict[str, Any]:
    if trigger == FLOOR_MISDEAL:
        return {
            "title": "Misdeal",
            "steps": [
                "Stop the deal.",
                "Return every bet to its owner; the same blinds and antes are posted again.",
                "Gather all the cards, shuffle and cut.",
                "Redeal with the same button, blinds and players.",
            ],
            "effect": "void_hand",
            "rule": "T",
            "option": "",
        }
    who = f"seat {seat}" if seat else "the player"
    return {
        "title": f"Dead hand: {who}",
        "steps": [
            f"Kill the hand of {who}: every chip put in (blinds, antes, bets) stays in the pot.",
            "Play goes on without that hand.",
        ],
        "effect": "dead_hand",
        "rule": "R",
        "option": "",
    }


@dealer_required
@require_GET
def procedure_sheet(request: HttpRequest, pk: int) -> HttpResponse:
    """Step 1: what happened (the pick list); step 2: the remedy for this hand, to confirm."""
    table = table_get(pk)
    hand = tablet.latest_hand(table)
    in_progress = hand is not None and hand.status == Hand.Status.IN_PROGRESS
    labels = _labels()
    trigger = request.GET.get("trigger", "")
    seat = _seat(request.GET)
    context: dict[str, Any] = {
        "table": table,
        "hand": hand,
        "in_progress": in_progress,
        "writable": can_write(request.user, table),
        "version": hand.version if hand else 0,
        "client_id": uuid.uuid4().hex,
        "trigger": trigger,
        "seat": seat,
        "groups": _groups(labels),
        "remedy": None,
        "refusal": None,
    }
    if not trigger or not in_progress or hand is None:
        return render(request, "dealer/_procedure_sheet.html", context)
    context["trigger_label"] = labels.get(trigger) or FLOOR.get(trigger, trigger)
    context["players"] = [{"seat": s["seat"], "name": s.get("name", "")} for s in hand.seats]
    context["ask_player"] = trigger not in NO_PLAYER
    context["player_required"] = trigger in (
        FLOOR_DEAD_HAND,
        "wrong_hole_card_count",
        "joker_face_down",
    )
    if trigger in DETAILS:
        key, question, choices = DETAILS[trigger]
        context["question"] = {
            "key": key,
            "text": question,
            "choices": choices,
            "value": request.GET.get(key, ""),
        }
    details = _details(trigger, request.GET)
    context["details"] = {
        k: ("yes" if v is True else "no" if v is False else v) for k, v in details.items()
    }
    if trigger in FLOOR:
        context["remedy"] = _floor_remedy(trigger, seat)
        context["floor"] = True
        if trigger == FLOOR_DEAD_HAND and seat is None:
            context["refusal"] = "Pick the player whose hand is dead."
    else:
        try:
            remedy = procedure_preview(
                hand=hand, trigger=trigger, player_seat=seat, details=details
            )
        except (EngineError, FloorError) as error:
            context["refusal"] = error.detail
        else:
            context["remedy"] = {
                "title": remedy.title,
                "steps": list(remedy.steps),
                "effect": str(getattr(remedy.effect, "value", remedy.effect)),
                "rule": remedy.rule,
                "option": remedy.option or "",
            }
    if context["remedy"]:
        kind, text = EFFECTS.get(context["remedy"]["effect"], ("info", ""))
        context["effect_kind"], context["effect_text"] = kind, text
    return render(request, "dealer/_procedure_sheet.html", context)


@dealer_required
@require_POST
def run(request: HttpRequest, pk: int) -> HttpResponse:
    """Step 3: confirm. The remedy's effect goes into the hand's log, and the procedure into the
    table's procedure log; the answer is the tablet, as for every write."""
    table = table_get(pk)
    require_write(request, table)
    form = ProcedureForm(request.POST)
    if not form.is_valid():
        return tablet.render_tablet(
            request, table, notice=tablet.make_notice("error", form.first_error()), status=400
        )
    data = form.cleaned_data
    hand = tablet.hand_of(table, data["hand"])
    trigger, seat = data["trigger"], data.get("seat")
    note = (data.get("note") or "").strip()
    write = {"client_id": data["client_id"], "version": data["version"], "actor": request.user}
    try:
        if trigger == FLOOR_MISDEAL:
            result = hand_record_action(
                hand=hand, action={"kind": "misdeal", "reason": note or FLOOR[trigger]}, **write
            )
        elif trigger == FLOOR_DEAD_HAND:
            action = {"kind": "kill", "reason": note or FLOOR[trigger]}
            if seat is not None:
                action["seat"] = seat
            result = hand_record_action(hand=hand, action=action, **write)
        else:
            result, _ = hand_run_procedure(
                hand=hand,
                trigger=trigger,
                player_seat=seat,
                details=_details(trigger, request.POST),
                **write,
            )
    except (FloorError, EngineError) as error:
        return tablet.refused(request, table, error)
    return tablet.render_tablet(request, table, hand=result.hand, snapshot=result.answer)
