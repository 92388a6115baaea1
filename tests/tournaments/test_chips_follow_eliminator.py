"""Chips follow the eliminator (KO-4): a bust typed on the desk that names who knocked the player
out moves the busted player's last known stack to the eliminators through the ledger, shared as
the bounty is; the receiving stacks are estimates until their next count. A bust naming nobody
leaves its chips "not yet assigned", and the standings say how many (issue 27)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from rest_framework.test import APIClient

from common.errors import FloorError
from config import request_time
from tests.factories import seated_tournament
from tournaments.models import ChipMove, Entry, Tournament
from tournaments.selectors.books import chips_check, chips_in_play
from tournaments.selectors.standings import tournament_standings
from tournaments.services.busts import Bust, entries_bust, entries_unbust
from tournaments.services.entries import entry_set_chips
from tournaments.services.knockouts import eliminators_equal, split_chips

pytestmark = pytest.mark.django_db

T0 = datetime(2025, 6, 1, 18, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def _clock(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(request_time, "now", lambda: T0)


def players(tournament: Tournament) -> list[Entry]:
    return list(Entry.objects.filter(tournament=tournament).order_by("player__name"))


def bust(tournament: Tournament, out: Entry, *by: Entry) -> None:
    """A bust typed on the desk: `out` with their last known stack, knocked out by `by`."""
    out.refresh_from_db()
    entries_bust(
        tournament=tournament,
        busts=[
            Bust(
                entry_id=out.pk,
                starting_stack=out.chips,
                eliminated_by=eliminators_equal(e.pk for e in by),
            )
        ],
        now=T0,
    )


def chips(entry: Entry) -> int:
    entry.refresh_from_db()
    return entry.chips


@pytest.mark.parametrize(
    ("stack", "shares", "parts"),
    [
        (10_000, [1], [10_000]),
        (10_000, [1, 1], [5_000, 5_000]),
        (10_000, [1, 1, 1], [3_334, 3_333, 3_333]),
        (5, [1, 1], [3, 2]),
        (1, [1, 1, 1], [1, 0, 0]),
    ],
)
def test_ko4_the_stack_is_split_as_the_bounty_rounded_down_the_odd_chips_to_the_first(
    stack: int, shares: list[int], parts: list[int]
) -> None:
    assert split_chips(stack, shares) == parts
    assert sum(split_chips(stack, shares)) == stack


def test_ko4_heads_up_leaders_add_up_to_the_chips_in_play_after_a_desk_bust_naming_who() -> None:
    """The issue's bug: heads-up, the two leaders held a fraction of the chips in play (the
    average was far above both) because a desk bust credited nobody."""
    event = seated_tournament(players=3, starting_stack=10_000)
    eva, _jonas, out = players(event)
    entry_set_chips(entry=eva, chips=6_000, now=T0)
    entry_set_chips(entry=out, chips=14_000, now=T0)
    bust(event, out, eva)
    standings = tournament_standings(event)
    assert [row.chips for row in standings.rows] == [20_000, 10_000]
    assert sum(row.chips for row in standings.rows) == standings.total_chips == 30_000
    assert standings.average_stack == 15_000
    assert standings.unassigned_chips == 0
    assert chips_check(event) == []


def test_ko4_one_ledger_row_per_eliminator_and_the_odd_chips_to_the_first_named() -> None:
    event = seated_tournament(players=5, starting_stack=10_000)
    a, b, c, _, out = players(event)
    bust(event, out, c, a, b)
    moved = list(ChipMove.objects.filter(tournament=event, kind=ChipMove.Kind.KNOCKOUT))
    assert [(m.entry_id, m.delta, m.from_entry_id) for m in moved] == [
        (c.pk, 3_334, out.pk),
        (a.pk, 3_333, out.pk),
        (b.pk, 3_333, out.pk),
    ]
    assert (chips(c), chips(a), chips(b), chips(out)) == (13_334, 13_333, 13_333, 0)
    assert chips_check(event) == []


def test_ko4_the_receiving_stack_is_estimated_until_its_next_count() -> None:
    event = seated_tournament(players=4, starting_stack=10_000)
    winner, other, _, out = players(event)
    bust(event, out, winner)
    rows = {row.entry_id: row for row in tournament_standings(event).rows}
    assert rows[winner.pk].estimated_since == "Player 03"
    assert "estimated" in rows[winner.pk].chips_source
    assert rows[other.pk].estimated_since is None
    entry_set_chips(entry=winner, chips=19_500, now=T0)
    rows = {row.entry_id: row for row in tournament_standings(event).rows}
    assert rows[winner.pk].estimated_since is None


def test_ko4_a_bust_naming_nobody_leaves_its_chips_not_yet_assigned_until_a_count() -> None:
    event = seated_tournament(players=4, starting_stack=10_000)
    winner, _, _, out = players(event)
    bust(event, out)
    standings = tournament_standings(event)
    assert standings.unassigned_chips == 10_000
    assert sum(row.chips for row in standings.rows) + standings.unassigned_chips == (
        standings.total_chips
    )
    assert standings.average_stack == 40_000 // 3
    entry_set_chips(entry=winner, chips=20_000, now=T0)  # the table is counted
    assert tournament_standings(event).unassigned_chips == 0
    assert chips_check(event) == []


def test_ko4_undoing_the_bust_takes_the_chips_back_from_its_eliminators() -> None:
    event = seated_tournament(players=4, starting_stack=10_000)
    a, b, _, out = players(event)
    bust(event, out, a, b)
    entries_unbust(tournament=event, now=T0)
    assert (chips(a), chips(b), chips(out)) == (10_000, 10_000, 10_000)
    back = ChipMove.objects.filter(kind=ChipMove.Kind.KNOCKOUT, delta__lt=0)
    assert sorted((m.entry_id, m.delta) for m in back) == sorted([(a.pk, -5_000), (b.pk, -5_000)])
    assert chips_check(event) == []
    bust(event, out, b)  # busted again, by someone else this time
    assert (chips(a), chips(b)) == (10_000, 20_000)
    assert chips_check(event) == []


def test_ko4_an_undo_is_refused_when_the_eliminator_no_longer_holds_the_chips_moved() -> None:
    event = seated_tournament(players=4, starting_stack=10_000)
    a, _, _, out = players(event)
    bust(event, out, a)
    entry_set_chips(entry=a, chips=4_000, now=T0)
    with pytest.raises(FloorError) as refused:
        entries_unbust(tournament=event, now=T0)
    assert refused.value.code == "negative_chips"
    assert chips(out) == 0  # nothing written


def test_check_chips_finds_knockout_chips_that_do_not_match_their_bust() -> None:
    event = seated_tournament(players=4, starting_stack=10_000)
    a, _, _, out = players(event)
    bust(event, out, a)
    assert chips_check(event) == []
    # As a buggy writer would leave it: a's rows and total agree, but 1,000 chips vanished.
    row = ChipMove.objects.get(kind=ChipMove.Kind.KNOCKOUT)
    ChipMove.objects.filter(pk=row.pk).update(delta=9_000, balance=19_000)
    Entry.objects.filter(pk=a.pk).update(chips=19_000)
    problems = chips_check(event)
    assert f"entry {out.pk}'s bust took 10000 chips, 9000 went" in " ".join(problems), problems


def test_the_standings_api_says_the_chips_not_yet_assigned_and_the_estimates(
    director: APIClient,
) -> None:
    event = seated_tournament(players=4, starting_stack=10_000)
    a, _, c, out = players(event)
    bust(event, out, a)
    bust(event, c)
    body = APIClient().get(f"/api/tournaments/{event.pk}/standings/").json()
    assert body["unassigned_chips"] == 10_000
    assert sum(r["chips"] for r in body["rows"]) + body["unassigned_chips"] == chips_in_play(event)
    estimated = {r["name"]: r["estimated_since"] for r in body["rows"]}
    assert estimated == {"Player 00": "Player 03", "Player 01": None}
