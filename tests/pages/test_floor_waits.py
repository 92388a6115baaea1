"""Issue 10: the desk shows the floor waiting for the hand. Who is in a hand in progress, where
each player's count comes from, the rebuy or add-on refused until the hand ends, the moves that
wait for a hand ("moves after this hand"), hand-for-hand's progress table by table, and a bust
that only the tablet may record."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from common.errors import FloorError
from dealer.models import Hand
from dealer.selectors import check_hand_chips
from dealer.services import hand_start
from tests.pages import (
    NAMES,
    NOW,
    deal,
    entry_of,
    fold_to_end,
    freeze_pages,
    once,
    staff_client,
    tournament,
)
from tournaments.models import ChipMove, Entry, Table, Tournament
from tournaments.selectors.books import chips_check
from tournaments.services.busts import Bust, entries_bust
from tournaments.services.clocks import tournament_set_hand_for_hand
from tournaments.services.entries import entry_set_chips
from tournaments.services.tables import tournament_balance_plan

PLAYERS = [f"Player {n:02d}" for n in range(1, 19)]  # 18 players: two full tables of 9


@pytest.fixture
def director(client: Client, monkeypatch: pytest.MonkeyPatch) -> Client:
    freeze_pages(monkeypatch, NOW)
    return staff_client(client)


def dealt(hand: Hand) -> list[Entry]:
    return list(
        Entry.objects.filter(pk__in=[row["entry"] for row in hand.seats]).select_related("player")
    )


# --- the entries list -----------------------------------------------------------------------


@pytest.mark.django_db
def test_the_entries_list_says_who_is_in_a_hand_and_where_each_count_comes_from(
    director: Client,
) -> None:
    event = tournament(players=NAMES[:12], start=True)
    hand = deal(event, 1)
    in_hand = dealt(hand)
    away = Entry.objects.filter(tournament=event, table__number=2).select_related("player")[0]
    entry_set_chips(entry=away, chips=12500, note="at the break", now=NOW)

    body = director.get(reverse("entry-list", args=[event.pk])).content.decode()

    assert body.count(f"in hand {hand.number} at table 1") == len(in_hand)
    assert "counted (at the break), 18:00" in body
    assert "starting stack, 18:00" in body


@pytest.mark.django_db
@pytest.mark.parametrize(("url", "what"), [("entry-rebuy", "rebuy"), ("entry-addon", "add-on")])
def test_a_rebuy_or_add_on_in_a_hand_shows_the_services_sentence(
    director: Client, url: str, what: str
) -> None:
    event = tournament(
        players=NAMES[:4],
        start=True,
        rebuy_chips=5000,
        rebuy_until_level=2,
        addon_chips=5000,
        addon_level=1,  # the add-on's window is now (issue 26)
    )
    hand = deal(event, 1)
    player = dealt(hand)[0]

    response = director.post(reverse(url, args=[event.pk, player.pk]), once(), follow=True)

    body = response.content.decode()
    assert f"{player.player.name} is in hand 1 at table 1: record the {what} when it ends." in body
    assert "message--error" in body
    player.refresh_from_db()
    assert (player.chips, player.rebuys, player.addon) == (10000, 0, False)


@pytest.mark.django_db
def test_after_the_hand_the_same_rebuy_form_adds_to_the_hands_result(director: Client) -> None:
    """The refused form keeps its token: sent again once the hand is over, it is recorded, on
    top of what the hand left (never overwritten by it)."""
    event = tournament(players=NAMES[:4], start=True, rebuy_chips=5000, rebuy_until_level=2)
    hand = deal(event, 1)
    player = next(e for e in dealt(hand) if e.seat == hand.small_blind_seat)
    form = once()
    url = reverse("entry-rebuy", args=[event.pk, player.pk])

    director.post(url, form)
    fold_to_end(hand)
    player.refresh_from_db()
    after_hand = player.chips
    response = director.post(url, form, follow=True)

    player.refresh_from_db()
    assert after_hand == 10000 - 100  # the small blind folded
    assert (player.chips, player.rebuys) == (after_hand + 5000, 1)
    assert f"Rebuy for {player.player.name}: 14,900 chips now." in response.content.decode()


# --- the tables page ------------------------------------------------------------------------


def table_pk(event: Tournament, number: int) -> int:
    return Table.objects.get(tournament=event, number=number).pk


def _short_table(event: Tournament, table: int, busts: int) -> None:
    out = Entry.objects.filter(tournament=event, table__number=table, status="active")[:busts]
    for entry in out:
        entries_bust(tournament=event, busts=[Bust(entry_id=entry.pk, starting_stack=10)], now=NOW)


@pytest.mark.django_db
def test_moves_confirmed_during_a_hand_are_listed_as_moves_after_this_hand(
    director: Client,
) -> None:
    event = tournament(players=PLAYERS, start=True)
    _short_table(event, 2, 3)  # table 2 has 6, table 1 has 9: move 1 from table 1
    plan = tournament_balance_plan(event)
    assert len(plan.moves) == 1
    hand = deal(event, 1)
    mover = Entry.objects.select_related("player").get(pk=plan.moves[0].entry_id)

    confirmed = director.post(reverse("moves-confirm", args=[event.pk]), once(), follow=True)
    page = director.get(reverse("table-list", args=[event.pk])).content.decode()

    mover.refresh_from_db()
    assert (mover.table_id, mover.move_to_table_id) == (table_pk(event, 1), table_pk(event, 2))
    assert "1 move confirmed; 1 after the hand they are playing." in confirmed.content.decode()
    assert "Moves after this hand" in page
    assert (
        f"<strong>{mover.player.name}</strong>: table 1 seat {mover.seat}\n"
        f"            &rarr; table 2 seat {mover.move_to_seat},\n"
        f"            after hand {hand.number} at table 1"
    ) in page
    assert "Confirm moves" not in page  # no second confirmation while moves wait
    assert f"Hand {hand.number} in progress" in page
    assert f"moves to table 2, seat {mover.move_to_seat} after this hand" in page
    assert f"held for {mover.player.name} (after their hand)" in page

    fold_to_end(hand)
    after = director.get(reverse("table-list", args=[event.pk])).content.decode()
    assert "Moves after this hand" not in after
    assert "in progress" not in after
    mover.refresh_from_db()
    assert (mover.table_id, mover.seat) == (table_pk(event, 2), plan.moves[0].to_seat)


@pytest.mark.django_db
def test_bug_a_player_moved_during_a_hand_is_not_dealt_a_second_hand_and_keeps_its_result(
    director: Client,
) -> None:
    """The bug: a balancing move confirmed while the mover was in a hand took them into a hand at
    the new table as well; both hands ended and one result was lost (1,600 chips short). Now the
    move waits for the hand: the new table deals without them, and both hands' results stand."""
    event = tournament(players=PLAYERS, start=True)
    _short_table(event, 2, 3)
    first = deal(event, 1)
    mover_id = tournament_balance_plan(event).moves[0].entry_id
    director.post(reverse("moves-confirm", args=[event.pk]), once())

    second = deal(event, 2)  # the table the mover is going to
    fold_to_end(second)
    fold_to_end(first)

    mover = Entry.objects.get(pk=mover_id)
    dealt_at_table_2 = [row["entry"] for row in second.seats]
    first.refresh_from_db()
    start = next(row["stack"] for row in first.seats if row["entry"] == mover_id)
    result = first.state["finishing_stacks"][
        str(next(row["seat"] for row in first.seats if row["entry"] == mover_id))
    ]
    assert mover_id not in dealt_at_table_2
    assert mover.table_id == table_pk(event, 2)
    assert mover.chips == result
    assert list(
        ChipMove.objects.filter(entry_id=mover_id, kind="hand").values_list("hand_id", "delta")
    ) == [(first.pk, result - start)]  # one hand's result, from that hand
    assert mover.chips_source == f"after hand {first.number} at table 1"
    assert chips_check(event) == []
    assert check_hand_chips(event) == []


@pytest.mark.django_db
def test_the_tablet_shows_on_the_movers_seat_that_they_move_after_this_hand(
    director: Client,
) -> None:
    event = tournament(players=PLAYERS, start=True)
    _short_table(event, 2, 3)
    hand = deal(event, 1)
    director.post(reverse("moves-confirm", args=[event.pk]), once())
    mover = Entry.objects.get(tournament=event, move_to_table__isnull=False)
    tablet = reverse("deal-table", args=[table_pk(event, 1)])

    during = director.get(tablet).content.decode()
    fold_to_end(hand)
    after = director.get(tablet).content.decode()

    said = f"Moves to table 2, seat {mover.move_to_seat} after this hand"
    assert said in during
    assert during.count('data-testid="moves-after"') == 1
    assert said not in after


@pytest.mark.django_db
def test_a_player_dealt_in_is_marked_on_the_tables_page(director: Client) -> None:
    event = tournament(players=NAMES[:12], start=True)
    hand = deal(event, 2)

    response = director.get(reverse("table-list", args=[event.pk]))

    views = {t.number: t for t in response.context["tables"]}
    assert views[2].hand_number == hand.number
    assert views[1].hand_number is None
    assert sum(seat.in_hand for seat in views[2].seats) == len(hand.seats)
    assert not any(seat.in_hand for seat in views[1].seats)


# --- hand-for-hand --------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("page", ["clock-control", "tournament-dashboard"])
def test_hand_for_hand_shows_which_tables_have_finished_their_hand(
    director: Client, page: str
) -> None:
    event = tournament(players=PLAYERS[:14], start=True, payout_percentages=[50, 30, 20])
    tables = Table.objects.filter(tournament=event).count()
    assert tables == 2
    tournament_set_hand_for_hand(tournament=event, on=True, now=NOW)
    url = reverse(page, args=[event.pk])

    waiting = director.get(url).content.decode()
    hand = deal(event, 1)
    playing = director.get(url).content.decode()
    fold_to_end(hand)
    done = director.get(url).content.decode()

    assert "Hand for hand &middot; hand 1" in waiting
    assert "Table 1:\n        to deal" in waiting
    assert "Table 2:\n        to deal" in waiting
    assert "0 of 2 tables done" in waiting
    assert "Table 1:\n        playing its hand" in playing
    assert "Table 1:\n        done" in done
    assert "Table 2:\n        to deal" in done
    assert "1 of 2 tables done" in done


@pytest.mark.django_db
def test_hand_for_hand_moves_to_the_next_hand_when_every_table_is_done(director: Client) -> None:
    event = tournament(players=PLAYERS[:14], start=True, payout_percentages=[50, 30, 20])
    tournament_set_hand_for_hand(tournament=event, on=True, now=NOW)
    fold_to_end(deal(event, 1))
    fold_to_end(deal(event, 2))

    body = director.get(reverse("clock-control", args=[event.pk])).content.decode()

    assert "Hand for hand &middot; hand 2" in body
    # The desk's header says hand-for-hand, not "Paused", although the clock stands still.
    assert '<span class="badge badge--hand-for-hand">Hand for hand</span>' in body
    assert "0 of 2 tables done" in body


@pytest.mark.django_db
def test_rp8_the_tablet_says_it_waits_for_the_other_tables_and_its_poll_sees_the_next_hand(
    director: Client,
) -> None:
    """The tablet of a table that has played its hand-for-hand hand shows the service's own
    sentence (it used to say "the tournament is paused"), and its polled state changes when the
    next hand-for-hand hand opens, so the start button comes back without a reload."""
    event = tournament(players=PLAYERS[:14], start=True, payout_percentages=[50, 30, 20])
    tournament_set_hand_for_hand(tournament=event, on=True, now=NOW)
    table = Table.objects.get(tournament=event, number=1)
    fold_to_end(deal(event, 1))
    url = reverse("deal-state", args=[table.pk])
    htmx = {"HX-Request": "true"}

    waiting = director.get(url, headers=htmx)
    etag = waiting["ETag"]
    unchanged = director.get(url, headers={**htmx, "If-None-Match": etag})
    fold_to_end(deal(event, 2))  # every table has played: hand-for-hand hand 2 opens
    next_hand = director.get(url, headers={**htmx, "If-None-Match": etag})

    assert "Table 1 has played this hand. Wait until every table has finished theirs." in (
        waiting.content.decode()
    )
    assert "paused" not in waiting.content.decode()
    assert unchanged.status_code == 304
    assert next_hand.status_code == 200
    assert "has played this hand" not in next_hand.content.decode()


@pytest.mark.django_db
def test_rp8_a_table_that_has_played_its_hand_for_hand_hand_is_refused_the_next_deal() -> None:
    event = tournament(players=PLAYERS[:14], start=True, payout_percentages=[50, 30, 20])
    tournament_set_hand_for_hand(tournament=event, on=True, now=NOW)
    table = Table.objects.get(tournament=event, number=1)
    fold_to_end(deal(event, 1))

    with pytest.raises(FloorError) as refused:
        hand_start(table=table, now=NOW)

    assert refused.value.code == "hand_for_hand_wait"
    assert Hand.objects.filter(table=table).count() == 1


@pytest.mark.django_db
def test_without_hand_for_hand_the_pages_show_no_board(director: Client) -> None:
    event = tournament(players=NAMES[:12], start=True)

    for page in ("clock-control", "tournament-dashboard"):
        body = director.get(reverse(page, args=[event.pk])).content.decode()
        assert "Hand for hand &middot;" not in body


# --- eliminations ---------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_player_in_a_hand_cannot_be_picked_for_a_bust(director: Client) -> None:
    event = tournament(players=NAMES[:12], start=True)
    hand = deal(event, 1)
    player = dealt(hand)[0]
    free = Entry.objects.filter(tournament=event, table__number=2).first()
    assert free is not None

    body = director.get(reverse("bust-list", args=[event.pk])).content.decode()
    row = director.get(reverse("bust-row", args=[event.pk]), {"entry": player.pk})

    assert f'<option value="{player.pk}" disabled>' in body
    assert "in hand 1 at table 1: the tablet busts them" in body
    assert f'<option value="{free.pk}">' in body
    assert f'<option value="{player.pk}" disabled>' in row.content.decode()
    assert 'name="stack" min="1" step="1" inputmode="numeric" value=""' in row.content.decode()


@pytest.mark.django_db
def test_a_bust_of_a_player_in_a_hand_shows_the_refusal(director: Client) -> None:
    """A stale page (the hand started after it was drawn) still gets the service's sentence."""
    event = tournament(players=NAMES[:12], start=True)
    hand = deal(event, 1)
    player = dealt(hand)[0]

    response = director.post(
        reverse("bust-list", args=[event.pk]), once(entry=[str(player.pk)], stack=["5000"])
    )

    assert (
        f"{player.player.name} is in hand 1 at table 1: the tablet busts players when the hand "
        "ends." in response.content.decode()
    )
    player.refresh_from_db()
    assert player.status == Entry.Status.ACTIVE


@pytest.mark.django_db
def test_the_bust_row_is_prefilled_with_the_last_known_stack_and_says_where_it_came_from(
    director: Client,
) -> None:
    event = tournament(players=NAMES[:4], start=True)
    ann = entry_of(event, "Ann Lee")
    entry_set_chips(entry=ann, chips=20000, note="at the break", now=NOW)

    row = director.get(reverse("bust-row", args=[event.pk]), {"entry": ann.pk}).content.decode()

    assert 'value="20000"' in row
    assert "last known stack 20,000 (counted (at the break), 18:00): at most this" in row


@pytest.mark.django_db
def test_bug_a_bust_stack_above_the_last_known_stack_is_refused_with_the_check(
    director: Client,
) -> None:
    """The bug: a bust's "chips at the start of the hand" accepted 999,999 for a 20,000 stack."""
    event = tournament(players=NAMES[:4], start=True)
    ann = entry_of(event, "Ann Lee")
    entry_set_chips(entry=ann, chips=20000, now=NOW)

    response = director.post(
        reverse("bust-list", args=[event.pk]), once(entry=[str(ann.pk)], stack=["999999"])
    )

    body = response.content.decode()
    assert (
        "Ann Lee&#x27;s last known stack is 20,000: the stack at the start of the hand is "
        "between 1 and 20,000." in body
    )
    assert "last known stack 20,000" in body  # the row, shown again with its hint
    ann.refresh_from_db()
    assert ann.status == Entry.Status.ACTIVE
