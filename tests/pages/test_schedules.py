"""The blind schedule editor: a table of levels and breaks, checked by the service."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tests.pages import schedule, staff_client
from tournaments.models import BlindSchedule


@pytest.fixture
def director(client: Client) -> Client:
    return staff_client(client)


def rows(*levels: dict[str, Any], initial: int = 0) -> dict[str, str]:
    """Posted formset data for level rows."""
    data = {
        "levels-TOTAL_FORMS": str(len(levels)),
        "levels-INITIAL_FORMS": str(initial),
        "levels-MIN_NUM_FORMS": "0",
        "levels-MAX_NUM_FORMS": "1000",
    }
    for i, level in enumerate(levels):
        for key, value in level.items():
            data[f"levels-{i}-{key}"] = str(value)
    return data


def level(small: int, big: int, minutes: int = 20, **more: Any) -> dict[str, Any]:
    return {"small_blind": small, "big_blind": big, "ante": 0, "minutes": minutes, **more}


BREAK = {"is_break": "True", "minutes": 10, "note": "Colour up"}


@pytest.mark.django_db
def test_creating_a_schedule_saves_its_levels_and_breaks(director: Client) -> None:
    data = {"name": "Turbo", **rows(level(25, 50), level(50, 100), BREAK, level(75, 150))}

    response = director.post(reverse("schedule-create"), data)

    saved = BlindSchedule.objects.get(name="Turbo")
    assert response.status_code == 302
    assert response["Location"] == reverse("schedule-edit", args=[saved.pk])
    levels = list(saved.levels.values_list("small_blind", "big_blind", "duration", "is_break"))
    assert levels == [
        (25, 50, 1200, False),
        (50, 100, 1200, False),
        (0, 0, 600, True),
        (75, 150, 1200, False),
    ]


@pytest.mark.django_db
def test_a_small_blind_above_the_big_blind_is_refused_naming_the_level(director: Client) -> None:
    data = {"name": "Broken", **rows(level(25, 50), BREAK, level(50, 100), level(300, 200))}

    response = director.post(reverse("schedule-create"), data)

    body = response.content.decode()
    assert response.status_code == 200
    assert "Level 3: the small blind (300) is above the big blind (200)." in body
    assert not BlindSchedule.objects.exists()
    assert 'value="300"' in body  # what was typed is kept


@pytest.mark.django_db
def test_blinds_going_down_are_refused_naming_the_level(director: Client) -> None:
    data = {"name": "Down", **rows(level(50, 100), level(25, 50))}

    body = director.post(reverse("schedule-create"), data).content.decode()

    assert "Level 2: the big blind (50) is below the previous level&#x27;s (100)" in body


@pytest.mark.django_db
def test_a_duplicate_name_is_refused_next_to_the_name(director: Client) -> None:
    schedule("Turbo")

    body = director.post(
        reverse("schedule-create"), {"name": "Turbo", **rows(level(25, 50))}
    ).content.decode()

    assert "A schedule named &#x27;Turbo&#x27; already exists." in body


@pytest.mark.django_db
def test_add_level_and_add_break_give_one_more_row_without_saving(director: Client) -> None:
    data = {"name": "Draft", **rows(level(25, 50))}

    with_level = director.post(reverse("schedule-create"), {**data, "add": "level"})
    with_break = director.post(reverse("schedule-create"), {**data, "add": "break"})

    assert not BlindSchedule.objects.exists()
    assert with_level.context["formset"].total_form_count() == 2
    assert with_break.context["formset"].total_form_count() == 2
    assert [label for label, _ in with_level.context["rows"]] == ["Level 1", "Level 2"]
    assert [label for label, _ in with_break.context["rows"]] == ["Level 1", "Break"]
    assert 'value="25"' in with_break.content.decode()


@pytest.mark.django_db
def test_untouched_new_rows_and_removed_rows_are_left_out(director: Client) -> None:
    data = {
        "name": "Short",
        **rows(level(25, 50), level(50, 100, DELETE="on"), {"small_blind": "", "minutes": ""}),
    }

    response = director.post(reverse("schedule-create"), data)

    assert response.status_code == 302
    assert BlindSchedule.objects.get(name="Short").levels.count() == 1


@pytest.mark.django_db
def test_editing_replaces_the_levels(director: Client) -> None:
    saved = schedule("Standard")
    page = director.get(reverse("schedule-edit", args=[saved.pk]))

    response = director.post(
        reverse("schedule-edit", args=[saved.pk]),
        rows(level(100, 200, minutes=30), level(200, 400, minutes=30), initial=4),
    )

    assert page.status_code == 200
    assert [label for label, _ in page.context["rows"]] == [
        "Level 1",
        "Level 2",
        "Break",
        "Level 3",
    ]
    assert response.status_code == 302
    assert list(saved.levels.values_list("big_blind", "duration")) == [(200, 1800), (400, 1800)]


@pytest.mark.django_db
def test_the_list_shows_each_schedule(director: Client) -> None:
    schedule("Deepstack")

    body = director.get(reverse("schedule-list")).content.decode()

    assert "Deepstack" in body
    assert "100 / 200" in body
