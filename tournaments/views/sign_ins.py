"""Sign-ins and devices, on the director's desk (/desk/access/): every device signed in with an
API token (revoke one, or all of a user's), and the accounts and devices locked out after failed
sign-ins (unlock). The API twins are in `tournaments/api/auth.py`.

Also the answer to a sign-in refused by the gate (django-axes' `AXES_LOCKOUT_CALLABLE`: locked
on this client, or slowed down): the sign-in page again, with the reason, status 429 (the
admin's sign-in too); the API answers for itself.
"""

from __future__ import annotations

import functools
from typing import TypedDict

from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.views import LoginView
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.decorators import method_decorator
from django.views.decorators.http import require_POST

from config import request_time
from config.authentication import sign_in_wait
from config.sign_in_gate import SLOWED
from tournaments import selectors
from tournaments.selectors.access import DeviceRow, sign_in_refused
from tournaments.services.access import device_revoke, lockout_unlock, user_devices_revoke
from tournaments.views.access import View, director_required
from tournaments.views.form_tokens import page_write

TOO_MANY = 429


def too_many_sign_ins(request: HttpRequest, wait: float) -> HttpResponse:
    """The sign-in page again, 429: this client tried to sign in too often (a rate per client,
    `config.authentication.SignInThrottle`)."""
    detail = selectors.sign_in_rate_refusal(wait)
    form = AuthenticationForm(request, initial={"username": request.POST.get("username", "")})
    context = {"form": form, "locked_out": detail, "next": request.POST.get("next", "")}
    response = render(request, "registration/login.html", context, status=TOO_MANY)
    response["Retry-After"] = str(max(1, round(wait)))
    return response


def throttled_sign_in(view: View) -> View:
    """A sign-in page's POSTs counted against the client's rate before any password is hashed:
    the floor's sign-in page and the admin's."""

    @functools.wraps(view)
    def wrapped(request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
        if request.method == "POST":
            wait = sign_in_wait(request)
            if wait is not None:
                return too_many_sign_ins(request, wait)
        return view(request, *args, **kwargs)

    return wrapped


@method_decorator(throttled_sign_in, name="dispatch")
class SignInView(LoginView):
    """Django's sign-in page, throttled per client, leading after it only to a path on this
    site: Django's own check lets a relative `next` such as "-1" through, which then answers a
    404 after signing in."""

    def get_redirect_url(self) -> str:
        url = super().get_redirect_url()
        return url if url.startswith("/") and not url.startswith("//") else ""


class _UserDevices(TypedDict):
    username: str
    devices: list[DeviceRow]


@director_required
def access_page(request: HttpRequest) -> HttpResponse:
    now = request_time.now()
    devices = selectors.device_list(now=now)
    users: dict[int, _UserDevices] = {}
    for device in devices:
        users.setdefault(device.user_id, {"username": device.username, "devices": []})
        users[device.user_id]["devices"].append(device)
    context = {
        "users": list(users.items()),
        "lockouts": selectors.lockout_list(now=now),
        "devices_locked": selectors.devices_locked(),
    }
    return render(request, "desk/access.html", context)


@director_required
@require_POST
def device_revoke_page(request: HttpRequest, pk: int) -> HttpResponse:
    page_write(
        request,
        lambda: device_revoke(device_id=pk, actor=request.user),
        "Device signed out: its token no longer works.",
    )
    return redirect("sign-ins")


@director_required
@require_POST
def user_devices_revoke_page(request: HttpRequest, pk: int) -> HttpResponse:
    page_write(
        request,
        lambda: user_devices_revoke(user_id=pk, actor=request.user),
        lambda revoked: f"{revoked} device{'s' if revoked != 1 else ''} signed out.",
    )
    return redirect("sign-ins")


@director_required
@require_POST
def lockout_unlock_page(request: HttpRequest, lockout_id: str) -> HttpResponse:
    page_write(
        request,
        lambda: lockout_unlock(lockout_id=lockout_id, actor=request.user),
        "Unlocked: sign-ins are accepted again.",
    )
    return redirect("sign-ins")


def lockout_response(
    request: HttpRequest, original_response: HttpResponse | None = None, credentials: object = None
) -> HttpResponse:
    """What a sign-in refused by the gate (`config.sign_in_gate`: locked on this client, or
    slowed down) answers: 429, with the one sentence (`sign_in_refused`) and when to retry."""
    if original_response is not None and original_response.status_code == TOO_MANY:
        return original_response  # the API's token endpoint answered already
    refused = sign_in_refused(slowed=getattr(request, SLOWED, None))
    retry = str(refused.wait)
    if request.path.startswith("/api/"):
        body = {"code": refused.code, "detail": refused.detail}
        return JsonResponse(body, status=TOO_MANY, headers={"Retry-After": retry})
    form = AuthenticationForm(request, initial={"username": request.POST.get("username", "")})
    context = {"form": form, "locked_out": refused.detail, "next": request.POST.get("next", "")}
    response = render(request, "registration/login.html", context, status=TOO_MANY)
    response["Retry-After"] = retry
    return response
