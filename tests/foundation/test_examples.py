"""`make test-long` draws ten times the examples of `make test` (tests/examples.py)."""

from __future__ import annotations

from hypothesis import settings

from tests.examples import examples


def test_the_long_profile_draws_ten_times_the_examples_of_the_usual_one() -> None:
    current = settings.get_current_profile_name()
    try:
        settings.load_profile("default")
        usual = examples(12)
        settings.load_profile("long")
        long = (examples(12), settings().max_examples)
    finally:
        settings.load_profile(current)

    assert usual == 12
    assert long == (120, 1000)


def test_a_count_is_never_scaled_to_nothing() -> None:
    assert examples(0) == 1
