"""Clearing away test events and junk players (issue 26): archive (hidden from the lists, the
data kept), restore, and delete a test event nobody entered.

An event the room has taken money for is history: it may be archived once it is finished, and
is never deleted. The one writer of `is_archived`; the lists read it through
`selectors.tournament_list` and `selectors.players.player_search`."""

from __future__ import annotations

from django.db import transaction
from django.db.models import ProtectedError

from common.actors import Actor
from common.errors import FloorConflict
from tournaments.models import Entry, Player, Tournament
from tournaments.services.audit import audit_record
from tournaments.services.locks import lock_player, lock_tournament
from tournaments.services.prices import paid_entries


def check_archivable(tournament: Tournament) -> None:
    """An event may be archived when it is finished, or when nobody has paid into it and it is
    not being played (409 `tournament_running`, `paid_entries`); a flight or day goes with its
    event (409 `archive_the_event`)."""
    if tournament.parent_id is not None:
        raise FloorConflict(
            "archive_the_event",
            f"{tournament.name} is a flight or day of an event: archive the event.",
        )
    # A multi-flight event is played in its flights and days: it is over when they all are.
    played = [tournament]
    if tournament.kind == Tournament.Kind.EVENT:
        played = list(Tournament.objects.filter(parent=tournament).only("status")) or played
    statuses = {t.status for t in played}
    if statuses == {Tournament.Status.FINISHED}:
        return
    if statuses & {Tournament.Status.RUNNING, Tournament.Status.PAUSED}:
        raise FloorConflict(
            "tournament_running",
            f"{tournament.name} is being played: finish it before archiving it.",
        )
    if paid_entries(tournament).exists():
        raise FloorConflict(
            "paid_entries",
            f"{tournament.name} has paid entries: it can be archived once it is finished.",
        )


@transaction.atomic
def tournament_archive(
    *, tournament: Tournament, archived: bool = True, actor: Actor = None
) -> Tournament:
    """Archive the event (and its flights and days) or, with `archived=False`, bring it back
    to the lists. Archiving one already archived changes nothing and is not logged again."""
    tournament = lock_tournament(tournament)
    if tournament.is_archived == archived:
        return tournament
    if archived:
        check_archivable(tournament)
    Tournament.objects.filter(parent=tournament).update(is_archived=archived)
    tournament.is_archived = archived
    tournament.save(update_fields=["is_archived", "updated_at"])
    action = "tournament_archive" if archived else "tournament_restore"
    audit_record(tournament=tournament, actor=actor, action=action)
    return tournament


@transaction.atomic
def tournament_delete(*, tournament: Tournament, actor: Actor = None) -> None:
    """Delete a test event: one nobody ever entered (409 `has_entries`, even unregistered:
    money changed hands), not finished (409 `tournament_finished`), without flights or days
    (409 `has_phases`). The audit log keeps a line naming it."""
    tournament = lock_tournament(tournament)
    if tournament.status == Tournament.Status.FINISHED:
        raise FloorConflict(
            "tournament_finished",
            f"{tournament.name} is finished: it cannot be deleted; archive it instead.",
        )
    if tournament.phases.exists():
        raise FloorConflict(
            "has_phases", f"{tournament.name} has flights or days: it cannot be deleted."
        )
    if Entry.objects.filter(tournament=tournament).exists():
        raise FloorConflict(
            "has_entries",
            f"{tournament.name} has entries: it cannot be deleted; archive it once it is "
            "finished, or when no entry has paid.",
        )
    audit_record(
        tournament=None,
        actor=actor,
        action="tournament_delete",
        tournament_id=tournament.pk,
        name=tournament.name,
    )
    try:
        tournament.delete()
    except ProtectedError as error:  # a record elsewhere still names it
        raise FloorConflict(
            "tournament_in_use", f"{tournament.name} is still named by other records."
        ) from error


@transaction.atomic
def player_archive(*, player: Player, archived: bool = True, actor: Actor = None) -> Player:
    """Archive a player with no entries (409 `player_has_entries`: their results stay in the
    search), or bring one back with `archived=False`."""
    player = lock_player(player)
    if player.is_archived == archived:
        return player
    if archived and Entry.objects.filter(player=player).exists():
        raise FloorConflict(
            "player_has_entries",
            f"{player.name} has entries: a player with results is kept in the search.",
        )
    player.is_archived = archived
    player.save(update_fields=["is_archived"])
    audit_record(
        tournament=None,
        actor=actor,
        action="player_archive" if archived else "player_restore",
        player=player.pk,
        name=player.name,
    )
    return player
