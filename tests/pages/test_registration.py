"""The registration desk: register (and re-enter) by name, unregister, rebuy, add-on."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.pages import (
    NAMES,
    NOW,
    entry_of,
    freeze_pages,
    once,
    staff_client,
    table_of,
    tournament,
)
from tournaments.models import Entry
from tournaments.services.busts import Bust, entries_bust


@pytest.fixture
def director(client: Client, monkeypatch: pytest.MonkeyPatch) -> Client:
    freeze_pages(monkeypatch, NOW)
    return staff_client(client)


@pytest.mark.django_db
def test_typing_a_name_registers_the_player(director: Client) -> None:
    event = tournament()
    url = reverse("entry-list", args=[event.pk])

    page = director.get(url).content.decode()
    response = director.post(url, once(name="  Ann   Lee "))

    assert 'name="name"' in page
    assert "autofocus" in page
    assert response.status_code == 302
    assert response["Location"] == url
    entry = Entry.objects.get(tournament=event)
    assert entry.player.name == "Ann Lee"
    assert entry.chips == event.starting_stack
    after = director.get(url).content.decode()
    assert "Registered Ann Lee." in after
    assert "Ann Lee" in after


@pytest.mark.django_db
def test_a_duplicate_registration_shows_the_sentence_under_the_name(director: Client) -> None:
    event = tournament(players=["Ann Lee"])

    response = director.post(reverse("entry-list", args=[event.pk]), once(name="ann lee"))

    body = response.content.decode()
    assert response.status_code == 200
    assert "Ann Lee is already registered in this tournament." in body
    assert 'class="field__error"' in body
    assert Entry.objects.filter(tournament=event).count() == 1


@pytest.mark.django_db
def test_an_empty_name_is_a_field_error(director: Client) -> None:
    event = tournament()

    response = director.post(reverse("entry-list", args=[event.pk]), once(name=""))

    assert response.status_code == 200
    assert "This field is required." in response.content.decode()


@pytest.mark.django_db
def test_registration_before_it_opens_is_refused(director: Client) -> None:
    event = tournament(status="planned")

    body = director.get(reverse("entry-list", args=[event.pk])).content.decode()
    response = director.post(reverse("entry-list", args=[event.pk]), once(name="Ann Lee"))

    assert "Registration is not open yet." in body
    assert "Registration is closed for this tournament." in response.content.decode()


@pytest.mark.django_db
def test_a_late_entry_is_told_its_seat(director: Client) -> None:
    event = tournament(players=NAMES[:4], start=True, late_registration_level=2)

    response = director.post(
        reverse("entry-list", args=[event.pk]), once(name="Zoe Martin"), follow=True
    )

    entry = entry_of(event, "Zoe Martin")
    assert entry.late
    assert f"Registered Zoe Martin: table {table_of(entry)}, seat {entry.seat}." in (
        response.content.decode()
    )


@pytest.mark.django_db
def test_a_busted_player_re_enters_with_the_same_action(director: Client) -> None:
    event = tournament(
        players=NAMES[:4], start=True, late_registration_level=2, max_entries_per_player=2
    )
    ann = entry_of(event, "Ann Lee")
    entries_bust(tournament=event, busts=[Bust(entry_id=ann.pk, starting_stack=ann.chips)], now=NOW)

    response = director.post(
        reverse("entry-list", args=[event.pk]), once(name="Ann Lee"), follow=True
    )

    assert "Re-entered Ann Lee" in response.content.decode()
    assert entry_of(event, "Ann Lee").number == 2


@pytest.mark.django_db
def test_unregister_before_the_start(director: Client) -> None:
    event = tournament(players=["Ann Lee", "Bruno Costa"])
    ann = entry_of(event, "Ann Lee")

    response = director.post(
        reverse("entry-unregister", args=[event.pk, ann.pk]), once(), follow=True
    )

    ann.refresh_from_db()
    assert ann.status == Entry.Status.UNREGISTERED
    assert "Ann Lee is unregistered." in response.content.decode()


@pytest.mark.django_db
def test_rebuy_and_add_on_buttons(director: Client) -> None:
    event = tournament(
        players=NAMES[:4],
        start=True,
        rebuy_chips=5000,
        rebuy_until_level=2,
        addon_chips=8000,
        addon_level=1,  # the add-on's window is now (issue 26)
    )
    ann = entry_of(event, "Ann Lee")

    page = director.get(reverse("entry-list", args=[event.pk])).content.decode()
    director.post(reverse("entry-rebuy", args=[event.pk, ann.pk]), once())
    response = director.post(reverse("entry-addon", args=[event.pk, ann.pk]), once(), follow=True)

    ann.refresh_from_db()
    assert reverse("entry-rebuy", args=[event.pk, ann.pk]) in page
    assert reverse("entry-addon", args=[event.pk, ann.pk]) in page
    assert (ann.rebuys, ann.addon, ann.chips) == (1, True, event.starting_stack + 13000)
    assert "Add-on for Ann Lee: 23,000 chips now." in response.content.decode()


@pytest.mark.django_db
def test_a_refused_rebuy_is_said_in_plain_words(director: Client) -> None:
    event = tournament(players=NAMES[:4], start=True)
    ann = entry_of(event, "Ann Lee")

    response = director.post(reverse("entry-rebuy", args=[event.pk, ann.pk]), once(), follow=True)

    assert "This tournament has no rebuys." in response.content.decode()


@pytest.mark.django_db
def test_an_entry_of_another_tournament_is_not_found(director: Client) -> None:
    event = tournament(players=["Ann Lee"])
    other = tournament(players=["Bruno Costa"], name="Other")
    bruno = entry_of(other, "Bruno Costa")

    response = director.post(reverse("entry-unregister", args=[event.pk, bruno.pk]), once())

    assert response.status_code == 404


@pytest.mark.django_db
def test_the_list_filters_by_name(director: Client) -> None:
    event = tournament(players=NAMES[:4])

    body = director.get(reverse("entry-list", args=[event.pk]), {"q": "chen"}).content.decode()

    assert "Chen Wei" in body
    assert "Bruno Costa" not in body
