"""The desk's Staff page (/staff/, directors): the dealer and floor accounts, a new one, a new
PIN, deactivation. Each write is one call of `dealer.rotation.staff`; a refusal is shown in its
words. The API twins are in `dealer.rotation.staff_api`."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from config import request_time
from dealer.rotation import staff
from dealer.rotation.forms import PinForm, StaffForm
from dealer.rotation.selectors import staff_list
from tournaments.views.access import director_required
from tournaments.views.form_tokens import page_write


@director_required
@require_GET
def staff_page(request: HttpRequest) -> HttpResponse:
    return render(request, "dealer/staff.html", {"rows": staff_list(), "form": StaffForm()})


@director_required
@require_POST
def staff_create(request: HttpRequest) -> HttpResponse:
    form = StaffForm(request.POST)
    if not form.is_valid():
        field, errors = next(iter(form.errors.items()))
        messages.error(request, f"{form.fields[field].label or field.title()}: {errors[0]}")
        return redirect("staff")
    data = form.cleaned_data
    names = {"username": data["username"], "name": data["name"]}
    if data["role"] == "dealer":
        done = f"Dealer {data['username']} made: the PIN signs them in at the push."
        return _run(request, done, staff.staff_dealer_create, pin=data["pin"],
                    at=request_time.now(), **names)  # fmt: skip
    done = f"Floor account {data['username']} made: it signs in with its password."
    return _run(request, done, staff.staff_floor_create, password=data["password"], **names)


@director_required
@require_POST
def pin_set(request: HttpRequest, pk: int) -> HttpResponse:
    form = PinForm(request.POST)
    if not form.is_valid():
        messages.error(request, "A PIN is 4 to 6 digits (0-9), nothing else.")
        return redirect("staff")
    return _run(request, "New PIN set: the old one no longer works.", staff.dealer_pin_set,
                user_id=pk, pin=form.cleaned_data["pin"], at=request_time.now())  # fmt: skip


@director_required
@require_POST
def deactivate(request: HttpRequest, pk: int) -> HttpResponse:
    return _run(request, "Deactivated: the account is signed out everywhere.",
                staff.staff_deactivate, user_id=pk, at=request_time.now())  # fmt: skip


def _run(
    request: HttpRequest, done: str, service: Callable[..., object], **values: object
) -> HttpResponse:
    page_write(request, lambda: service(actor=request.user, **values), done)
    return redirect("staff")
