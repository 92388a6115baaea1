"""No write on a GET (issue 28): the waiting lists' pages and API answered every read by first
sweeping the held seats whose time ran out (eight GET handlers, four of them anonymous: a phone
polling its place wrote to the database). With a task worker a read now writes nothing: the
hold's own task and the beat free the seat. Without one (the embedded default, in-process tasks
and no beat) nothing else would, so the read still sweeps there."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import override_settings
from django.utils import timezone

from dealer import tasks
from dealer.cash.games import waitlist
from dealer.cash.models import WaitingListEntry
from tests.dealer.test_cash_games import game_table, join, one_two
from tournaments.models import AuditEvent

pytestmark = pytest.mark.django_db
Status = WaitingListEntry.Status


def _expired_call():
    game = one_two()
    game_table(game, 4, players=8)
    ann, bob = join(game, "Ann", "Bob")
    past = timezone.now() - timedelta(minutes=10)
    called = waitlist.game_waitlist_call_next(game=game, now=past)
    assert called.pk == ann.pk
    return game, ann, bob


def _reads(client, game, code):
    return [
        client.get(f"/cash/games/{game.pk}/"),
        client.get("/cash/games/"),
        client.get("/games/"),
        client.get(f"/lists/{code}/"),
        client.get(f"/lists/{code}/state/"),
        client.get(f"/api/cash-games/{game.pk}/"),
        client.get("/api/cash-games/"),
    ]


@override_settings(CELERY_TASK_ALWAYS_EAGER=False)
def test_with_a_task_worker_reading_the_lists_writes_nothing(director):
    game, ann, bob = _expired_call()
    before = AuditEvent.objects.count()

    answers = _reads(director, game, ann.code)

    assert all(a.status_code in (200, 304) for a in answers), [a.status_code for a in answers]
    ann.refresh_from_db()
    assert ann.status == Status.CALLED  # the ran-out hold is the worker's to free
    assert AuditEvent.objects.count() == before
    assert waitlist.waitlist_expire_calls() == 1  # what the beat's sweep then does
    ann.refresh_from_db()
    bob.refresh_from_db()
    assert (ann.status, bob.status) == (Status.NO_SHOW, Status.CALLED)


@override_settings(CELERY_TASK_ALWAYS_EAGER=True)
def test_without_a_task_worker_a_read_frees_the_held_seat_first(director):
    game, ann, bob = _expired_call()

    director.get(f"/cash/games/{game.pk}/")

    ann.refresh_from_db()
    bob.refresh_from_db()
    assert (ann.status, bob.status) == (Status.NO_SHOW, Status.CALLED)


@pytest.mark.django_db(transaction=True)
def test_the_beats_sweep_frees_a_ran_out_hold_in_a_transaction_of_its_own():
    """The beat's task runs outside any request's transaction: the sweep opens its own (it
    locks the calls it frees). A merge once moved its `transaction.atomic` onto the function
    above it, and the task then failed ("select_for_update cannot be used outside of a
    transaction") while every page, already in a transaction, still worked."""
    _game, ann, bob = _expired_call()

    assert tasks.waitlist_expire_calls_task() == 1

    ann.refresh_from_db()
    bob.refresh_from_db()
    assert (ann.status, bob.status) == (Status.NO_SHOW, Status.CALLED)
