"""A tournament's version: one counter that every write a public answer can show moves on.

The standings, the payouts and the clock are answered with an ETag built from it (see
`tournaments.conditional`), so a phone asking again while nothing changed costs the read of one
row and renders nothing. The counter moves inside the write's own transaction: an answer built
from the rows the write changed is never tagged with the version before it.

Who moves it: the chip ledger (every chip that moves), the audit log (every director's write),
the clock, places and prizes, and the floor's moves after a hand. The floor's state machine test
(tests/tournaments/test_ledger_machine.py) checks after every step that a changed public answer
comes with a changed version.
"""

from __future__ import annotations

from django.core.cache import cache
from django.db import transaction
from django.db.models import F

from config.conditional import version_key
from tournaments.models import Tournament
from tournaments.selectors.versions import version_mark

VERSION_SECONDS = 24 * 3600  # the version stored at a commit


def tournament_bump(tournament_id: int | None) -> None:
    """Move the tournament's version on (one `UPDATE`; the row stays locked to the write's end,
    so two writes never share a version). The version the fast 304s compare with
    (`config.conditional.version_key`) is taken out of the cache at once, so that none is
    answered until the write is over, and put back from the row once it is committed.

    Neither ever fails the write: with Redis away the cache skips both, logs it, and deletes
    the key once Redis answers again (`config.cache`); meanwhile no fast 304 is answered, since
    the middleware reads nothing from a cache that does not answer. The read after the commit is
    `robust`: whatever it meets is logged, and the committed write is still answered as done."""
    if tournament_id is None:
        return
    Tournament.objects.filter(pk=tournament_id).update(version=F("version") + 1)
    key = version_key(tournament_id)
    cache.delete(key)

    def committed() -> None:
        row = Tournament.objects.filter(pk=tournament_id).only("created_at", "version").first()
        if row is not None:
            cache.set(key, version_mark(row)[1], VERSION_SECONDS)

    transaction.on_commit(committed, robust=True)
