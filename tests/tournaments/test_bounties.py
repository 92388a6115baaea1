"""Bounties (docs/rules.md "Bounties"): who eliminated whom is recorded with each bust (from the
tablet's hand, KO-1, or named on the desk, KO-2), and the bounties are worked out from those
records (KO-3), so that an undone bust or a reopened hand takes its bounty back."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

import pytest
from rest_framework.test import APIClient

from common.errors import FloorError
from config import request_time
from tests.factories import (
    DirectorFactory,
    HandClient,
    assign_dealer,
    seated_tournament,
)
from tournaments.models import Entry, Knockout, Table, Tournament
from tournaments.selectors.bounties import split_money, tournament_bounties
from tournaments.services.busts import Bust, entries_bust, entries_unbust
from tournaments.services.deals import tournament_accept_deal
from tournaments.services.entries import entry_set_chips
from tournaments.services.events import tournament_update
from tournaments.services.knockouts import Eliminator, eliminators_equal

pytestmark = pytest.mark.django_db

T0 = datetime(2025, 6, 1, 18, 0, tzinfo=UTC)
PKO: dict[str, Any] = {"bounty_kind": "progressive", "bounty": Decimal("100")}


@pytest.fixture(autouse=True)
def _clock(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(request_time, "now", lambda: T0)


def players(tournament: Tournament) -> list[Entry]:
    """The entries by name: Player 00, Player 01, ..."""
    return list(Entry.objects.filter(tournament=tournament).order_by("player__name"))


def bust(tournament: Tournament, out: Entry, *by: Entry) -> None:
    """A bust typed on the desk: `out` with their last stack, knocked out by `by`."""
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


def money(value: str) -> Decimal:
    return Decimal(value)


# --- the rounding ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("amount", "shares", "parts"),
    [
        ("50.00", [1, 1], ["25.00", "25.00"]),
        ("0.05", [1, 1], ["0.03", "0.02"]),
        ("100.00", [1, 1, 1], ["33.34", "33.33", "33.33"]),
        ("12.53", [2251, 2250], ["6.27", "6.26"]),
        ("10.00", [3, 1], ["7.50", "2.50"]),
    ],
)
def test_ko3_money_is_split_by_share_rounded_down_the_odd_cents_to_the_first(
    amount: str, shares: list[int], parts: list[str]
) -> None:
    split = split_money(Decimal(amount), shares)
    assert split == [Decimal(p) for p in parts]
    assert sum(split) == Decimal(amount)


# --- fixed bounties ---------------------------------------------------------------------------


def test_ko3_fixed_bounty_event_pays_each_knockout_and_the_winner_their_own_bounty() -> None:
    event = seated_tournament(players=4, bounty_kind="fixed", bounty=Decimal("50"))
    ann, bob, cat, dan = players(event)

    bust(event, bob, ann)  # Ann alone: the whole 50
    bust(event, cat, ann, dan)  # named together: 25 each
    mid = tournament_bounties(event)
    assert mid.of(ann.pk, in_play=True).won == money("75.00")
    assert mid.of(dan.pk, in_play=True).won == money("25.00")
    assert mid.of(dan.pk, in_play=True).head == money("50.00")  # a fixed bounty never grows
    assert mid.eliminated_by == {bob.pk: ("Player 00",), cat.pk: ("Player 00", "Player 03")}

    bust(event, dan, ann)  # Ann wins the event and takes her own bounty back
    done = tournament_bounties(event)
    assert done.of(ann.pk, in_play=True).won == money("175.00")
    assert done.of(ann.pk, in_play=True).collected == money("50.00")
    assert done.of(ann.pk, in_play=True).knocked_out == ["Player 01", "Player 02", "Player 03"]
    assert done.of(dan.pk, in_play=False).won == money("25.00")
    assert done.paid == money("200.00")  # 4 entries x 50: every bounty paid out once


# --- progressive knockouts --------------------------------------------------------------------


def test_ko3_pko_half_in_cash_half_onto_the_head_and_the_winner_collects_their_own() -> None:
    event = seated_tournament(players=3, **PKO)
    ann, bob, cat = players(event)

    bust(event, cat, bob)  # Bob: 50 cash, head 100 + 50
    after_one = tournament_bounties(event)
    assert after_one.of(bob.pk, in_play=True).won == money("50.00")
    assert after_one.of(bob.pk, in_play=True).head == money("150.00")
    assert after_one.of(ann.pk, in_play=True).head == money("100.00")

    bust(event, bob, ann)  # Bob's head of 150: 75 cash to Ann, 75 onto her 100; she wins
    done = tournament_bounties(event)
    winner = done.of(ann.pk, in_play=True)
    assert (winner.won, winner.collected, winner.head) == (
        money("250.00"),
        money("175.00"),
        money("0.00"),
    )
    assert done.of(bob.pk, in_play=False).won == money("50.00")
    assert done.paid == money("300.00")  # 3 entries x 100
    rows = [(k.busted, k.eliminator, k.cash, k.onto_head) for k in done.knockouts]
    assert rows == [
        ("Player 02", "Player 01", money("50.00"), money("50.00")),
        ("Player 01", "Player 00", money("75.00"), money("75.00")),
    ]


def test_ko3_pko_odd_cents_go_to_the_first_eliminator_and_nothing_is_lost() -> None:
    event = seated_tournament(players=3, bounty_kind="progressive", bounty=Decimal("25.05"))
    ann, bob, cat = players(event)

    bust(event, cat, ann, bob)  # 12.52 in cash (rounded down), 12.53 onto heads; shared equally

    bounties = tournament_bounties(event)
    assert bounties.of(ann.pk, in_play=True).won == money("6.26")
    assert bounties.of(bob.pk, in_play=True).won == money("6.26")
    assert bounties.of(ann.pk, in_play=True).head == money("31.32")  # 25.05 + 6.27
    assert bounties.of(bob.pk, in_play=True).head == money("31.31")  # 25.05 + 6.26
    total = sum((bounties.of(e.pk, in_play=True).head for e in (ann, bob)), Decimal(0))
    assert total + bounties.paid == money("75.15")  # 3 entries x 25.05


def test_ko3_players_left_in_an_accepted_deal_collect_their_own_heads() -> None:
    event = seated_tournament(players=4, payout_percentages=[50, 30, 20], **PKO)
    ann, bob, cat, dan = players(event)
    bust(event, dan, ann)

    tournament_accept_deal(tournament=event, method="chip_chop")

    bounties = tournament_bounties(event)
    assert bounties.of(ann.pk, in_play=True).won == money("200.00")  # 50 + her head of 150
    assert bounties.of(bob.pk, in_play=True).collected == money("100.00")
    assert bounties.of(cat.pk, in_play=True).won == money("100.00")
    assert bounties.paid == money("400.00")


def test_ko3_a_bust_without_an_eliminator_pays_nobody() -> None:
    event = seated_tournament(players=3, **PKO)
    ann, _bob, cat = players(event)

    bust(event, cat)

    bounties = tournament_bounties(event)
    assert bounties.knockouts == ()
    assert bounties.paid == 0
    assert bounties.of(ann.pk, in_play=True).head == money("100.00")


def test_an_event_without_bounties_still_says_who_eliminated_whom() -> None:
    event = seated_tournament(players=3)
    _ann, bob, cat = players(event)

    bust(event, cat, bob)

    bounties = tournament_bounties(event)
    assert bounties.eliminated_by == {cat.pk: ("Player 01",)}
    assert bounties.paid == 0
    assert not bounties.active


# --- the desk's eliminators -------------------------------------------------------------------


def test_ko2_an_eliminator_out_on_the_same_hand_is_refused() -> None:
    event = seated_tournament(players=4, **PKO)
    _ann, bob, cat, _dan = players(event)

    with pytest.raises(FloorError) as refused:
        entries_bust(
            tournament=event,
            busts=[
                Bust(
                    entry_id=bob.pk,
                    starting_stack=bob.chips,
                    eliminated_by=(Eliminator(entry_id=cat.pk),),
                ),
                Bust(entry_id=cat.pk, starting_stack=cat.chips),
            ],
            now=T0,
        )

    assert refused.value.code == "bad_eliminator"
    assert not Knockout.objects.exists()
    assert Entry.objects.filter(tournament=event, status="busted").count() == 0


@pytest.mark.parametrize("who", ["out_before", "other_event"])
def test_ko2_an_eliminator_who_is_not_a_player_still_in_is_refused(who: str) -> None:
    event = seated_tournament(players=4, **PKO)
    ann, bob, _cat, dan = players(event)
    bust(event, dan, ann)
    other = players(seated_tournament(players=2))[0]
    eliminator = dan if who == "out_before" else other

    with pytest.raises(FloorError) as refused:
        bust(event, bob, eliminator)

    assert refused.value.code == "bad_eliminator"
    assert Knockout.objects.filter(busted=bob).count() == 0


def test_undoing_a_desk_bust_takes_its_bounty_back() -> None:
    event = seated_tournament(players=3, **PKO)
    ann, _bob, cat = players(event)
    bust(event, cat, ann)
    assert tournament_bounties(event).of(ann.pk, in_play=True).won == money("50.00")

    entries_unbust(tournament=event, now=T0)

    assert not Knockout.objects.filter(tournament=event).exists()
    bounties = tournament_bounties(event)
    assert bounties.of(ann.pk, in_play=True).won == 0
    assert bounties.of(ann.pk, in_play=True).head == money("100.00")


def test_bounty_settings_are_locked_once_the_tournament_has_started() -> None:
    event = seated_tournament(players=3, **PKO)

    with pytest.raises(FloorError) as refused:
        tournament_update(tournament=event, bounty=Decimal("200"))

    # The bounty is money the entries paid (issue 26): corrected only by a repricing.
    assert refused.value.code == "money_locked"
    assert "bount" in refused.value.detail
    tournament_update(tournament=event, bounty=Decimal("100.00"))  # unchanged: fine


@pytest.mark.parametrize(
    ("values", "code"),
    [
        ({"bounty_kind": "fixed", "bounty": Decimal("0")}, "bad_bounty"),
        ({"bounty_kind": "progressive"}, "bad_bounty"),
        ({"bounty_kind": "none", "bounty": Decimal("-1")}, "bad_bounty"),
    ],
)
def test_a_bounty_kind_needs_a_positive_bounty(values: dict[str, Any], code: str) -> None:
    event = seated_tournament(players=2, start=False)
    event.status = Tournament.Status.REGISTERING

    with pytest.raises(FloorError) as refused:
        tournament_update(tournament=event, **values)

    assert refused.value.code == code


def test_the_bounties_are_two_queries_whatever_the_number_of_knockouts(
    django_assert_num_queries: Any,
) -> None:
    event = seated_tournament(players=12, **PKO)
    field = players(event)
    for out in field[1:]:
        bust(event, out, field[0])

    with django_assert_num_queries(2):
        bounties = tournament_bounties(event)

    assert len(bounties.knockouts) == 11
    assert bounties.paid == money("1200.00")


# --- from the tablet's hand (KO-1) ------------------------------------------------------------


class Tablet(HandClient):
    def client_id(self) -> str:
        return uuid.uuid4().hex

    def reopen(self, reason: str) -> Any:
        body = {"client_id": self.client_id(), "version": self.state["version"], "reason": reason}
        return self.write("reopen/", body)


def _client(user: Any) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


def split_pot_hand(tablet: Tablet, short: int, holes: dict[int, list[str]]) -> None:
    """`short` goes all in, the two others call it and check it down; their equal hands split
    the pot (board 2c 7d 9h Js 3s)."""
    boards = iter([["2c", "7d", "9h"], ["Js"], ["3s"]])
    while tablet.state["phase"] != "complete":
        state = tablet.state
        if state["phase"] == "dealing":
            tablet.ok(kind="deal_board", cards=next(boards))
        elif state["phase"] == "showdown":
            seat = state["next_to_show"]
            tablet.ok(kind="show", seat=seat, cards=holes[seat])
        elif state["legal"]["actor"] == short:
            tablet.ok(kind="all_in", seat=short)
        else:
            actor = state["legal"]["actor"]
            tablet.ok(kind="check" if state["legal"]["can_check"] else "call", seat=actor)


def test_ko1_pko_worked_example_a_split_pot_busts_a_player_and_reopening_takes_it_back() -> None:
    """Three players, PKO with 100 on each head. The short stack (1,500) is all in; both others
    call and split the pot with a pair of kings each. Their shares of the pot are equal, so
    the short stack's head of 100 goes 25 + 25 in cash and 25 + 25 onto their heads (125 each)."""
    event = seated_tournament(players=3, **PKO)
    table = Table.objects.get(tournament=event, number=1)
    seated = list(Entry.objects.filter(table=table).order_by("seat"))
    short, first, second = seated
    entry_set_chips(entry=short, chips=1500, note="re-count")
    dealer = _client(assign_dealer(table))
    started = dealer.post(f"/api/tables/{table.pk}/hands/", {"client_id": "s"}, format="json")
    tablet = Tablet(dealer, started.json())
    assert short.seat is not None
    assert first.seat is not None
    assert second.seat is not None
    holes = {short.seat: ["4c", "5d"], first.seat: ["Kh", "Kd"], second.seat: ["Kc", "Ks"]}

    split_pot_hand(tablet, short.seat, holes)

    short.refresh_from_db()
    assert short.status == Entry.Status.BUSTED
    rows = list(Knockout.objects.filter(busted=short).order_by("pk"))
    assert {r.eliminator_id for r in rows} == {first.pk, second.pk}
    assert [r.share for r in rows] == [2250, 2250]
    assert {r.hand_id for r in rows} == {tablet.state["hand"]}
    bounties = tournament_bounties(event)
    for winner in (first, second):
        assert bounties.of(winner.pk, in_play=True).won == money("25.00")
        assert bounties.of(winner.pk, in_play=True).head == money("125.00")

    floor = Tablet(_client(DirectorFactory.create()), tablet.state)
    assert floor.reopen("the cards were entered wrong").status_code == 200

    assert not Knockout.objects.filter(tournament=event).exists()
    again = tournament_bounties(event)
    assert again.of(first.pk, in_play=True).head == money("100.00")
    assert again.paid == 0


def test_the_bounties_are_kept_by_version_and_survive_the_cache_round_trip() -> None:
    """A big field's pages share one replay per change: the answer is cached under the
    tournament's version (it must pickle, as Redis stores it), and a new bust gives a new one."""
    import pickle

    from tournaments.selectors.bounties import event_bounties

    event = seated_tournament(players=4, now=T0, **PKO)
    a, b, c, _ = players(event)
    bust(event, c, a)
    event.refresh_from_db()

    first = event_bounties(event)
    assert first is not None
    assert pickle.loads(pickle.dumps(first)) == first
    assert event_bounties(event) == first
    bust(event, b, a)
    event.refresh_from_db()
    after = event_bounties(event)
    assert after is not None
    assert after.of(a.pk, in_play=True).knockouts == 2
