"""The room's screens and the floor's message to the room: the one writer of `Screen` rows and of
`Tournament.floor_message`.

Every write is audited, and the audit moves the tournament's version on: a screen's board and
the clock feed (which carries the message) are answered by that version, so a changed message
reaches every screen and phone at their next poll.
"""

from __future__ import annotations

from django.db import transaction

from common.actors import Actor
from common.errors import FloorInvalid
from tournaments.models import Screen, Tournament
from tournaments.services.audit import audit_changes, audit_record
from tournaments.services.locks import lock_screen, lock_tournament

MESSAGE_LENGTH = 200  # Tournament.floor_message
NAME_LENGTH = 60  # Screen.name


def _clean(text: str) -> str:
    return " ".join(text.split())


def _check_name(name: str) -> str:
    name = _clean(name)
    if not name:
        raise FloorInvalid("name_required", "Give the screen a name, such as \u201cBar TV\u201d.")
    if len(name) > NAME_LENGTH:
        raise FloorInvalid("name_too_long", f"A screen's name is at most {NAME_LENGTH} characters.")
    return name


def _check_layout(layout: str) -> str:
    if layout not in Screen.Layout.values:
        choices = ", ".join(Screen.Layout.values)
        raise FloorInvalid("bad_layout", f"Choose a layout: {choices}.")
    return layout


@transaction.atomic
def screen_create(
    *,
    tournament: Tournament,
    name: str,
    layout: str = Screen.Layout.CLASSIC,
    sound: bool = False,
    actor: Actor = None,
) -> Screen:
    """A new screen for the room, with its layout and whether it chimes."""
    screen = Screen.objects.create(
        tournament=tournament, name=_check_name(name), layout=_check_layout(layout), sound=sound
    )
    audit_record(
        tournament=tournament,
        actor=actor,
        action="screen_create",
        screen=screen.pk,
        name=screen.name,
        layout=screen.layout,
        sound=screen.sound,
    )
    return screen


@transaction.atomic
def screen_update(
    *,
    screen: Screen | int,
    name: str | None = None,
    layout: str | None = None,
    sound: bool | None = None,
    actor: Actor = None,
) -> Screen:
    """Change a screen's name, layout or sound (only those given). A screen showing in the room
    takes the new layout when it is opened again."""
    found = lock_screen(screen)
    before = {"name": found.name, "layout": found.layout, "sound": found.sound}
    if name is not None:
        found.name = _check_name(name)
    if layout is not None:
        found.layout = _check_layout(layout)
    if sound is not None:
        found.sound = sound
    found.save(update_fields=["name", "layout", "sound"])
    audit_record(
        tournament=found.tournament,
        actor=actor,
        action="screen_update",
        screen=found.name,
        changes=audit_changes(
            before, {"name": found.name, "layout": found.layout, "sound": found.sound}
        ),
    )
    return found


@transaction.atomic
def screen_delete(*, screen: Screen | int, actor: Actor = None) -> None:
    found = lock_screen(screen)
    audit_record(
        tournament=found.tournament,
        actor=actor,
        action="screen_delete",
        screen=found.pk,
        name=found.name,
    )
    found.delete()


@transaction.atomic
def tournament_set_floor_message(
    *, tournament: Tournament, message: str, actor: Actor = None
) -> Tournament:
    """Show a message from the floor on every screen and phone ("" takes it down). Spaces and
    line breaks are made one space: a screen shows one line."""
    message = _clean(message)
    if len(message) > MESSAGE_LENGTH:
        raise FloorInvalid(
            "message_too_long", f"A message to the room is at most {MESSAGE_LENGTH} characters."
        )
    tournament = lock_tournament(tournament)
    if message == tournament.floor_message:
        return tournament  # nothing to show again: no version, no audit line
    tournament.floor_message = message
    tournament.save(update_fields=["floor_message", "updated_at"])
    # The audit record moves the version on (services.versions): the clock feed carries it.
    audit_record(tournament=tournament, actor=actor, action="floor_message", message=message)
    return tournament
