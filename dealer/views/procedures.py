"""Dealer-error procedures on the tablet: pick what happened, read the remedy, confirm.

The pick list, what each trigger asks (a player, a question, a reason) and the remedy all come
from the engine (`dealer.engine.triggers.TRIGGERS`, `procedure_preview`); confirming runs
`hand_run_procedure`, which applies the remedy's effect (a misdeal voids the hand, a dead hand is
killed, ...) and writes the ProcedureLog. The floor's own misdeal and dead-hand decisions are
triggers like the others, so they reach the log and the API the same way. This module only
renders.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from functools import partial

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import render
from django.views.decorators.http import require_GET, require_POST

from dealer.card_gate import PREVIEW_REFUSAL, card_sight
from dealer.codec import CardLedger, HandSnapshot
from dealer.engine.errors import DomainError
from dealer.engine.rule_text import option_phrases
from dealer.engine.triggers import TRIGGERS, Effect, Group, PlayerNeed, TriggerInfo, trigger_info
from dealer.forms import ProcedureForm, ProcedureSheetForm
from dealer.models import Hand
from dealer.selectors import can_write, procedure_preview
from dealer.services import hand_run_procedure
from dealer.views import present, tablet
from dealer.views.access import dealer_required, require_write, table_get

# The most cards a procedure names (two or more boxed cards, stub cards exposed: the engine's
# trigger says how many; the engine checks the count).
MAX_NAMED = 10

# How loud the effect's sentence is shown (a CSS notice kind); the words are the engine's.
TONES: Mapping[Effect, str] = {
    Effect.VOID_HAND: "danger",
    Effect.DEAD_HAND: "danger",
    Effect.RESHUFFLE_BOARD: "warning",
    Effect.BACK_UP: "warning",
}


def _groups() -> list[dict[str, object]]:
    """The pick list: the engine's groups in order, each with its triggers in order."""
    groups = [
        (str(group), [(str(t), info.label) for t, info in TRIGGERS.items() if info.group is group])
        for group in Group
    ]
    return [{"title": title, "items": items} for title, items in groups if items]


def _details(info: TriggerInfo | None, values: QueryDict, note: str = "") -> dict[str, object]:
    """The remedy's details from a form: the answer to the trigger's question, the dealer's
    reason where the trigger takes one, the cards and the amount named."""
    if info is None:
        return {}
    details: dict[str, object] = {}
    if info.question is not None:
        answer = info.question.answer(values.get(info.question.key) or None)
        if answer is not None:
            details[info.question.key] = answer
    if info.reason and note.strip():
        details["note"] = note.strip()
    cards = " ".join(named_cards(values))
    if info.cards and cards:
        details["cards"] = cards  # the engine reads them: a bad card is its refusal
    amount = str(values.get("amount") or "").strip()[:12]
    if info.amount and amount:
        details["amount"] = amount  # the engine reads it: a bad amount is its refusal
    return details


def named_cards(values: QueryDict) -> list[str]:
    """The cards named on the sheet: the picker's ticked cards (one `cards` value each), or one
    value holding them all (the confirm form's hidden field, an API-like "As Kd")."""
    sent = values.getlist("cards") if hasattr(values, "getlist") else [values.get("cards") or ""]
    return " ".join(str(value) for value in sent).split()[:MAX_NAMED]


def _asks(info: TriggerInfo, values: QueryDict, cards: CardLedger | None) -> dict[str, object]:
    """What the sheet asks before the remedy, as the engine's trigger says. Cards are named with
    the tablet's card picker, whose disabled cards are the engine's card ledger's (`cards`, the
    hand's snapshot): no card is typed."""
    question = info.question
    return {
        "ask_player": info.player is not PlayerNeed.NONE,
        "player_required": info.player is PlayerNeed.REQUIRED,
        "asks_reason": info.reason,
        "ask_cards": info.cards,
        "picker": partial(present.deck_rows, cards, named_cards(values)) if info.cards else None,
        "ask_amount": info.amount,
        "amount_value": str(values.get("amount") or "")[:12],
        "question": None
        if question is None
        else {
            "key": question.key,
            "text": question.text,
            "choices": [(c.token, c.label) for c in question.choices],
            "value": values.get(question.key, ""),
        },
    }


def _remedy(
    hand: Hand, trigger: str, seat: int | None, details: dict[str, object]
) -> dict[str, object]:
    """The engine's remedy for the sheet, or the refusal to show instead."""
    remedy = tablet.tried(
        lambda: procedure_preview(hand=hand, trigger=trigger, player_seat=seat, details=details)
    )
    if isinstance(remedy, DomainError):
        return {"refusal": remedy.detail}
    effect = Effect(remedy.effect)
    return {
        "remedy": {
            "title": remedy.title,
            "steps": list(remedy.steps),
            "effect": str(effect),
            "rule": remedy.rule,
            "option": remedy.option or "",
        },
        "effect_kind": TONES.get(effect, "info"),
        "effect_text": effect.sentence,
        # The options that decided it, in words (the API keeps the `key=value` codes).
        "option_words": option_phrases(remedy.option),
    }


@dealer_required
@require_GET
def procedure_sheet(request: HttpRequest, pk: int) -> HttpResponse:
    """Step 1: what happened (the pick list); step 2: the remedy for this hand, to confirm.
    Only at the tables the user deals: the remedy and its refusals depend on the hole cards
    entered (`dealer.card_gate`), so anyone else is refused before the hand is read."""
    table = table_get(pk)
    if not card_sight(request.user, table).hole_cards:
        raise PermissionDenied(PREVIEW_REFUSAL)
    hand = tablet.latest_hand(table)
    in_progress = hand is not None and hand.status == Hand.Status.IN_PROGRESS
    form = ProcedureSheetForm(request.GET)
    refusal = None if form.is_valid() else form.errors.get("seat", form.errors.get("trigger"))
    trigger = form.cleaned_data.get("trigger") or ""
    seat = form.cleaned_data.get("seat")
    context: dict[str, object] = {
        "table": table,
        "hand": hand,
        "in_progress": in_progress,
        "writable": can_write(request.user, table),
        "version": hand.version if hand else 0,
        "client_id": uuid.uuid4().hex,
        "trigger": trigger,
        "seat": seat,
        "groups": _groups(),
        "remedy": None,
        "refusal": None,
    }
    status = 200 if refusal is None else 400
    if not trigger or not in_progress or hand is None:
        context["refusal"] = refusal[0] if refusal else None
        return render(request, "dealer/_procedure_sheet.html", context, status=status)
    info = trigger_info(trigger)
    context["trigger_label"] = info.label if info else trigger
    context["players"] = [{"seat": s["seat"], "name": s.get("name", "")} for s in hand.seats]
    if info is not None:
        state: HandSnapshot | None = hand.state or None  # None: no state written yet
        context.update(_asks(info, request.GET, state.get("cards") if state else None))
    details = _details(info, request.GET)
    # The answers, for the confirm form's hidden fields (the cards named as one value).
    context["details"] = {
        key: details["cards"] if key == "cards" else request.GET.get(key, "") for key in details
    }
    context.update(_remedy(hand, trigger, seat, details))
    if refusal:
        context["refusal"] = refusal[0]
    return render(request, "dealer/_procedure_sheet.html", context, status=status)


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
    trigger = data["trigger"]
    details = _details(trigger_info(trigger), request.POST, data.get("note") or "")
    ran = tablet.tried(
        lambda: hand_run_procedure(
            hand=hand,
            trigger=trigger,
            player_seat=data.get("seat"),
            details=details,
            client_id=data["client_id"],
            version=data["version"],
            actor=request.user,
        )
    )
    if isinstance(ran, DomainError):
        return tablet.refused(request, table, ran)
    result, _ = ran
    answer = tablet.write_answer(result)
    return tablet.render_tablet(request, table, hand=result.hand, snapshot=answer)
