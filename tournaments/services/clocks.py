"""The tournament clock: start, pause, resume, set level, add or remove time, announcements.

The clock is stored as timestamps (DESIGN.md) and derived on read by `tournaments.clock`. Each
change schedules a level-change announcement at the level's end, after the transaction commits;
the task carries the level it expects, so a stale or repeated task does nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

from celery import current_app
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from common.actors import Actor
from common.errors import FloorError, from_value_error
from tournaments import clock
from tournaments.models import Entry, Tournament
from tournaments.selectors.clock import clock_state, tournament_levels
from tournaments.selectors.prizes import prize_table
from tournaments.selectors.tables import hand_for_hand_tables
from tournaments.services.audit import audit_record
from tournaments.services.locks import lock_tournament
from tournaments.services.versions import tournament_bump

ANNOUNCE_TASK = "tournaments.tasks.clock_announce_level_task"


def clock_stop(tournament: Tournament) -> list[str]:
    """Stop a (locked) tournament's clock for good, the event being over: a started clock is
    stored running or paused, never neither, so it stops paused with 0 left. Returns the fields
    set, for the caller's own save (`events.tournament_close` saves them with the status)."""
    if tournament.clock_ends_at is not None:
        tournament.clock_remaining = 0
    tournament.clock_ends_at = None
    return ["clock_ends_at", "clock_remaining"]


def _store(tournament: Tournament, state: clock.ClockState) -> None:
    tournament_bump(tournament.pk)
    tournament.clock_level = state.level_index
    tournament.clock_ends_at = state.ends_at
    tournament.clock_remaining = state.remaining
    tournament.clock_started_at = state.started_at
    tournament.save(
        update_fields=[
            "clock_level",
            "clock_ends_at",
            "clock_remaining",
            "clock_started_at",
            "status",
            "updated_at",
        ]
    )


def _schedule_announcement(
    tournament: Tournament, levels: tuple[clock.Level, ...], state: clock.ClockState, now: datetime
) -> None:
    change = clock.next_change_at(state, levels, now)
    if change is None or settings.CELERY_TASK_ALWAYS_EAGER:
        # In-process tasks cannot wait for a time: the clock is derived on read anyway.
        return
    index, when = change
    pk = tournament.pk
    eta = min(when, now + announce_horizon())
    # Sent by name: services do not import the task modules that call them. `robust`: a broker
    # that does not answer is logged and never turns the committed write into an error (the
    # clock shows its level from the time on every read; a lost announcement only records the
    # level change late, at the clock's next write).
    transaction.on_commit(
        lambda: current_app.send_task(ANNOUNCE_TASK, args=(pk, index), eta=eta), robust=True
    )


def announce_horizon() -> timedelta:
    """How far ahead a level change is sent to the workers. Redis hands a task that waits for its
    time out again each visibility timeout (a worker holding it might have died), so a task sent
    for a level's end an hour away would run once a minute of the level. A task sent at most half
    a timeout ahead runs once: woken before the change, it sends the next hop itself
    (`clock_announce_level`)."""
    options = getattr(settings, "CELERY_BROKER_TRANSPORT_OPTIONS", {}) or {}
    return timedelta(seconds=float(options.get("visibility_timeout", 3600)) / 2)


def _operate(
    tournament: Tournament,
    action: str,
    now: datetime,
    actor: Actor,
    operation: Callable[[clock.ClockState, tuple[clock.Level, ...]], clock.ClockState],
    **detail: object,
) -> Tournament:
    tournament = lock_tournament(tournament)
    if tournament.status == Tournament.Status.FINISHED:
        # Otherwise resuming the stopped clock would set a finished tournament running again.
        raise FloorError("tournament_finished", "The tournament is finished: its clock is off.")
    levels = tournament_levels(tournament)
    try:
        state = operation(clock_state(tournament), levels)
    except clock.ClockError as error:
        raise from_value_error(error) from error
    if state.ends_at is not None:
        tournament.status = Tournament.Status.RUNNING
    elif state.remaining is not None:
        tournament.status = Tournament.Status.PAUSED
    _store(tournament, state)
    audit_record(
        tournament=tournament, actor=actor, action=action, level=state.level_index, **detail
    )
    _schedule_announcement(tournament, levels, state, now)
    return tournament


@transaction.atomic
def clock_start(*, tournament: Tournament, now: datetime, actor: Actor = None) -> Tournament:
    """Start the tournament: seats must be drawn first."""
    locked = lock_tournament(tournament)
    if locked.status not in (Tournament.Status.PLANNED, Tournament.Status.REGISTERING):
        raise FloorError("already_started", "The clock has already been started.")
    # A drawn table has its button (tables set up before the draw have none yet).
    if not locked.tables.filter(button_seat__isnull=False).exists():
        raise FloorError("seats_not_drawn", "Draw the seats before starting the clock.")
    return _operate(locked, "clock_start", now, actor, lambda s, lv: clock.start(lv, now))


@transaction.atomic
def clock_pause(*, tournament: Tournament, now: datetime, actor: Actor = None) -> Tournament:
    return _operate(tournament, "clock_pause", now, actor, lambda s, lv: clock.pause(s, lv, now))


@transaction.atomic
def clock_resume(*, tournament: Tournament, now: datetime, actor: Actor = None) -> Tournament:
    return _operate(tournament, "clock_resume", now, actor, lambda s, lv: clock.resume(s, lv, now))


@transaction.atomic
def clock_set_level(
    *, tournament: Tournament, index: int, now: datetime, actor: Actor = None
) -> Tournament:
    return _operate(
        tournament,
        "clock_set_level",
        now,
        actor,
        lambda s, lv: clock.set_level(s, lv, index, now),
        to=index,
    )


@transaction.atomic
def clock_add_time(
    *, tournament: Tournament, seconds: int, now: datetime, actor: Actor = None
) -> Tournament:
    """Add time (positive) or remove it (negative) from the level on the clock."""
    return _operate(
        tournament,
        "clock_add_time",
        now,
        actor,
        lambda s, lv: clock.add_time(s, lv, seconds, now),
        seconds=seconds,
    )


@transaction.atomic
def clock_announce_level(
    *, tournament_id: int, expected_index: int, now: datetime | None = None
) -> bool:
    """Record a level change at its end time. Does nothing (and returns False) when the clock no
    longer agrees with the expected level or the change was already recorded."""
    now = now or timezone.now()
    try:
        tournament = lock_tournament(tournament_id)
    except FloorError:
        return False
    if tournament.status != Tournament.Status.RUNNING:
        return False
    levels = tournament_levels(tournament)
    state = clock_state(tournament)
    if state.level_index == expected_index:
        return False  # already recorded by an earlier run
    if not clock.change_is_due(state, levels, expected_index, now):
        change = clock.next_change_at(state, levels, now)
        if change is not None and change[0] == expected_index:
            _schedule_announcement(tournament, levels, state, now)  # woke up early
        return False
    normal = clock.normalize(state, levels, now)
    _store(tournament, normal)
    view = clock.view(normal, levels, now)
    audit_record(
        tournament=tournament,
        actor=None,
        action="level_change",
        level=normal.level_index,
        label=view.label,
    )
    _schedule_announcement(tournament, levels, normal, now)
    return True


# RP-8: in hand-for-hand the clock is stopped and loses at most this much per hand played.
HAND_FOR_HAND_SECONDS = 60


@transaction.atomic
def tournament_set_hand_for_hand(
    *, tournament: Tournament, on: bool, now: datetime, actor: Actor = None
) -> Tournament:
    """Start or end hand-for-hand play (RP-8). Starting it stops the clock and opens the first
    hand-for-hand hand: each table deals exactly one hand, and the next starts when every table
    has finished its own. Ending it starts the clock again. While it lasts, players out on the
    same hand-for-hand hand at different tables share their place (`finishing`); it ends by
    itself when the bubble bursts."""
    tournament = lock_tournament(tournament)
    if tournament.status not in (Tournament.Status.RUNNING, Tournament.Status.PAUSED):
        raise FloorError("not_running", "Hand-for-hand is played while the tournament runs.")
    if tournament.hand_for_hand == on:
        already = "already" if on else "not"
        raise FloorError("hand_for_hand_unchanged", f"Hand-for-hand is {already} in play.")
    tournament.hand_for_hand = on
    if on:
        tournament.hand_for_hand_round += 1
    tournament.save(update_fields=["hand_for_hand", "hand_for_hand_round", "updated_at"])
    state = clock_state(tournament)
    if on and state.ends_at is not None:
        tournament = _operate(
            tournament, "clock_pause", now, actor, lambda s, lv: clock.pause(s, lv, now)
        )
    elif not on and state.remaining is not None:
        tournament = _operate(
            tournament, "clock_resume", now, actor, lambda s, lv: clock.resume(s, lv, now)
        )
    audit_record(tournament=tournament, actor=actor, action="hand_for_hand", on=on)
    return tournament


def hand_for_hand_table_done(*, tournament: Tournament, now: datetime, actor: Actor = None) -> bool:
    """A table finished its hand-for-hand hand (the caller holds the tournament's lock). When
    every table has, the hand is over: the clock loses the hand's time and the next hand-for-hand
    hand opens, or, once the bubble has burst, hand-for-hand ends and the clock runs again."""
    if not tournament.hand_for_hand:
        return False
    if any(t.state != "done" for t in hand_for_hand_tables(tournament)):
        return False
    _next_hand_for_hand_hand(tournament, now, actor, HAND_FOR_HAND_SECONDS)
    return True


def _next_hand_for_hand_hand(
    tournament: Tournament, now: datetime, actor: Actor, seconds: int
) -> Tournament:
    taken = max(0, min(seconds, HAND_FOR_HAND_SECONDS))
    tournament = _operate(
        tournament,
        "hand_for_hand_hand",
        now,
        actor,
        lambda s, lv: clock.add_time(s, lv, -taken, now),
        seconds=-taken,
    )
    left = Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE).count()
    if left <= len(prize_table(tournament)):
        tournament.hand_for_hand = False
        tournament.save(update_fields=["hand_for_hand", "updated_at"])
        if clock_state(tournament).remaining is not None:
            tournament = _operate(
                tournament, "clock_resume", now, actor, lambda s, lv: clock.resume(s, lv, now)
            )
        audit_record(
            tournament=tournament, actor=actor, action="hand_for_hand", on=False, bubble=True
        )
        return tournament
    tournament.hand_for_hand_round += 1
    tournament.save(update_fields=["hand_for_hand_round", "updated_at"])
    return tournament


@transaction.atomic
def clock_hand_for_hand_hand(
    *,
    tournament: Tournament,
    now: datetime,
    actor: Actor = None,
    seconds: int = HAND_FOR_HAND_SECONDS,
    expected_hand: int | None = None,
) -> Tournament:
    """The director declares the hand-for-hand hand over at every table (tables that do not
    use the tablet): the stopped clock loses the hand's time, at most `HAND_FOR_HAND_SECONDS`
    (RP-8), and the next hand-for-hand hand opens, or hand-for-hand ends with the bubble.
    `expected_hand` is the hand-for-hand hand the director saw: if the tablets have ended it
    since, the press is refused rather than ending the next hand unplayed."""
    locked = lock_tournament(tournament)
    if not locked.hand_for_hand:
        raise FloorError("not_hand_for_hand", "Hand-for-hand is not in play.")
    if expected_hand is not None and expected_hand != locked.hand_for_hand_round:
        raise FloorError(
            "hand_for_hand_moved_on",
            f"Hand-for-hand hand {expected_hand} is over already: the tables are playing hand "
            f"{locked.hand_for_hand_round}. Press Hand complete when that one is over.",
        )
    playing = [t.number for t in hand_for_hand_tables(locked) if t.state == "playing"]
    if playing:
        listed = ", ".join(str(n) for n in playing)
        raise FloorError(
            "hands_in_progress",
            f"Table {listed} is still playing its hand: it ends on the tablet.",
        )
    return _next_hand_for_hand_hand(locked, now, actor, seconds)
