"""The room's players: the one writer of `Player` rows (a name typed at the registration desk or
a cash table finds the player already known, whatever its case, spacing or accents of case; a
player number typed as "#1042" finds its player). The folded `search_name` is written here with
every name, so the director's search never misses a player."""

from __future__ import annotations

import re
from collections.abc import Sequence

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, models, transaction
from django.db.models import BooleanField, ExpressionWrapper, Max, Q

from common.actors import Actor
from common.errors import FloorConflict, FloorInvalid, FloorNotFound
from tournaments.errors import LikelySamePlayerError
from tournaments.models import Entry, Player, Tournament
from tournaments.names import clean_name, fold
from tournaments.selectors.players import player_get
from tournaments.services.audit import audit_changes, audit_record
from tournaments.services.locks import lock_player, lock_players

NAME_MAX = 80
LIKELY_MAX = 5  # candidates named by a `likely_same_player` refusal
NUMBER_MAX = 20
PHONE_MAX = 30
EMAIL_MAX = 254
# A player number as the room prints it on a card: letters, digits and - . / (no spaces).
NUMBER_SHAPE = re.compile(r"^[A-Z0-9][A-Z0-9./-]*$")
PHONE_SHAPE = re.compile(r"^\+?[0-9 ().-]+$")


def clean_number(text: str) -> str:
    """A player number as stored: without a leading "#" or spaces, in capitals ("# a-12" ->
    "A-12"), so that "#a-12" at the desk finds the card printed "A-12"."""
    return "".join(text.split()).lstrip("#").upper()


def number_typed(name: str) -> str | None:
    """The player number in what was typed at a desk, when it is one ("#1042"), else None."""
    text = name.strip()
    return clean_number(text) if text.startswith("#") else None


def player_get_or_create(*, name: str, ask: bool = False) -> Player:
    """The player of that name (case and spacing do not matter), created if new; "#1042" is
    the player with that number (400 `unknown_player_number` when no one has it). With `ask`
    (registration, unless told it is a new player), a new name that folds to known players'
    ("Jose Nunez" next to "José Núñez") is refused 409 `likely_same_player` naming them."""
    name = clean_name(name)
    if not name:
        raise FloorInvalid("name_required", "Enter the player's name.")
    number = number_typed(name)
    if number is not None:
        return _by_number(number)
    _check_name(name)
    # One read for the three questions: the player of this name in the database's case
    # (iexact), else in Unicode's (case folding, which SQLite's iexact lacks), else, with `ask`,
    # the players whose name folds to this one (the `likely_same_player` candidates).
    search_name = fold(name)
    near = list(
        Player.objects.filter(Q(name__iexact=name) | Q(search_name=search_name))
        .annotate(same_case=ExpressionWrapper(Q(name__iexact=name), output_field=BooleanField()))
        .order_by("name", "pk")
    )
    likely = [p for p in near if p.search_name == search_name]
    found = next((p for p in near if p.same_case), None) or _same_name(name, likely)
    if found is not None:
        return found
    if ask:
        _check_no_likely_player(likely)
    try:
        with transaction.atomic():
            return Player.objects.create(name=name, search_name=search_name)
    except IntegrityError:  # created meanwhile by another desk
        return Player.objects.get(name__iexact=name)


def player_known(*, player: int) -> Player:
    """The player with that id, for a write that names them (404 `not_found`)."""
    found = player_get(player)
    if found is None:
        raise FloorNotFound("not_found", "There is no such player.")
    return found


def player_label(player: Player) -> str:
    """A player as the desk names them: "José Núñez #1042" (the number when there is one)."""
    return f"{player.name}{_number_of(player)}"


def _same_name(name: str, likely: Sequence[Player]) -> Player | None:
    """The player of the name in any case, by Unicode's case folding ("ÑÚ" is "ñú"), which the
    database's iexact does not do everywhere (SQLite folds ASCII only): among `likely`, the
    players whose name folds to this one."""
    cased = name.casefold()
    return next((p for p in likely if p.name.casefold() == cased), None)


def _check_no_likely_player(candidates: Sequence[Player]) -> None:
    """Refuse a new name when players whose name folds to it are known (`candidates`, by
    name): 409 `likely_same_player` naming the first few."""
    likely = candidates[:LIKELY_MAX]
    if not likely:
        return
    labels = [player_label(p) for p in likely]
    who = (
        f"{labels[0]} is already a player: register them"
        if len(labels) == 1
        else f"{', '.join(labels[:-1])} and {labels[-1]} are already players: register one of them"
    )
    raise LikelySamePlayerError(
        "likely_same_player",
        f"{who}, or create a new player.",
        candidates=[{"id": p.pk, "name": p.name, "number": p.number} for p in likely],
    )


def _by_number(number: str) -> Player:
    found = Player.objects.filter(number=number).first() if number else None
    if found is None:
        raise FloorInvalid(
            "unknown_player_number",
            f"No player has the number {number or '(none)'}: check the card, or type the name.",
        )
    return found


def _check_name(name: str) -> None:
    if len(name) > NAME_MAX:
        raise FloorInvalid("name_too_long", f"A player's name is at most {NAME_MAX} characters.")
    if name.startswith("#"):
        raise FloorInvalid(
            "bad_name", 'A name cannot start with "#": the desk reads "#1042" as a player number.'
        )


@transaction.atomic
def player_update(
    *,
    player: Player | int,
    actor: Actor = None,
    name: str | None = None,
    number: str | None = None,
    email: str | None = None,
    phone: str | None = None,
) -> Player:
    """Change a player's name, number or contact (only what is given). The folded search name
    follows the name. A name another player has (whatever its case) is 409 `name_taken`, a
    number another player has 409 `number_taken`; "" clears a number or a contact."""
    found = lock_player(player)
    changes: dict[str, str] = {}
    if name is not None:
        changes |= _name_change(found, clean_name(name))
    if number is not None:
        changes |= _number_change(found, clean_number(number))
    if email is not None:
        changes["email"] = _email(email.strip())
    if phone is not None:
        changes["phone"] = _phone(" ".join(phone.split()))
    changed = sorted(k for k, v in changes.items() if getattr(found, k) != v)
    if not changed:
        return found
    # The name and number with their old values; the contact itself stays out of the log.
    shown = {k: getattr(found, k) for k in ("name", "number") if k in changed}
    values = audit_changes(shown, {k: changes[k] for k in shown})
    for key in changed:
        setattr(found, key, changes[key])
    try:
        with transaction.atomic():
            found.save(update_fields=changed)
    except IntegrityError as error:  # the same name or number saved meanwhile
        raise FloorConflict(
            "number_taken" if "number" in changed else "name_taken",
            "Another player took that name or number a moment ago: reload and check.",
        ) from error
    audit_record(
        tournament=None,
        actor=actor,
        action="player_update",
        player=found.name,
        fields=[k for k in changed if k != "search_name"],
        changes=values,
    )
    return found


def _name_change(player: Player, name: str) -> dict[str, str]:
    if not name:
        raise FloorInvalid("name_required", "Enter the player's name.")
    _check_name(name)
    others = Player.objects.exclude(pk=player.pk)
    other = (
        others.filter(name__iexact=name).first() or others.filter(search_name=fold(name)).first()
    )
    if other is not None:  # the same name, or one that differs only by accents or case
        raise FloorConflict(
            "name_taken",
            f"Another player is already called {other.name}{_number_of(other)}: if it is the "
            "same person, merge the two players; else add something that tells them apart "
            "(a middle initial, a town).",
        )
    return {"name": name, "search_name": fold(name)}


def _number_of(player: Player) -> str:
    return f" #{player.number}" if player.number else ""


def _number_change(player: Player, number: str) -> dict[str, str]:
    if number and (len(number) > NUMBER_MAX or not NUMBER_SHAPE.match(number)):
        raise FloorInvalid(
            "bad_number",
            f"A player number is at most {NUMBER_MAX} letters, digits and - . / (no spaces).",
        )
    other = Player.objects.filter(number=number).exclude(pk=player.pk).first() if number else None
    if other is not None:
        raise FloorConflict("number_taken", f"Number {number} is already {other.name}'s.")
    return {"number": number}


def _email(email: str) -> str:
    if len(email) > EMAIL_MAX:
        raise FloorInvalid("bad_email", f"An e-mail address is at most {EMAIL_MAX} characters.")
    if email:
        try:
            validate_email(email)
        except ValidationError as error:
            raise FloorInvalid("bad_email", f"'{email}' is not an e-mail address.") from error
    return email


def _phone(phone: str) -> str:
    if phone and (len(phone) > PHONE_MAX or not PHONE_SHAPE.match(phone)):
        raise FloorInvalid(
            "bad_phone", f"A phone number is at most {PHONE_MAX} digits, spaces and + ( ) - ."
        )
    return phone


# --- one person, one player: a merge -----------------------------------------------------------


@transaction.atomic
def players_merge(*, keep: Player | int, merge: Player | int, actor: Actor = None) -> Player:
    """Make two players one (the same person registered twice): every row that names `merge`
    (entries with their results, cash seats, list places, cash chips and time) names `keep`,
    a contact or number `keep` lacks is taken from `merge`, and `merge` is deleted. Refused
    409 `both_playing` while both play the same event that is not finished (the floor first
    unregisters or busts one), 409 `both_seated` when both hold a seat or a place on the same
    list. In a finished event both played, `merge`'s entries are numbered after `keep`'s."""
    kept, merged = _locked_pair(keep, merge)
    _check_not_both_playing(kept, merged)
    moved = _rows_moved(kept, merged)
    labels = {"player": _audit_label(kept), "merged": _audit_label(merged)}
    taken = _contact_taken(kept, merged)
    merged.delete()
    if taken:
        kept.save(update_fields=taken)
    audit_record(
        tournament=None, actor=actor, action="players_merge", **labels, **moved, taken=taken
    )
    return kept


def _locked_pair(keep: Player | int, merge: Player | int) -> tuple[Player, Player]:
    pks = [p if isinstance(p, int) else p.pk for p in (keep, merge)]
    if pks[0] == pks[1]:
        raise FloorInvalid("same_player", "A player cannot be merged with themselves.")
    found = lock_players(*pks)
    return found[pks[0]], found[pks[1]]


def _check_not_both_playing(kept: Player, merged: Player) -> None:
    live = Entry.objects.exclude(status=Entry.Status.UNREGISTERED).exclude(
        tournament__status=Tournament.Status.FINISHED
    )
    both = (
        live.filter(player=merged, tournament__in=live.filter(player=kept).values("tournament"))
        .select_related("tournament")
        .first()
    )
    if both is not None:
        raise FloorConflict(
            "both_playing",
            f"{player_label(kept)} and {player_label(merged)} both play "
            f"{both.tournament.name}: unregister or bust one of them there first.",
        )


def _rows_moved(kept: Player, merged: Player) -> dict[str, int]:
    """Every row naming `merged` names `kept` (found through the model's relations, so a new
    model with a player is moved too), as {rows' name: how many}."""
    moved: dict[str, int] = {}
    try:
        with transaction.atomic():
            moved["entries"] = _renumber_shared_entries(kept, merged)
            for model, field in _player_references():
                name = str(model._meta.verbose_name_plural).replace(" ", "_")
                rows = model._default_manager.filter(**{field: merged}).update(**{field: kept})
                moved[name] = moved.get(name, 0) + rows
    except IntegrityError as error:  # a seat at the same table, a place on the same list
        raise FloorConflict(
            "both_seated",
            f"{player_label(kept)} and {player_label(merged)} both hold a seat at the same table "
            "or a place on the same list: close one of them first.",
        ) from error
    return {name: rows for name, rows in moved.items() if rows}


def _player_references() -> list[tuple[type[models.Model], str]]:
    """(model, field) of every foreign key to `Player`, hidden ones (`related_name="+"`) too."""
    return [
        (relation.related_model, relation.field.name)
        for relation in Player._meta.get_fields(include_hidden=True)
        if isinstance(relation, models.ManyToOneRel) and isinstance(relation.related_model, type)
    ]


def _renumber_shared_entries(kept: Player, merged: Player) -> int:
    """`merged`'s entries in events `kept` also played, numbered after `kept`'s and moved."""
    shared = Entry.objects.filter(player=kept).values("tournament")
    moved = 0
    for entry in Entry.objects.filter(player=merged, tournament__in=shared).order_by("number"):
        top = Entry.objects.filter(tournament_id=entry.tournament_id, player=kept).aggregate(
            n=Max("number")
        )["n"]
        entry.number, entry.player = (top or 0) + 1, kept
        entry.save(update_fields=["number", "player"])
        moved += 1
    return moved


def _contact_taken(kept: Player, merged: Player) -> list[str]:
    taken = [k for k in ("number", "email", "phone") if not getattr(kept, k) and getattr(merged, k)]
    for key in taken:
        setattr(kept, key, getattr(merged, key))
    return taken


def _audit_label(player: Player) -> str:
    """A player as the audit log names them, even once deleted: with the number, else the id."""
    return player_label(player) if player.number else f"{player.name} (player {player.pk})"
