"""The sign-in gate: the first authentication backend, asked before any password is hashed, on
every door (the sign-in page, the admin's, the API's token endpoint).

It refuses a client locked on the account (django-axes, `AXES_LOCKOUT_PARAMETERS`: the account
and the client's address together) and a client slowed down on an account failing from many
clients (`tournaments.selectors.access.account_slowdown`). A refusal marks the request as axes
does (`axes_locked_out`: no failure is recorded for it, and `AXES_LOCKOUT_CALLABLE` answers the
pages), with `sign_in_slowed`, the seconds to wait, when it is a slowdown. The policy:
docs/operations.md, "Sign-in lockout policy".
"""

from __future__ import annotations

from axes.backends import AxesStandaloneBackend
from axes.exceptions import AxesBackendPermissionDenied
from django.http import HttpRequest

from config import request_time
from config.authentication import client_address
from tournaments.selectors.access import account_slowdown

SLOWED = "sign_in_slowed"  # the request's attribute: the seconds this client still waits


class SignInGateBackend(AxesStandaloneBackend):
    """django-axes' check, then the account's slowdown; signs nobody in."""

    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: object,
    ) -> None:
        # django-axes: refused (AxesBackendPermissionDenied) when locked on this client.
        super().authenticate(request, username=username, password=password, **kwargs)
        if request is None:
            return
        wait = account_slowdown(
            username=username or "", address=client_address(request), now=request_time.now()
        )
        if wait is None:
            return
        request.axes_locked_out = True  # type: ignore[attr-defined]
        setattr(request, SLOWED, wait)
        raise AxesBackendPermissionDenied("Slowed down: too many failed sign-ins on the account.")
