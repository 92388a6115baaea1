"""The desk's board of the dealer rotation (/floor/dealers/) with its writes, and the tablet's
sign-in at the push. Each write is one service call; a refusal is shown in the service's words.
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from common.errors import FloorError
from config import request_time
from config.authentication import session_hand_over
from dealer.rotation import services
from dealer.rotation.forms import PinForm, PlanForm, ShiftForm
from dealer.rotation.selectors import dealer_name, rotation_board
from dealer.views.access import dealer_required, refused_for_role, table_get
from tournaments.views.access import director_required, report_refusal
from tournaments.views.form_tokens import attempt, page_write


def _board_page(request: HttpRequest, *, plan_form: PlanForm | None = None) -> HttpResponse:
    board = rotation_board(at=request_time.now())
    plan = board.plan
    initial = {
        "down_minutes": plan.down_minutes,
        "downs_before_break": plan.downs_before_break,
        "break_minutes": plan.break_minutes,
    }
    context = {"board": board, "plan_form": plan_form or PlanForm(initial=initial)}
    return render(request, "dealer/rotation_board.html", context)


@director_required
@require_GET
def board_page(request: HttpRequest) -> HttpResponse:
    """Who deals where now, who is due and late, who is next, the breaks and the shift list."""
    return _board_page(request)


@director_required
@require_POST
def plan_set(request: HttpRequest) -> HttpResponse:
    form = PlanForm(request.POST)
    if not form.is_valid():
        return _board_page(request, plan_form=form)
    return _run(request, "The plan is set: it applies from the next start.",
                services.rotation_plan_set, **form.cleaned_data)  # fmt: skip


@director_required
@require_POST
def shift_add(request: HttpRequest) -> HttpResponse:
    form = ShiftForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Pick a dealer to put on shift.")
        return redirect("floor-dealers")
    return _run(request, "On shift.", services.dealer_shift_start,
                dealer_id=form.cleaned_data["dealer"], at=request_time.now())  # fmt: skip


@director_required
@require_POST
def shift_end(request: HttpRequest, dealer_id: int) -> HttpResponse:
    return _run(request, "Off shift: they finish their down.", services.dealer_shift_end,
                dealer_id=dealer_id, at=request_time.now())  # fmt: skip


@director_required
@require_POST
def rotation_start(request: HttpRequest) -> HttpResponse:
    return _run(request, "The rotation is scheduled.", services.rotation_start,
                at=request_time.now())  # fmt: skip


def _run(
    request: HttpRequest, done: str, service: Callable[..., object], **values: object
) -> HttpResponse:
    page_write(request, lambda: service(actor=request.user, **values), done)
    return redirect("floor-dealers")


@dealer_required
@require_POST
def tablet_sign_in(request: HttpRequest, pk: int) -> HttpResponse:
    """The push on the tablet: the incoming dealer gives their PIN; the table is theirs from
    now, and so is the tablet (the outgoing dealer's session on it ends): nobody types a
    password on the shared tablet."""
    table = table_get(pk)
    form = PinForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Type your PIN: 4 to 6 digits.")
        return redirect("deal-table", pk=table.pk)
    down = attempt(
        lambda: services.down_sign_in(
            table=table, actor=request.user, pin=form.cleaned_data["pin"], at=request_time.now()
        )
    )
    if isinstance(down, FloorError):
        # Refused for who they are: a bare 403, nothing of the table; else on the tablet.
        if (bare := refused_for_role(down)) is not None:
            return bare
        report_refusal(request, down)
    else:
        if down.dealer_id != request.user.pk:
            session_hand_over(request, down.dealer)
        messages.success(request, f"{dealer_name(down.dealer)} deals {table} now.")
    return redirect("deal-table", pk=table.pk)
