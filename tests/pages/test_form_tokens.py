"""Issue 10: every desk form that changes chips or places is safe to submit twice. Each carries a
one-time token; the second submission of the same form changes nothing and says so, a refused
one leaves its token unused, and a form without a token is refused."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from common.errors import FloorError
from config.exceptions import status_of
from tests.pages import NAMES, NOW, entry_of, freeze_pages, once, staff_client, tournament
from tournaments.models import ChipMove, Entry, FormToken
from tournaments.services.busts import Bust, entries_bust
from tournaments.services.clocks import tournament_set_hand_for_hand
from tournaments.services.entries import entry_set_chips
from tournaments.services.form_tokens import FormSentTwiceError, form_token_use

SENT_TWICE = "Already recorded: that form was sent twice."


@pytest.fixture
def director(client: Client, monkeypatch: pytest.MonkeyPatch) -> Client:
    freeze_pages(monkeypatch, NOW)
    return staff_client(client)


def rebuy_event():
    return tournament(players=NAMES[:4], start=True, rebuy_chips=5000, rebuy_until_level=2)


@pytest.mark.django_db
def test_bug_rebuy_form_sent_twice_gives_one_rebuy(director: Client) -> None:
    """The bug: a double tap on the desk's rebuy button gave two rebuys."""
    event = rebuy_event()
    ann = entry_of(event, "Ann Lee")
    entry_set_chips(entry=ann, chips=2000)  # short enough for a second rebuy to be allowed
    url = reverse("entry-rebuy", args=[event.pk, ann.pk])
    form = once()

    first = director.post(url, form, follow=True)
    second = director.post(url, form, follow=True)

    ann.refresh_from_db()
    assert ann.rebuys == 1
    assert ann.chips == 2000 + 5000
    assert ChipMove.objects.filter(entry=ann, kind=ChipMove.Kind.REBUY).count() == 1
    assert "Rebuy for Ann Lee: 7,000 chips now." in first.content.decode()
    assert SENT_TWICE in second.content.decode()
    assert "message--warning" in second.content.decode()


def ann_rebuy_form() -> tuple[str, dict[str, str]]:
    """Ann Lee short enough for a rebuy: the rebuy's address and a form with a fresh token."""
    event = rebuy_event()
    ann = entry_of(event, "Ann Lee")
    entry_set_chips(entry=ann, chips=2000)
    return reverse("entry-rebuy", args=[event.pk, ann.pk]), once()


@pytest.mark.django_db
def test_a_form_sent_twice_repeats_what_the_first_submission_recorded(director: Client) -> None:
    """A double tap sends the form twice and the browser draws whichever answer comes last. The
    second says it was already recorded and what the first one recorded, so the director
    reads the outcome either way, as a resent tablet write gets its first answer."""
    url, form = ann_rebuy_form()

    director.post(url, form, follow=True)
    second = director.post(url, form, follow=True).content.decode()

    assert f"{SENT_TWICE} Rebuy for Ann Lee: 7,000 chips now." in second
    assert "message--warning" in second


@pytest.mark.django_db
def test_a_form_sent_twice_by_someone_else_does_not_repeat_the_first_answer(
    director: Client,
) -> None:
    """The first answer is repeated only to whoever sent the form: a token replayed by another
    account (copied from a page) learns nothing of what the first submission recorded."""
    url, form = ann_rebuy_form()
    director.post(url, form, follow=True)

    other = staff_client(Client(), username="other-director")
    second = other.post(url, form, follow=True).content.decode()

    assert SENT_TWICE in second
    assert "7,000" not in second.split(SENT_TWICE, 1)[1].split("</", 1)[0]


@pytest.mark.django_db
def test_two_rebuy_forms_are_two_rebuys(director: Client) -> None:
    """The control case: two forms (two tokens) are two rebuys when the rules allow them."""
    event = rebuy_event()
    ann = entry_of(event, "Ann Lee")
    url = reverse("entry-rebuy", args=[event.pk, ann.pk])
    entry_set_chips(entry=ann, chips=2000)

    director.post(url, once())
    director.post(url, once())

    ann.refresh_from_db()
    assert ann.rebuys == 2
    assert ChipMove.objects.filter(entry=ann, kind=ChipMove.Kind.REBUY).count() == 2


@pytest.mark.django_db
def test_a_form_without_a_token_changes_nothing(director: Client) -> None:
    event = rebuy_event()
    ann = entry_of(event, "Ann Lee")

    response = director.post(reverse("entry-rebuy", args=[event.pk, ann.pk]), follow=True)

    ann.refresh_from_db()
    assert ann.rebuys == 0
    assert "This form is out of date: reload the page and send it again." in (
        response.content.decode()
    )


@pytest.mark.django_db
def test_a_refused_form_keeps_its_token_for_the_corrected_submission(director: Client) -> None:
    event = tournament(players=NAMES[:4], start=True)
    ann = entry_of(event, "Ann Lee")
    url = reverse("bust-list", args=[event.pk])
    token = once()["form_token"]

    refused = director.post(url, {"entry": [str(ann.pk)], "stack": ["999999"], "form_token": token})
    recorded = director.post(
        url, {"entry": [str(ann.pk)], "stack": ["10000"], "form_token": token}, follow=True
    )

    assert "last known stack is 10,000" in refused.content.decode()
    assert "Ann Lee out in place 4." in recorded.content.decode()
    assert Entry.objects.get(pk=ann.pk).status == Entry.Status.BUSTED


@pytest.mark.django_db
def test_a_re_entry_form_sent_twice_re_enters_once(director: Client) -> None:
    event = tournament(
        players=NAMES[:4], start=True, max_entries_per_player=3, late_registration_level=2
    )
    ann = entry_of(event, "Ann Lee")
    entries_bust(tournament=event, busts=[Bust(entry_id=ann.pk, starting_stack=100)], now=NOW)
    form = once(name="Ann Lee")

    director.post(reverse("entry-list", args=[event.pk]), form)
    second = director.post(reverse("entry-list", args=[event.pk]), form, follow=True)

    numbers = list(
        Entry.objects.filter(tournament=event, player__name="Ann Lee").values_list(
            "number", flat=True
        )
    )
    assert sorted(numbers) == [1, 2]
    assert SENT_TWICE in second.content.decode()


@pytest.mark.django_db
def test_an_undo_bust_form_sent_twice_undoes_one_bust(director: Client) -> None:
    """Sent twice without a token, the undo took back the hand before as well."""
    event = tournament(players=NAMES[:5], start=True)
    ann, bruno = entry_of(event, "Ann Lee"), entry_of(event, "Bruno Costa")
    for out in (ann, bruno):
        entries_bust(tournament=event, busts=[Bust(entry_id=out.pk, starting_stack=100)], now=NOW)
    form = once()

    director.post(reverse("bust-undo", args=[event.pk]), form)
    second = director.post(reverse("bust-undo", args=[event.pk]), form, follow=True)

    ann.refresh_from_db()
    bruno.refresh_from_db()
    assert ann.status == Entry.Status.BUSTED
    assert bruno.status == Entry.Status.ACTIVE
    assert SENT_TWICE in second.content.decode()


@pytest.mark.django_db
def test_the_hand_for_hand_hand_complete_form_sent_twice_ends_one_hand(director: Client) -> None:
    event = tournament(players=NAMES[:12], start=True, payout_percentages=[60, 40])
    tournament_set_hand_for_hand(tournament=event, on=True, now=NOW)
    form = once()

    director.post(reverse("hand-for-hand-hand", args=[event.pk]), form)
    director.post(reverse("hand-for-hand-hand", args=[event.pk]), form)

    event.refresh_from_db()
    assert event.hand_for_hand_round == 2


# Every form that changes chips or places, by the URL it posts to.
GUARDED = re.compile(
    r"/(entries/(\d+/(rebuy|addon|unregister)/)?|busts/(undo/)?|tables/confirm/"
    r"|tables/\d+/counts/|clock/hand-for-hand/hand/)$"
)


def forms_on(body: str) -> list[tuple[str, str]]:
    """(action, the form's markup) of every POST form on a page."""
    return re.findall(r'<form method="post" action="([^"]+)"[^>]*>(.*?)</form>', body, re.S)


@pytest.mark.django_db
def test_every_desk_form_that_changes_chips_or_places_carries_a_fresh_token(
    director: Client,
) -> None:
    event = tournament(
        players=NAMES[:12],
        start=True,
        rebuy_chips=5000,
        rebuy_until_level=2,
        addon_chips=5000,
        payout_percentages=[60, 40],
    )
    ann = entry_of(event, "Ann Lee")
    entries_bust(tournament=event, busts=[Bust(entry_id=ann.pk, starting_stack=100)], now=NOW)
    tournament_set_hand_for_hand(tournament=event, on=True, now=NOW)
    table = event.tables.order_by("number").first()
    assert table is not None
    pages = [
        reverse("entry-list", args=[event.pk]),
        reverse("bust-list", args=[event.pk]),
        reverse("table-list", args=[event.pk]),
        reverse("clock-control", args=[event.pk]),
        reverse("table-counts", args=[event.pk, table.pk]),
    ]

    guarded, tokens = set(), []
    for page in pages:
        for action, markup in forms_on(director.get(page).content.decode()):
            match = GUARDED.search(action)
            if match:
                found = re.findall(r'name="form_token" value="([0-9a-f]{32})"', markup)
                assert len(found) == 1, f"{action} on {page} has no one-time token"
                guarded.add(match.group(0).split("/")[1])
                tokens += found

    assert guarded >= {"entries", "busts", "tables", "clock"}
    assert len(tokens) == len(set(tokens))  # a fresh token for every form drawn
    assert len(tokens) >= 12 + 3  # rebuy and add-on per player, register, bust, undo, ...


@pytest.mark.django_db
def test_form_token_use_refuses_a_token_used_before() -> None:
    form_token_use(token="a" * 32)

    with pytest.raises(FormSentTwiceError):
        form_token_use(token="a" * 32)
    assert FormToken.objects.count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize("token", ["", "short", "x" * 65, "spaces in it here", "<script>"])
def test_form_token_use_refuses_a_missing_or_malformed_token(token: str) -> None:
    with pytest.raises(FloorError) as refused:
        form_token_use(token=token)

    assert (refused.value.code, status_of(refused.value)) == ("form_token_missing", 400)
    assert not FormToken.objects.exists()
