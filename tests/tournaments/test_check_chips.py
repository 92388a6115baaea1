"""Issue 10: `manage.py check_chips` proves the chip ledger's invariant on the demo after an
evening of floor and tablet work, and fails on a tampered ledger; and the corrections that would
have handed chips to an entry out of play, or put one player in play twice, are refused.

The invariant: each entry's chips are its ledger's running total; each hand's rows add up to
nothing; busted entries hold no chips; chips at the tables = chips issued - colour-ups + the
floor's recorded corrections; and the ledger's hand rows are what the hands' logs say.
"""

from __future__ import annotations

import random
import uuid
from decimal import Decimal
from io import StringIO
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.db.models import F
from django.utils import timezone

from common.errors import FloorError
from dealer.models import Hand
from dealer.services import hand_record_action, hand_reopen, hand_start, hand_undo
from tests.factories import DirectorFactory, make, seated_tournament
from tests.pages import fold_to_end
from tournaments.management.commands.load_demo import DEMO_NAME
from tournaments.models import ChipMove, Entry, Table, Tournament
from tournaments.selectors.books import chips_check, tournament_books
from tournaments.selectors.prizes import prize_table
from tournaments.services.busts import Bust, entries_bust, entries_unbust
from tournaments.services.counts import ChipCount, table_record_counts
from tournaments.services.deals import tournament_accept_deal
from tournaments.services.entries import entry_rebuy, entry_register, entry_set_chips
from tournaments.services.tables import tournament_confirm_moves


def check_chips() -> str:
    out = StringIO()
    call_command("check_chips", stdout=out, stderr=StringIO())
    return out.getvalue()


def demo() -> Tournament:
    call_command("load_demo", stdout=StringIO())
    return Tournament.objects.get(name=DEMO_NAME)


def table(tournament: Tournament, number: int) -> Table:
    return Table.objects.get(tournament=tournament, number=number)


def seated(t: Table) -> list[Entry]:
    return list(Entry.objects.filter(table=t, status=Entry.Status.ACTIVE).select_related("player"))


def reopen(hand: Hand, director: Any) -> Hand:
    hand.refresh_from_db()
    result = hand_reopen(
        hand=hand,
        reason="the pot went to the wrong player",
        client_id=uuid.uuid4().hex,
        version=hand.version,
        actor=director,
    )
    return result.hand


def undo(hand: Hand, director: Any) -> Hand:
    result = hand_undo(
        hand=hand,
        reason="wrong fold",
        client_id=uuid.uuid4().hex,
        version=hand.version,
        actor=director,
    )
    return result.hand


def an_evening(tournament: Tournament) -> None:
    """Hands at three tables, with the floor working around them: a late entry, a count, a
    count sheet, a bust on the desk, balancing moves, a hand reopened and played again."""
    director = make(DirectorFactory)
    now = timezone.now()
    for number in (1, 2, 3):
        fold_to_end(hand_start(table=table(tournament, number), actor=director))
    in_play = hand_start(table=table(tournament, 4), actor=director)
    entry_register(tournament=tournament, player_name="Late Lucy", now=now, actor=director)
    first = seated(table(tournament, 1))[0]
    entry_set_chips(entry=first, chips=first.chips + 500, note="found a chip", actor=director)
    sheet = table(tournament, 2)
    table_record_counts(
        table=sheet,
        counts=[ChipCount(entry_id=e.pk, chips=e.chips) for e in seated(sheet)],
        note="at the break",
        actor=director,
    )
    out = seated(table(tournament, 5))[0]
    entries_bust(
        tournament=tournament,
        busts=[Bust(entry_id=out.pk, starting_stack=out.chips)],
        now=now,
        actor=director,
    )
    tournament_confirm_moves(tournament=tournament, actor=director, rng=random.Random(3))
    fold_to_end(in_play)
    wrong = fold_to_end(hand_start(table=table(tournament, 1), actor=director))
    corrected = undo(reopen(wrong, director), director)
    fold_to_end(corrected)


@pytest.mark.django_db
def test_check_chips_proves_the_books_on_the_demo_after_an_evening_of_floor_and_tablet_work():
    tournament = demo()
    issued = tournament_books(tournament).issued

    an_evening(tournament)
    said = check_chips()

    books = tournament_books(tournament)
    assert books.issued == issued + tournament.starting_stack  # Late Lucy's buy-in
    assert ChipMove.objects.filter(tournament=tournament, kind="hand_reversed").exists()
    assert f"{tournament.name}: issued {books.issued:,}" in said
    assert "balances." in said
    assert said.rstrip().endswith("Every chip ledger balances.")


@pytest.mark.django_db
def test_check_chips_fails_on_an_entrys_chips_changed_behind_the_ledger():
    tournament = demo()
    an_evening(tournament)
    victim = Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE).first()
    assert victim is not None
    Entry.objects.filter(pk=victim.pk).update(chips=F("chips") + 1000)

    with pytest.raises(CommandError, match="difference"):
        check_chips()
    assert any(f"(entry {victim.pk})" in problem for problem in chips_check(tournament))


@pytest.mark.django_db
def test_check_chips_fails_on_a_hand_row_rewritten_in_the_ledger():
    tournament = demo()
    an_evening(tournament)
    row = ChipMove.objects.filter(tournament=tournament, kind="hand").order_by("pk").first()
    assert row is not None
    # Both the row and the entry's total are rewritten: the entry still adds up, the hand not.
    ChipMove.objects.filter(pk=row.pk).update(delta=F("delta") + 200, balance=F("balance") + 200)
    ChipMove.objects.filter(entry_id=row.entry_id, pk__gt=row.pk).update(balance=F("balance") + 200)
    Entry.objects.filter(pk=row.entry_id).update(chips=F("chips") + 200)

    with pytest.raises(CommandError):
        check_chips()
    assert any(f"hand {row.hand_id} made +200 chips" in p for p in chips_check(tournament))


@pytest.mark.django_db
def test_undoing_a_bust_after_the_player_re_entered_is_refused_not_a_second_entry_in_play():
    """Found by the floor-and-tablets state machine: the undo put the busted entry back in play
    next to the player's re-entry (a database error, a 500 on the desk)."""
    tournament = demo()
    now = timezone.now()
    out = seated(table(tournament, 2))[0]
    entries_bust(
        tournament=tournament, busts=[Bust(entry_id=out.pk, starting_stack=out.chips)], now=now
    )
    entry_register(tournament=tournament, player_name=out.player.name, now=now)

    with pytest.raises(FloorError) as refused:
        entries_unbust(tournament=tournament, now=now)

    assert refused.value.code == "reentered"
    assert refused.value.detail == (
        f"{out.player.name} has re-entered since (entry 2): the bust can no longer be undone."
    )
    assert Entry.objects.filter(player=out.player, status=Entry.Status.ACTIVE).count() == 1
    assert chips_check(tournament) == []


@pytest.mark.django_db
def test_reopening_a_hand_of_a_player_recorded_out_since_is_refused():
    """Found by the state machine: reversing the hand gave its chips back to an entry that the
    desk had busted after the hand ("busted with 100 chips")."""
    tournament = demo()
    director = make(DirectorFactory)
    hand = fold_to_end(hand_start(table=table(tournament, 3), actor=director))
    loser = next(s for s in hand.seats if s["blind"] and s["seat"] != hand.big_blind_seat)
    entry = Entry.objects.select_related("player").get(pk=loser["entry"])
    entries_bust(
        tournament=tournament,
        busts=[Bust(entry_id=entry.pk, starting_stack=entry.chips)],
        now=timezone.now(),
    )

    with pytest.raises(FloorError) as refused:
        reopen(hand, director)

    assert refused.value.code == "out_since"
    assert entry.player.name in refused.value.detail
    entry.refresh_from_db()
    assert (entry.status, entry.chips) == (Entry.Status.BUSTED, 0)
    assert chips_check(tournament) == []


@pytest.mark.django_db
def test_a_hand_that_busts_a_player_credits_the_winner_and_keeps_chips_in_play():
    """The hand's end moves the loser's chips to the winner (a delta each, adding to nothing)
    before the bust: chips in play stay the chips issued, and the stacks still add up to them."""
    tournament = demo()
    t = table(tournament, 1)
    short, caller = seated(t)[:2]
    entry_set_chips(entry=caller, chips=caller.chips + short.chips - 300, note="moved over")
    entry_set_chips(entry=short, chips=300, note="moved over")
    before = tournament_books(tournament)
    holes = {short.seat: ["7s", "2d"], caller.seat: ["Ah", "Ad"]}
    board = iter([["Kc", "9d", "4h"], ["Js"], ["3c"]])
    hand = hand_start(table=t)
    state = hand.state
    while state["phase"] not in ("complete", "void"):
        if state["phase"] == "dealing":
            action = {"kind": "deal_board", "cards": next(board)}
        elif state["phase"] == "showdown":
            seat = state["next_to_show"]
            action = {"kind": "show", "seat": seat, "cards": holes[seat]}
        else:
            seat = state["legal"]["actor"]
            kind = {short.seat: "all_in", caller.seat: "call"}.get(seat, "fold")
            action = {"kind": kind, "seat": seat}
        result = hand_record_action(
            hand=hand, action=action, client_id=uuid.uuid4().hex, version=state["version"]
        )
        hand, state = result.hand, result.answer

    short.refresh_from_db()
    caller.refresh_from_db()
    after = tournament_books(tournament)
    assert (short.status, short.chips) == (Entry.Status.BUSTED, 0)
    assert short.chips_source == "out on hand 1 at table 1"
    assert after.in_play == before.in_play
    assert after.stacks == before.stacks
    assert chips_check(tournament) == []


@pytest.mark.django_db
def test_reopening_a_hand_after_a_count_of_its_players_is_refused():
    """Found by the state machine: a count after the hand already holds its result; reversing
    the hand under it made the count wrong, or a stack negative (a 409 about negative chips)."""
    tournament = demo()
    director = make(DirectorFactory)
    hand = fold_to_end(hand_start(table=table(tournament, 3), actor=director))
    winner = Entry.objects.select_related("player").get(
        table__number=3, tournament=tournament, seat=hand.big_blind_seat
    )
    entry_set_chips(entry=winner, chips=150, note="recount", actor=director)

    with pytest.raises(FloorError) as refused:
        reopen(hand, director)

    assert refused.value.code == "counted_since"
    assert refused.value.detail == (
        f"{winner.player.name}'s stack has been counted since this hand: the count holds its "
        "result. Correct the count instead of reopening the hand."
    )
    winner.refresh_from_db()
    assert winner.chips == 150
    assert chips_check(tournament) == []


@pytest.mark.django_db
def test_the_admin_shows_an_entrys_chips_but_cannot_change_them(client):
    """One writer for chips: the ledger. The Django admin shows an entry's chips and where they
    came from, with no field to change them."""
    tournament = demo()
    entry = Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE).first()
    assert entry is not None
    client.force_login(make(DirectorFactory, is_superuser=True))
    url = f"/admin/tournaments/entry/{entry.pk}/change/"

    page = client.get(url).content.decode()

    assert 'name="chips"' not in page
    assert f"{entry.chips:,}" in page or str(entry.chips) in page
    assert entry.chips_source in page


@pytest.mark.django_db
def test_a_hand_played_before_the_ledger_began_is_not_reopened():
    """A hand with no result in the ledger (played before it began) would have its result
    applied twice by a reopen and a second end."""
    tournament = demo()
    hand = fold_to_end(hand_start(table=table(tournament, 2)))
    ChipMove.objects.filter(hand_id=hand.pk).delete()

    with pytest.raises(FloorError) as refused:
        reopen(hand, make(DirectorFactory))

    assert refused.value.code == "before_ledger"


@pytest.mark.django_db
def test_a_long_count_note_is_cut_to_fit_where_the_count_came_from():
    tournament = demo()
    entry = seated(table(tournament, 1))[0]
    note = "recounted at the end of day one after the colour-up of the green chips " * 3

    entry_set_chips(entry=entry, chips=entry.chips + 100, note=note[:200])

    entry.refresh_from_db()
    assert len(entry.chips_source) <= 120
    assert entry.chips_source.startswith("counted (recounted at the end of day one")
    assert entry.chips_source.endswith("…)")
    assert chips_check(tournament) == []


@pytest.mark.django_db
def test_a_rebuy_reprices_the_prizes_of_the_players_already_out():
    """The rebuy grows the prize pool: the prize of the player already out in a paid place
    follows it (it used to keep the prize of the smaller pool)."""
    tournament = seated_tournament(
        players=6,
        buy_in=100,
        rebuy_chips=10000,
        rebuy_price=100,
        rebuy_until_level=9,
        payout_percentages=[40, 25, 15, 10, 6, 4],
    )
    out, rebuyer = Entry.objects.filter(tournament=tournament).order_by("pk")[:2]
    entries_bust(
        tournament=tournament,
        busts=[Bust(entry_id=out.pk, starting_stack=out.chips)],
        now=timezone.now(),
    )
    out.refresh_from_db()
    before = out.prize

    entry_set_chips(entry=rebuyer, chips=100, note="short")
    entry_rebuy(entry=rebuyer, now=timezone.now())

    out.refresh_from_db()
    assert out.finishing_place == 6
    assert (before, out.prize) == (Decimal("24"), prize_table(tournament)[5])
    assert out.prize == Decimal("28")  # 4% of 700


@pytest.mark.django_db
def test_no_bust_is_undone_once_the_tournament_is_finished():
    tournament = seated_tournament(players=4, payout_percentages=[50, 30, 20])
    out = Entry.objects.filter(tournament=tournament).order_by("pk").first()
    assert out is not None
    entries_bust(
        tournament=tournament,
        busts=[Bust(entry_id=out.pk, starting_stack=out.chips)],
        now=timezone.now(),
    )
    tournament_accept_deal(tournament=tournament, method="chip_chop")

    with pytest.raises(FloorError) as refused:
        entries_unbust(tournament=tournament, now=timezone.now())

    assert refused.value.code == "not_running"
    out.refresh_from_db()
    assert (out.status, out.finishing_place) == (Entry.Status.BUSTED, 4)
