"""The rules editor's one write: a tournament's or a cash table's rule profile and options, for
the desk pages and the API alike (`rules_set`). The engine's readers stay `tournament_rules` and
`cash_table_rules`; the editor reads through `tournaments.selectors.rules`.

What may change, and when:

- A tournament's rules change until it starts, and again once it is finished. While it runs
  or is paused they are locked (409 `tournament_started`, the settings page's own lock): every
  table must play the same rules, and a change would reach each table at a different hand.
- A cash table's rules change at any time. The hand in progress keeps the rules it was dealt
  with (each hand stores its own, `Hand.rules`); the next hand is planned with the new ones.
- The game, the mode and the betting structure are not options of the editor (400
  `option_fixed` when a request changes one): the game and the mode are chosen when the
  tournament or the table is made, a tournament's structure is one of its settings, and a cash
  table's structure is set when it opens.

Only the options that differ from the profile's defaults are stored, so a table follows its
profile for everything it does not change.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.db import transaction

from common.actors import Actor
from common.errors import FloorError, FloorInvalid
from dealer.engine.errors import ConfigError
from dealer.engine.json_values import JsonValue
from dealer.engine.rule_text import FIXED_OPTIONS, profile_words
from dealer.engine.rules import PROFILES, Mode, Rules
from tournaments.models import Tournament
from tournaments.selectors.rules import (
    Target,
    rules_build,
    rules_changes,
    rules_culprit,
    rules_current,
    rules_fixed,
    rules_profiles,
)
from tournaments.services.audit import audit_changes, audit_record
from tournaments.services.frozen import check_locked_settings
from tournaments.services.locks import lock_table, lock_tournament


class RulesRefused(FloorInvalid):
    """The engine refuses the rules asked for; `key` is the option at fault, when one is."""

    def __init__(self, code: str, detail: str, *, key: str | None = None) -> None:
        super().__init__(code, detail)
        self.key = key


def rules_lock(target: Target) -> FloorError | None:
    """Why the target's rules cannot change now (None when they can)."""
    if isinstance(target, Tournament):
        try:
            check_locked_settings(target, ("rule_profile", "rule_overrides"))
        except FloorError as error:
            return error
    return None


def _fixed_now(target: Target) -> dict[str, str]:
    return {"mode": Mode.CASH.value, **rules_fixed(target)}


def _fixed_refusal(target: Target, key: str) -> RulesRefused:
    tournament = isinstance(target, Tournament)
    what = "tournament" if tournament else "cash table"
    if key == "structure":
        detail = (
            "The betting structure is one of the tournament's settings: change it on its "
            "Settings page (PATCH /api/tournaments/<id>/)."
            if tournament
            else "A cash table's betting structure is set when it opens: open another table "
            "for another structure."
        )
    elif key == "game":
        detail = f"The game is chosen when the {what} is made: it cannot change here."
    else:
        detail = f"A {what} always plays {'tournament' if tournament else 'cash'} rules."
    return RulesRefused("option_fixed", detail, key=key)


def check_rules_request(target: Target, profile: str, values: Mapping[str, object]) -> None:
    """Refuse a profile the target does not offer, and a change of the game, the mode or the
    structure (sending their current values is fine)."""
    if profile in PROFILES and profile not in rules_profiles(target):
        offered = ", ".join(profile_words(name).label for name in rules_profiles(target))
        raise RulesRefused(
            "profile_not_offered",
            f"The profile '{profile}' is not for this game: choose {offered}.",
            key="profile",
        )
    fixed = _fixed_now(target)
    for key in FIXED_OPTIONS:
        if key in values and values[key] != fixed[key]:
            raise _fixed_refusal(target, key)


def check_rules(target: Target, profile: str, options: Mapping[str, object]) -> Rules:
    """The engine's rules for these options, or its refusal with the option at fault."""
    try:
        return rules_build(target, profile, options)
    except ConfigError as error:
        key = rules_culprit(target, profile, options)
        raise RulesRefused(error.code, error.detail, key=key) from error


def _locked(target: Target) -> Target:
    if isinstance(target, Tournament):
        return lock_tournament(target)
    return lock_table(target)


def _changes(before: Rules | None, after: Rules) -> list[str]:
    """The options whose value the write changes, as `key=value`."""
    old = {} if before is None else before.as_dict()
    return [
        f"{key}={value}"
        for key, value in after.as_dict().items()
        if key != "profile" and old.get(key) != value
    ]


def _old_and_new(before: Rules | None, after: Rules) -> dict[str, list[JsonValue]]:
    """The options the write changes with their old and new values (the audit log's
    "fl_cap_bets: 4 -> 5"; `_changes` is the older `key=value` list, kept for its readers)."""
    old = {} if before is None else before.as_dict()
    new = {k: v for k, v in after.as_dict().items() if k != "profile"}
    return audit_changes(old, new)


def _current_or_none(target: Target) -> Rules | None:
    try:
        return rules_current(target)
    except ConfigError:
        return None


@transaction.atomic
def rules_set(
    *, target: Target, profile: str, values: Mapping[str, object], actor: Actor = None
) -> Rules:
    """Set the target's profile and options: `values` are the options wanted (any subset; the
    ones left out take the profile's default). Checked as the engine reads them (400 with the
    engine's code and sentence), refused while the target's rules are locked (409); stored
    as the options that differ from the profile's defaults, and audited with what changed."""
    target = _locked(target)
    lock = rules_lock(target)
    if lock is not None:
        raise lock
    check_rules_request(target, profile, values)
    wanted = {key: value for key, value in values.items() if key not in FIXED_OPTIONS}
    rules = check_rules(target, profile, wanted)
    stored = rules_changes(target, profile, wanted)
    if rules_build(target, profile, stored) != rules:  # a default that follows another key
        stored = wanted
    if target.rule_profile == profile and (target.rule_overrides or {}) == stored:
        return rules
    before = _current_or_none(target)
    target.rule_profile, target.rule_overrides = profile, stored
    fields = ["rule_profile", "rule_overrides"]
    target.save(update_fields=[*fields, "updated_at"] if isinstance(target, Tournament) else fields)
    where: dict[str, int] = {} if isinstance(target, Tournament) else {"table": target.number}
    audit_record(
        tournament=target if isinstance(target, Tournament) else None,
        actor=actor,
        action="rules_set",
        **where,
        profile=profile,
        changed=_changes(before, rules),
        changes=_old_and_new(before, rules),
    )
    return rules
