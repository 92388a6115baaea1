"""The rules editor's service and selector (issue 13: "Most rule options can be set per
tournament only through the API and per cash table only in the Django admin"): one write
(`rules_set`) for tournaments and cash tables, one read (`rules_view`) for the page and the API,
and the dealer's sheet (`table_rules_sheet`)."""

from __future__ import annotations

from typing import Any

import pytest

from common.errors import FloorConflict, FloorInvalid
from dealer.cash.seats.plan import cash_table_rules
from dealer.models import Hand
from dealer.services import hand_start
from tests.dealer.test_cash_services import cash_table, seated
from tests.factories import DirectorFactory, TournamentFactory, make, seated_tournament
from tournaments.models import AuditEvent, Tournament
from tournaments.selectors.rules import (
    rules_changes,
    rules_current,
    rules_view,
    table_rules_sheet,
)
from tournaments.services.events import tournament_rules
from tournaments.services.rules import RulesRefused, rules_lock, rules_set

pytestmark = pytest.mark.django_db


def tournament(**fields: Any) -> Tournament:
    return make(TournamentFactory, **fields)


# --- the write ------------------------------------------------------------------------------


def test_rules_set_stores_only_the_options_that_differ_from_the_profile() -> None:
    """RULES.md 0: a tournament starts from its profile and may override single keys; values
    equal to the profile's (dead button off, hands tabled all-in) are not stored."""
    event = tournament()
    values = {"button_mode": "moving", "table_all_in": True, "odd_chip": "left_of_button"}

    rules = rules_set(target=event, profile="tda_tournament", values=values)

    event.refresh_from_db()
    assert event.rule_overrides == {"button_mode": "moving"}
    assert rules.button_mode == "moving"
    assert rules.table_all_in is True
    assert tournament_rules(event) == rules


def test_rules_left_out_take_the_profile_default() -> None:
    """PUT semantics: an option not sent goes back to the profile's default."""
    event = tournament(rule_overrides={"odd_chip": "high_card_by_suit"})
    rules_set(target=event, profile="tda_tournament", values={"redeal_cut": False})
    event.refresh_from_db()
    assert event.rule_overrides == {"redeal_cut": False}
    assert tournament_rules(event).odd_chip == "left_of_button"


def test_rules_set_writes_an_audit_record_with_the_changed_keys() -> None:
    event = tournament()
    director = make(DirectorFactory)

    rules_set(
        target=event,
        profile="tda_tournament",
        values={"play_board_claim": "muck_ok", "fl_cap_bets": 5},
        actor=director,
    )

    audit = AuditEvent.objects.get(action="rules_set")
    assert audit.tournament == event
    assert audit.actor == director
    assert audit.detail == {
        "profile": "tda_tournament",
        "changed": ["fl_cap_bets=5", "play_board_claim=muck_ok"],
        # With the old values too (issue 26), which the audit page shows.
        "changes": {"fl_cap_bets": [4, 5], "play_board_claim": ["table_both", "muck_ok"]},
    }


def test_saving_the_same_rules_again_writes_nothing() -> None:
    event = tournament()
    rules_set(target=event, profile="tda_tournament", values={"odd_chip": "high_card_by_suit"})
    rules_set(target=event, profile="tda_tournament", values={"odd_chip": "high_card_by_suit"})
    assert AuditEvent.objects.filter(action="rules_set").count() == 1


@pytest.mark.parametrize(
    ("values", "code", "key", "words"),
    [
        ({"button_mode": "sideways"}, "bad_option_value", "button_mode", "use one of moving"),
        ({"fl_cap_bets": 0}, "bad_option_value", "fl_cap_bets", "from 1 to 100"),
        ({"table_all_in": "yes"}, "bad_option_value", "table_all_in", "true or false"),
        ({"no_such_rule": True}, "unknown_option", "no_such_rule", "Unknown rule option"),
        (
            {"sixplus_flush_beats_full_house": True},
            "bad_option_combination",
            "sixplus_flush_beats_full_house",
            "apply only to Texas 6+",
        ),
        ({"straddle_allowed": True}, "bad_option_combination", "straddle_allowed", "cash"),
        (
            {"missed_blind_policy": "S2_casino"},
            "bad_option_combination",
            "missed_blind_policy",
            "TDA_tournament",
        ),
    ],
)
def test_a_bad_option_is_refused_with_the_engines_code_sentence_and_key(
    values: dict[str, Any], code: str, key: str, words: str
) -> None:
    """RULES.md 0, 1 (6+ options in hold'em), 3 (straddles: cash only), 4 (TDA policy): the
    engine's refusal, attached to the option at fault; nothing is stored."""
    event = tournament()
    with pytest.raises(RulesRefused) as refused:
        rules_set(target=event, profile="tda_tournament", values=values)
    assert isinstance(refused.value, FloorInvalid)
    assert (refused.value.code, refused.value.key) == (code, key)
    assert words in refused.value.detail
    event.refresh_from_db()
    assert event.rule_overrides == {}


def test_an_unknown_profile_is_the_profiles_fault() -> None:
    with pytest.raises(RulesRefused) as refused:
        rules_set(target=tournament(), profile="house_special", values={"redeal_cut": False})
    assert (refused.value.code, refused.value.key) == ("unknown_profile", "profile")


def test_the_6plus_profile_is_not_offered_to_a_holdem_game() -> None:
    with pytest.raises(RulesRefused) as refused:
        rules_set(target=tournament(), profile="texas_6plus", values={})
    assert refused.value.code == "profile_not_offered"
    assert "TDA tournament" in refused.value.detail


@pytest.mark.parametrize(
    ("key", "value"), [("game", "sixplus"), ("mode", "cash"), ("structure", "pot_limit")]
)
def test_the_game_mode_and_structure_are_not_changed_here(key: str, value: str) -> None:
    event = tournament()
    with pytest.raises(RulesRefused) as refused:
        rules_set(target=event, profile="tda_tournament", values={key: value})
    assert (refused.value.code, refused.value.key) == ("option_fixed", key)


def test_sending_the_game_mode_and_structure_unchanged_is_fine() -> None:
    """A client may send back every value of GET, the fixed ones included."""
    event = tournament()
    values = {**rules_view(event).values, "odd_chip": "high_card_by_suit"}
    rules_set(target=event, profile="tda_tournament", values=values)
    event.refresh_from_db()
    assert event.rule_overrides == {"odd_chip": "high_card_by_suit"}


def test_a_started_tournaments_rules_are_locked() -> None:
    """A running tournament keeps its rules: every table plays the same to the end (409)."""
    event = seated_tournament(players=4)
    assert event.status == Tournament.Status.RUNNING
    assert rules_lock(event) is not None
    with pytest.raises(FloorConflict) as refused:
        rules_set(target=event, profile="tda_tournament", values={"odd_chip": "high_card_by_suit"})
    assert refused.value.code == "tournament_started"


def test_a_6plus_tournament_may_rank_a_flush_over_a_full_house() -> None:
    """RULES.md 1: `sixplus_flush_beats_full_house` (common in short-deck rooms)."""
    event = tournament(game="sixplus")
    rules_set(
        target=event,
        profile="texas_6plus",
        values={"sixplus_flush_beats_full_house": True, "sixplus_trips_beat_straight": True},
    )
    event.refresh_from_db()
    rules = tournament_rules(event)
    assert rules.sixplus_flush_beats_full_house
    assert rules.sixplus_trips_beat_straight
    assert rules.is_tournament
    assert rules.profile == "texas_6plus"


# --- cash tables ----------------------------------------------------------------------------


def test_a_6plus_cash_table_may_rank_a_flush_over_a_full_house() -> None:
    """The issue: a cash table reached the 6+ ranking option through neither the desk nor
    the API."""
    table = cash_table(game="sixplus", rule_profile="texas_6plus")
    rules_set(target=table, profile="texas_6plus", values={"sixplus_flush_beats_full_house": True})
    table.refresh_from_db()
    assert table.rule_overrides == {"sixplus_flush_beats_full_house": True}
    assert cash_table_rules(table).sixplus_flush_beats_full_house is True
    assert AuditEvent.objects.get(action="rules_set").detail["table"] == table.number


def test_a_cash_hand_in_progress_keeps_its_rules_and_the_next_hand_takes_the_new() -> None:
    """A hand stores the rules it was dealt with (Hand.rules); a change applies from the next."""
    table = seated("1 2 3", button=1)
    hand = hand_start(table=table)
    rules_set(target=table, profile="casino_cash", values={"straddle_allowed": False})

    hand.refresh_from_db()
    assert hand.rules["straddle_allowed"] is True
    table.refresh_from_db()
    assert cash_table_rules(table).straddle_allowed is False
    assert Hand.objects.filter(table=table, status=Hand.Status.IN_PROGRESS).count() == 1


def test_a_cash_table_cannot_take_tournament_rules() -> None:
    table = cash_table()
    with pytest.raises(RulesRefused) as refused:
        rules_set(target=table, profile="casino_cash", values={"mode": "tournament"})
    assert refused.value.code == "option_fixed"


# --- the read -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "structure", "profile", "overrides"),
    [
        ("holdem", "no_limit", "tda_tournament", {}),
        ("holdem", "fixed_limit", "tda_tournament", {"fl_cap_bets": 5}),
        ("sixplus", "pot_limit", "texas_6plus", {"sixplus_trips_beat_straight": True}),
    ],
)
def test_the_selector_builds_the_rules_the_engine_reads(
    game: str, structure: str, profile: str, overrides: dict[str, Any]
) -> None:
    """One way to build a target's rules: the editor's reader and the engine's agree."""
    event = tournament(
        game=game, structure=structure, rule_profile=profile, rule_overrides=overrides
    )
    assert rules_current(event) == tournament_rules(event)
    cash_profile = "texas_6plus" if game == "sixplus" else "casino_cash"
    table = cash_table(
        game=game, structure=structure, rule_profile=cash_profile, rule_overrides=overrides
    )
    assert rules_current(table) == cash_table_rules(table)


def test_the_view_lists_every_option_with_its_words_value_and_default() -> None:
    event = tournament(rule_overrides={"odd_chip": "high_card_by_suit"})
    view = rules_view(event)
    by_key = {option.key: option for option in view.options}

    assert view.profile == "tda_tournament"
    assert view.profile_label == "TDA tournament"
    assert [p.name for p in view.profiles] == ["tda_tournament"]
    odd = by_key["odd_chip"]
    assert odd.differs
    assert odd.value == "high_card_by_suit"
    assert odd.default == "left_of_button"
    assert odd.label == "Highest card by suit"
    assert [c.value for c in odd.choices] == ["left_of_button", "high_card_by_suit"]
    assert not by_key["button_mode"].differs
    assert by_key["button_mode"].label == "Dead button"
    assert [c.value for c in by_key["missed_blind_policy"].choices] == ["TDA_tournament"]
    assert not by_key["game"].editable
    assert by_key["redeal_cut"].editable
    assert by_key["fl_cap_bets"].kind == "number"
    assert by_key["fl_cap_bets"].high == 100
    assert by_key["straddle_allowed"].not_applicable.startswith("Cash tables only")
    assert by_key["pl_min_bet"].not_applicable == "Pot limit only."
    # What the engine accepts only one way here is shown, not offered to change.
    assert not by_key["straddle_allowed"].editable
    assert not by_key["missed_blind_policy"].editable
    assert not by_key["sixplus_flush_beats_full_house"].editable
    assert by_key["pl_min_bet"].editable  # a pot-limit rule may be set ahead of a change
    assert view.refusal is None


def test_a_6plus_game_is_offered_the_6plus_profile() -> None:
    view = rules_view(tournament(game="sixplus"))
    assert [p.name for p in view.profiles] == ["tda_tournament", "texas_6plus"]
    by_key = {option.key: option for option in view.options}
    assert by_key["sixplus_flush_beats_full_house"].applies


def test_a_preview_the_engine_refuses_says_why_and_shows_what_was_asked() -> None:
    view = rules_view(tournament(), profile="tda_tournament", overrides={"straddle_allowed": True})
    assert view.refusal is not None
    assert (view.refusal.code, view.refusal.key) == ("bad_option_combination", "straddle_allowed")
    assert view.values["straddle_allowed"] is True


def test_a_profile_switch_keeps_the_options_changed_from_the_old_profile() -> None:
    """What differs from the profile shown is carried over; the rest takes the new defaults."""
    table = cash_table(game="sixplus", rule_profile="casino_cash")
    shown = {**rules_view(table).values, "odd_chip": "high_card_by_suit"}
    changes = rules_changes(table, "casino_cash", shown)
    assert changes == {"odd_chip": "high_card_by_suit"}
    view = rules_view(table, profile="texas_6plus", overrides=changes)
    assert view.values["heads_up_button_posts"] == "big"  # the 6+ profile's
    assert view.values["odd_chip"] == "high_card_by_suit"


def test_the_dealers_sheet_shows_the_hands_rules_in_words() -> None:
    """The tablet shows words, not codes; a hand keeps its rules when the table's change."""
    table = seated("1 2 3", button=1)
    hand_start(table=table)
    rules_set(target=table, profile="casino_cash", values={"straddle_allowed": False})
    table.refresh_from_db()

    sheet = table_rules_sheet(table)
    lines = {line.key: line for group in sheet.groups for line in group.lines}
    assert sheet.hand_number == 1
    assert sheet.changed_since
    assert lines["straddle_allowed"].label == "Straddle allowed"  # the hand's own rules
    assert lines["missed_blind_policy"].label == "Post them at once (S2)"
    assert "fl_cap_bets" not in lines
    assert sheet.hidden >= 8
    assert sheet.profile_label == "Casino cash (S2)"


def test_the_sheet_between_hands_shows_the_next_hands_rules() -> None:
    table = cash_table()
    rules_set(target=table, profile="casino_cash", values={"button_mode": "dead"})
    table.refresh_from_db()
    sheet = table_rules_sheet(table)
    lines = {line.key: line for group in sheet.groups for line in group.lines}
    assert sheet.hand_number is None
    assert not sheet.changed_since
    assert lines["button_mode"].differs
    assert lines["button_mode"].label == "Dead button"
