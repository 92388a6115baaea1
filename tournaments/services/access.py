"""Sign-ins and devices: the only code that makes, revokes and unlocks them.

- `device_sign_in`: a new API token for one device (django-rest-knox: the key is shown once,
  only its digest is kept), named by a `Device` row with the label the sign-in gave.
- `device_hand_over`: a shared tablet's token becomes the incoming dealer's at the push.
- `device_revoke`, `user_devices_revoke`, `token_sign_out`: the token stops working at once, for
  every web process (nothing is remembered between requests: `config.authentication`).
- `lockout_unlock`: an account locked on a client, a locked device, or an account slowed down
  may sign in again (django-axes' failed attempts are forgotten).

A user who is deactivated, or taken out of the dealer group (from either side of the relation,
or by deleting the group), loses every token at once: the receivers at the end, connected when
the app is ready (`tournaments.apps`), call `user_devices_revoke`. The pages and the API check
the role on every request anyway; the revocation makes sure the token is gone, not just unused.
"""

from __future__ import annotations

from datetime import datetime

from axes.utils import reset as axes_reset
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, User
from django.db import transaction
from django.db.models import Model
from django.db.models.signals import m2m_changed, post_save, pre_delete
from django.dispatch import receiver
from knox.models import get_token_model

from common.actors import Actor
from common.errors import FloorNotFound
from common.roles import DEALER_GROUP
from tournaments.models import Device
from tournaments.selectors.access import ACCOUNT, ACCOUNT_DEVICE, lockout_parse
from tournaments.services.audit import audit_record


def device_sign_in(*, user: User, label: str, now: datetime) -> tuple[Device, str]:
    """A new token for `user` on one device; returns the device and the key, which is never
    stored and cannot be shown again. The user's expired tokens are deleted on the way."""
    tokens = get_token_model().objects
    with transaction.atomic():
        tokens.filter(user=user, expiry__lt=now).delete()
        token, key = tokens.create(user=user)
        device = Device.objects.create(token=token, label=label.strip())
    return device, key


def device_hand_over(*, token: Model, user: User, now: datetime) -> tuple[Device, str]:
    """The device sending `token` becomes `user`'s (the rotation's push on a shared tablet): a
    new token for `user` with the device's label; the old token stops working at once. Returns
    the device and the new key, shown once."""
    label = getattr(getattr(token, "device", None), "label", "")
    with transaction.atomic():
        device, key = device_sign_in(user=user, label=label, now=now)
        get_token_model().objects.filter(pk=token.pk).delete()
    return device, key


def device_revoke(*, device_id: int, actor: Actor) -> None:
    """One device's token stops working."""
    device = Device.objects.select_related("token__user").filter(pk=device_id).first()
    if device is None:
        raise FloorNotFound("no_such_device", "There is no such device: it is signed out.")
    with transaction.atomic():
        device.token.delete()  # the device row goes with it
        audit_record(
            tournament=None,
            actor=actor,
            action="device_revoke",
            user=device.token.user.get_username(),
            device=device.label,
        )


def user_devices_revoke(*, user_id: int, actor: Actor, reason: str = "") -> int:
    """Every token of one user stops working; returns how many there were."""
    user = get_user_model()._default_manager.filter(pk=user_id).first()
    if user is None:
        raise FloorNotFound("no_such_user", "There is no such user.")
    return _revoke_all(user, actor=actor, reason=reason)


def _revoke_all(user: User, *, actor: Actor, reason: str) -> int:
    token_model = get_token_model()
    with transaction.atomic():
        _, deleted = token_model.objects.filter(user=user).delete()
        revoked = deleted.get(token_model._meta.label, 0)
        if revoked or actor is not None:
            audit_record(
                tournament=None,
                actor=actor,
                action="devices_revoke",
                user=user.get_username(),
                devices=revoked,
                **({"reason": reason} if reason else {}),
            )
    return revoked


def token_sign_out(*, token: Model) -> None:
    """The token sending the request stops working (a tablet signing out). `token`: the
    request's `auth`, a knox token (`config.authentication.TokenAuthentication`)."""
    get_token_model().objects.filter(pk=token.pk).delete()


def lockout_unlock(*, lockout_id: str, actor: Actor) -> int:
    """A locked account or device may sign in again at once; returns how many failed attempts
    were forgotten (0: it was not locked, or no more)."""
    kind, name, address = lockout_parse(lockout_id)
    with transaction.atomic():
        if kind == ACCOUNT:  # every client's failures on the account: its slowdown ends
            forgotten = axes_reset(username=name)
        elif kind == ACCOUNT_DEVICE:
            forgotten = axes_reset(username=name, ip=address)
        else:
            forgotten = axes_reset(ip=name)
        where = {"device": address} if address else {}
        audit_record(tournament=None, actor=actor, action="lockout_unlock", **{kind: name}, **where)
    return forgotten


# --- a role lost: every token goes at once ---------------------------------------------------


@receiver(post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="access-deactivated")
def _user_saved(sender: type[User], instance: User, created: bool, **_: object) -> None:
    if not created and not instance.is_active:
        _revoke_all(instance, actor=None, reason="deactivated")


@receiver(m2m_changed, sender=get_user_model().groups.through, dispatch_uid="access-left-dealers")
def _groups_changed(
    sender: type[object],
    instance: User | Group,
    action: str,
    reverse: bool,
    pk_set: set[int] | None,
    **_: object,
) -> None:
    """A user taken out of the dealer group, by `user.groups.remove/clear/set` or by
    `group.user_set.remove/clear/set` (the admin saves either side)."""
    users = get_user_model()._default_manager
    if not reverse and isinstance(instance, User):  # instance: a user; pk_set: groups
        if action == "post_remove" and pk_set:
            gone = Group.objects.filter(pk__in=pk_set, name=DEALER_GROUP).exists()
        elif action == "pre_clear":
            gone = instance.groups.filter(name=DEALER_GROUP).exists()
        else:
            return
        if gone:
            _revoke_all(instance, actor=None, reason="left the dealer group")
        return
    if not isinstance(instance, Group) or instance.name != DEALER_GROUP:  # a group; pk_set: users
        return
    if action == "post_remove" and pk_set:
        leaving = list(users.filter(pk__in=pk_set))
    elif action == "pre_clear":
        leaving = list(instance.user_set.all())
    else:
        return
    for user in leaving:
        _revoke_all(user, actor=None, reason="left the dealer group")


@receiver(pre_delete, sender=Group, dispatch_uid="access-dealers-deleted")
def _group_deleted(sender: type[Group], instance: Group, **_: object) -> None:
    if instance.name == DEALER_GROUP:
        for user in instance.user_set.all():
            _revoke_all(user, actor=None, reason="the dealer group was deleted")
