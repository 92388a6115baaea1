"""Staff accounts, made on the desk (/staff/ and /api/staff/): dealers with a PIN for the
handover on the tablet, floor accounts (staff, with a password), a new PIN, and deactivation.
The only code that writes them; the list is read by `dealer.rotation.selectors.staff_list`.

A dealer account has no password: a dealer never types one on a shared tablet; the tablet
becomes theirs at the push with their PIN (`dealer.rotation.services.down_sign_in`).
"""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import Group, User
from django.contrib.auth.password_validation import validate_password
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Q

from common.actors import Actor
from common.errors import FloorConflict, FloorInvalid, FloorNotFound
from common.roles import DEALER_GROUP
from dealer.models import DealerPin
from dealer.rotation.pins import check_pin_form
from dealer.rotation.services import dealer_shift_end
from tournaments.models import DealerShift, Table
from tournaments.services.audit import audit_record
from tournaments.services.tables import table_assign_dealer

NAME_MAX = 150  # the user model's first_name


def staff_dealer_create(
    *, username: str, name: str, pin: str, actor: Actor = None, at: datetime
) -> User:
    """A dealer account (the dealer group, no password) with its PIN, hashed. Refused: 400
    `bad_username`, `bad_name`, `bad_pin`; 409 `username_taken`."""
    username, name = _check_names(username, name)
    check_pin_form(pin)
    with transaction.atomic():
        user = _user_create(username=username, name=name, is_staff=False, password=None)
        user.groups.add(Group.objects.get_or_create(name=DEALER_GROUP)[0])
        DealerPin.objects.create(user=user, pin_hash=make_password(pin), set_at=at)
        audit_record(tournament=None, actor=actor, action="staff_create", user=username,
                     role="dealer")  # fmt: skip
    return user


def staff_floor_create(*, username: str, name: str, password: str, actor: Actor = None) -> User:
    """A floor account (a director: staff) with a password that passes the site's password
    rules. Refused: 400 `bad_username`, `bad_name`, `bad_password`; 409 `username_taken`."""
    username, name = _check_names(username, name)
    try:
        validate_password(password, user=get_user_model()(username=username, first_name=name))
    except ValidationError as error:
        raise FloorInvalid("bad_password", " ".join(error.messages)) from error
    with transaction.atomic():
        user = _user_create(username=username, name=name, is_staff=True, password=password)
        audit_record(tournament=None, actor=actor, action="staff_create", user=username,
                     role="floor")  # fmt: skip
    return user


@transaction.atomic
def dealer_pin_set(*, user_id: int, pin: str, actor: Actor = None, at: datetime) -> None:
    """A dealer's new PIN (the old one stops working; a PIN lock is lifted). Refused: 400
    `bad_pin`, `not_a_dealer`; 404 `no_such_user`."""
    check_pin_form(pin)
    user = _staff_get(user_id)
    if not user.groups.filter(name=DEALER_GROUP).exists():
        raise FloorInvalid("not_a_dealer", f"{user.get_username()} is a floor account: no PIN.")
    DealerPin.objects.update_or_create(
        user=user,
        defaults={"pin_hash": make_password(pin), "failures": 0, "locked_until": None,
                  "set_at": at},
    )  # fmt: skip
    audit_record(tournament=None, actor=actor, action="staff_pin", user=user.get_username())


@transaction.atomic
def staff_deactivate(*, user_id: int, actor: Actor = None, at: datetime) -> User:
    """The account can no longer sign in; at once its sessions and API tokens stop working
    (`tournaments.services.access`), its tables have no dealer and it leaves the shift list.
    Deactivating an inactive account again changes nothing. Refused: 404 `no_such_user`;
    409 `own_account`, `administrator`."""
    user = _staff_get(user_id)
    if actor is not None and actor.pk == user.pk:
        raise FloorConflict("own_account", "You cannot deactivate your own account.")
    if user.is_superuser:
        raise FloorConflict(
            "administrator", f"{user.get_username()} is an administrator: only the admin may."
        )
    if not user.is_active:
        return user
    user.is_active = False
    user.save(update_fields=["is_active"])
    for table in Table.objects.filter(dealer=user).order_by("pk"):
        table_assign_dealer(table=table, dealer_id=None, actor=actor)
    if DealerShift.objects.filter(dealer=user, ends_at=None).exists():
        dealer_shift_end(dealer_id=user.pk, at=at, actor=actor)
    audit_record(tournament=None, actor=actor, action="staff_deactivate",
                 user=user.get_username())  # fmt: skip
    return user


def _check_names(username: str, name: str) -> tuple[str, str]:
    username, name = (username or "").strip(), (name or "").strip()
    try:
        UnicodeUsernameValidator()(username)
    except ValidationError as error:
        raise FloorInvalid(
            "bad_username",
            "A username is letters, digits and @ . + - _ only, with no spaces.",
        ) from error
    if len(username) > NAME_MAX:
        raise FloorInvalid("bad_username", f"A username is at most {NAME_MAX} characters.")
    if len(name) > NAME_MAX or "\x00" in name:
        raise FloorInvalid("bad_name", f"A name is at most {NAME_MAX} characters of text.")
    return username, name


def _user_create(*, username: str, name: str, is_staff: bool, password: str | None) -> User:
    users = get_user_model().objects
    taken = FloorConflict(
        "username_taken", f"There is already an account called {username}: pick another username."
    )
    if users.filter(username__iexact=username).exists():
        raise taken
    try:
        with transaction.atomic():
            return users.create_user(
                username, password=password, first_name=name, is_staff=is_staff
            )
    except IntegrityError as error:  # the same username made at the same moment
        raise taken from error


def _staff_get(user_id: int) -> User:
    """A dealer or floor account (never a player's or an administrator's other account)."""
    user = (
        get_user_model()
        .objects.filter(Q(is_staff=True) | Q(groups__name=DEALER_GROUP), pk=user_id)
        .select_for_update(of=("self",))
        .first()
    )
    if user is None:
        raise FloorNotFound("no_such_user", "There is no such dealer or floor account.")
    return user
