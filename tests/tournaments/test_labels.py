"""Blinds are written one way everywhere (`tournaments.labels`, the `blinds` template filter)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.template import Context, Template

from tournaments.labels import blinds_label


@pytest.mark.parametrize(
    ("args", "kwargs", "text"),
    [
        ((1, 2), {}, "1 / 2"),
        ((1000, 2000), {"ante": 2000}, "1,000 / 2,000, ante 2,000"),
        ((1000, 2000), {"ante": 2000, "bb_ante": True}, "1,000 / 2,000, ante 2,000 (BB ante)"),
        ((100, 200), {"ante": 0, "bb_ante": True}, "100 / 200"),
    ],
)
def test_blinds_label(args: tuple[int, int], kwargs: dict[str, object], text: str) -> None:
    assert blinds_label(*args, **kwargs) == text  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "source",
    [
        {"small_blind": 500, "big_blind": 1000, "ante": 1000},
        SimpleNamespace(small_blind=500, big_blind=1000, ante=1000),
    ],
)
def test_blinds_filter_reads_a_dict_or_an_object(source: object) -> None:
    rendered = Template("{% load floor %}{{ source|blinds }}").render(Context({"source": source}))
    assert rendered == "500 / 1,000, ante 1,000"


def test_blinds_filter_says_when_the_big_blind_pays_the_ante() -> None:
    level = SimpleNamespace(small_blind=500, big_blind=1000, ante=1000, bb_ante=True)
    rendered = Template("{% load floor %}{{ level|blinds }}").render(Context({"level": level}))
    assert rendered == "500 / 1,000, ante 1,000 (BB ante)"
