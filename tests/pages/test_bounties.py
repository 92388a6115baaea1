"""Bounties on the desk and the phone page: "eliminated by" on the eliminations form and list,
the bounty settings, the payouts page's bounties and the heads on the public standings."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tests.pages import NAMES, NOW, entry_of, freeze_pages, once, staff_client, tournament
from tournaments.models import Entry, Knockout, Tournament

pytestmark = pytest.mark.django_db

PKO: dict[str, Any] = {"bounty_kind": "progressive", "bounty": Decimal("100")}


@pytest.fixture
def director(client: Client, monkeypatch: pytest.MonkeyPatch) -> Client:
    freeze_pages(monkeypatch, NOW)
    return staff_client(client)


def desk_bust(director: Client, event: Tournament, out: Entry, *by: Entry) -> str:
    data = once(entry=[str(out.pk)], stack=[str(out.chips)])
    data[f"eliminated_by_{out.pk}"] = [str(e.pk) for e in by]
    response = director.post(reverse("bust-list", args=[event.pk]), data, follow=True)
    assert response.status_code == 200
    return str(response.content.decode())


def test_a_picked_players_row_offers_who_knocked_them_out_table_mates_first(
    director: Client,
) -> None:
    event = tournament(players=NAMES[:12], start=True, seats_per_table=6)
    ann = entry_of(event, "Ann Lee")

    body = director.get(reverse("bust-row", args=[event.pk]), {"entry": ann.pk}).content.decode()

    assert f'name="eliminated_by_{ann.pk}"' in body
    options = body.split(f'name="eliminated_by_{ann.pk}"')[1].split("</select>")[0]
    assert f'value="{ann.pk}"' not in options  # never themselves
    assert ann.table is not None
    mates = Entry.objects.filter(table=ann.table).exclude(pk=ann.pk).count()
    tables = re.findall(r"T(\d+) S\d+ &middot;", options)
    assert len(tables) == 11
    assert tables[:mates] == [str(ann.table.number)] * mates
    assert "+ Split with another player" in body


def test_the_desk_names_the_eliminator_and_the_list_shows_it(director: Client) -> None:
    event = tournament(players=NAMES[:4], start=True, **PKO)
    ann, bruno = entry_of(event, "Ann Lee"), entry_of(event, "Bruno Costa")

    body = desk_bust(director, event, ann, bruno)

    assert Knockout.objects.filter(busted=ann, eliminator=bruno, share=1).exists()
    assert "Eliminated by" in body
    assert '<td class="eliminated-by">Bruno Costa</td>' in body


def test_two_eliminators_named_share_the_knockout(director: Client) -> None:
    event = tournament(players=NAMES[:4], start=True, **PKO)
    ann, bruno, chen = (entry_of(event, n) for n in NAMES[:3])

    body = desk_bust(director, event, ann, bruno, chen)

    assert set(Knockout.objects.filter(busted=ann).values_list("eliminator", "share")) == {
        (bruno.pk, 1),
        (chen.pk, 1),
    }
    assert '<td class="eliminated-by">Bruno Costa, Chen Wei</td>' in body


def test_naming_a_player_out_on_the_same_hand_is_refused_on_the_form(director: Client) -> None:
    event = tournament(players=NAMES[:4], start=True, **PKO)
    ann, bruno = entry_of(event, "Ann Lee"), entry_of(event, "Bruno Costa")
    data = once(entry=[str(ann.pk), str(bruno.pk)], stack=[str(ann.chips), str(bruno.chips)])
    data[f"eliminated_by_{ann.pk}"] = [str(bruno.pk)]

    response = director.post(reverse("bust-list", args=[event.pk]), data)

    assert response.status_code == 200
    assert "out on this hand too" in response.content.decode()
    assert not Entry.objects.filter(tournament=event, status="busted").exists()


def test_the_undo_takes_the_eliminator_off_the_list(director: Client) -> None:
    event = tournament(players=NAMES[:4], start=True, **PKO)
    ann, bruno = entry_of(event, "Ann Lee"), entry_of(event, "Bruno Costa")
    desk_bust(director, event, ann, bruno)

    director.post(reverse("bust-undo", args=[event.pk]), once())

    assert not Knockout.objects.filter(tournament=event).exists()


def test_the_settings_offer_the_bounty_and_lock_it_once_started(director: Client) -> None:
    planned = tournament(players=NAMES[:2], **PKO)
    running = tournament(players=NAMES[:4], start=True, name="Running", **PKO)

    open_form = director.get(reverse("tournament-settings", args=[planned.pk])).content.decode()
    locked_form = director.get(reverse("tournament-settings", args=[running.pk])).content.decode()

    assert 'name="bounty_kind"' in open_form
    assert "paid their bounties" not in open_form
    assert "paid their bounties" in locked_form


def test_the_payouts_page_shows_the_bounties_won_and_the_heads(director: Client) -> None:
    event = tournament(players=NAMES[:4], start=True, **PKO)
    ann, bruno = entry_of(event, "Ann Lee"), entry_of(event, "Bruno Costa")
    desk_bust(director, event, ann, bruno)

    body = director.get(reverse("payout-list", args=[event.pk])).content.decode()

    assert "Progressive knockout" in body
    assert "Bounties won" in body
    assert "150.00" in body  # Bruno's head: 100 + half of Ann's
    assert "css/bounties.css" in body


def test_the_payouts_page_of_an_event_without_bounties_has_no_bounty_card(
    director: Client,
) -> None:
    event = tournament(players=NAMES[:4], start=True)
    body = director.get(reverse("payout-list", args=[event.pk])).content.decode()
    assert "Bounties won" not in body


def test_the_phone_page_shows_each_players_head(director: Client) -> None:
    event = tournament(players=NAMES[:4], start=True, **PKO)
    ann, bruno = entry_of(event, "Ann Lee"), entry_of(event, "Bruno Costa")
    desk_bust(director, event, ann, bruno)

    body = Client().get(reverse("public-standings", args=[event.pk])).content.decode()

    assert '<th class="num">Bounty</th>' in body
    # Whole amounts without ".00", as the page's prizes: the column fits a 320 px phone.
    assert '<td class="num">150<small class="chips-source">won 50</small></td>' in body
