"""The rules of a tournament or a cash table, read for the rules editor (the desk page and the
API alike) and for the dealer's rules sheet.

A target's rules are its profile, the single options it changes (`rule_overrides`, only those
that differ from the profile's defaults) and what the target itself fixes: the game, the betting
structure and, for a tournament, `mode=tournament`. `rules_build` is the one way to turn these
into the engine's `Rules`; `tournament_rules` and the cash tables' `cash_table_rules` give the
same answer (a test holds them to it).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass

from dealer.engine import rule_text
from dealer.engine.errors import ConfigError
from dealer.engine.rule_text import FIXED_OPTIONS, ProfileWords, RuleLine
from dealer.engine.rules import (
    CHOICES,
    NUMBERS,
    PROFILES,
    Game,
    Mode,
    OptionValue,
    Rules,
    make_rules,
)
from tournaments.hands import hand_reader
from tournaments.models import Table, Tournament

Target = Tournament | Table
"""A tournament, or a cash table (a tournament's table takes its rules from its tournament)."""

_FIELDS = {f.name for f in dataclasses.fields(Rules)}


def rules_fixed(target: Target) -> dict[str, str]:
    """What the target fixes itself, over any profile or option: its game and structure, and a
    tournament's mode."""
    return _fixed(
        game=target.game, structure=target.structure, tournament=isinstance(target, Tournament)
    )


def _fixed(*, game: str, structure: str, tournament: bool) -> dict[str, str]:
    fixed = {"game": game, "structure": structure}
    if tournament:
        fixed["mode"] = Mode.TOURNAMENT.value
    return fixed


def rules_of(
    *, profile: str, overrides: Mapping[str, object], game: str, structure: str, tournament: bool
) -> Rules:
    """The one builder of the engine's rules from what a tournament or a cash table stores (or
    a tournament about to be created sends): the profile, its options, and what the target
    fixes over any option (its game and structure, a tournament's mode). ConfigError when the
    engine refuses them."""
    fixed = _fixed(game=game, structure=structure, tournament=tournament)
    return make_rules(profile, {**overrides, **fixed})


def rules_build(target: Target, profile: str, overrides: Mapping[str, object]) -> Rules:
    """The engine's rules for `target` with this profile and these options (ConfigError when
    the engine refuses them)."""
    return rules_of(
        profile=profile,
        overrides=overrides,
        game=target.game,
        structure=target.structure,
        tournament=isinstance(target, Tournament),
    )


def rules_current(target: Target) -> Rules:
    """The rules the target's next hand is dealt with."""
    return rules_build(target, target.rule_profile, target.rule_overrides or {})


def own_profile(target: Target) -> str:
    """The profile a target of this kind starts from."""
    return "tda_tournament" if isinstance(target, Tournament) else "casino_cash"


def rules_profiles(target: Target) -> tuple[str, ...]:
    """The profiles the target may choose: its kind's own, Texas 6+ for the 36-card game, and
    the one it has now (if the engine knows it)."""
    names = [own_profile(target)]
    if target.game == Game.SIXPLUS:
        names.append("texas_6plus")
    if target.rule_profile in PROFILES and target.rule_profile not in names:
        names.append(target.rule_profile)
    return tuple(names)


def profile_defaults(target: Target, profile: str) -> Rules:
    """The profile's rules for this target with no option changed (the target's own profile
    stands in for a profile the engine does not know)."""
    try:
        return rules_build(target, profile, {})
    except ConfigError:
        return rules_build(target, own_profile(target), {})


def rules_changes(target: Target, profile: str, values: Mapping[str, object]) -> dict[str, object]:
    """The options of `values` that differ from the profile's defaults: what is stored. The
    target's fixed options are left out; unknown keys are kept (the engine refuses them)."""
    defaults = profile_defaults(target, profile).as_dict()
    return {
        key: value
        for key, value in values.items()
        if key not in FIXED_OPTIONS and (key not in defaults or value != defaults[key])
    }


def rules_culprit(target: Target, profile: str, overrides: Mapping[str, object]) -> str | None:
    """The option the engine refuses on its own with the target's fixed options (a bad value,
    an unknown key, a 6+ option in hold'em, a straddle in a tournament), if there is one: the
    rules editor shows the refusal next to it. An unknown profile is the profile's fault."""
    try:
        rules_build(target, profile, {})
    except ConfigError:
        return "profile"
    for key in sorted(overrides):
        try:
            rules_build(target, profile, {key: overrides[key]})
        except ConfigError:
            return key
    return None


# --- the editor's view ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class OptionChoice:
    value: OptionValue
    label: str
    meaning: str


@dataclass(frozen=True, slots=True, kw_only=True)
class OptionRow:
    """One option as the editor shows it: its words, its value and the profile's default, and
    the values it may take."""

    key: str
    group: str
    title: str
    decides: str
    source: str
    kind: str  # "choice", "yes_no" or "number"
    value: OptionValue
    label: str
    meaning: str
    default: OptionValue
    default_label: str
    differs: bool
    applies: bool
    not_applicable: str
    editable: bool
    choices: tuple[OptionChoice, ...]
    low: int | None
    high: int | None


@dataclass(frozen=True, slots=True, kw_only=True)
class OptionGroup:
    key: str
    title: str
    options: tuple[OptionRow, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class Refusal:
    """Why the engine refuses these rules, and the option it concerns (None: the whole set)."""

    code: str
    detail: str
    key: str | None


@dataclass(frozen=True, slots=True, kw_only=True)
class RulesView:
    """A target's rules for the editor: the profile and the profiles on offer, the stored (or
    previewed) options, and every option grouped like RULES.md."""

    target: str  # "tournament" or "cash_table"
    id: int
    name: str
    profile: str
    profile_label: str
    profile_meaning: str
    profiles: tuple[ProfileWords, ...]
    overrides: dict[str, object]  # as stored, or as a preview asked (perhaps refused)
    values: dict[str, OptionValue]
    groups: tuple[OptionGroup, ...]
    refusal: Refusal | None

    @property
    def options(self) -> tuple[OptionRow, ...]:
        return tuple(option for group in self.groups for option in group.options)


def _kind(key: str) -> str:
    if key in CHOICES:
        return "choice"
    return "number" if key in NUMBERS else "yes_no"


def _forced(target: Target, profile: str) -> set[str]:
    """The yes/no options the engine accepts only one way for this target (a straddle in a
    tournament, the 6+ ranking in hold'em): shown, but not to be changed."""
    if profile not in PROFILES:
        profile = own_profile(target)
    defaults = profile_defaults(target, profile).as_dict()
    forced = set()
    for key, value in defaults.items():
        if isinstance(value, bool):
            try:
                rules_build(target, profile, {key: not value})
            except ConfigError:
                forced.add(key)
    return forced


def _row(
    line: RuleLine, group: str, values: Mapping[str, OptionValue], forced: set[str]
) -> OptionRow:
    key = line.key
    words = rule_text.OPTION_WORDS[key]
    kind = _kind(key)
    allowed = rule_text.allowed_values(key, values)
    choices: tuple[OptionChoice, ...] = ()
    if kind != "number":
        choices = tuple(
            OptionChoice(value=v, label=words.words(v).label, meaning=words.words(v).meaning)
            for v in allowed
        )
    low, high = NUMBERS.get(key, (None, None))
    return OptionRow(
        key=key,
        group=group,
        title=line.title,
        decides=line.decides,
        source=line.source,
        kind=kind,
        value=line.value,
        label=line.label,
        meaning=line.meaning,
        default=line.default,
        default_label=line.default_label,
        differs=line.differs,
        applies=not line.not_applicable,
        not_applicable=line.not_applicable,
        editable=key not in FIXED_OPTIONS and key not in forced and len(choices) != 1,
        choices=choices,
        low=low,
        high=high,
    )


def _name(target: Target) -> str:
    if isinstance(target, Tournament):
        return target.name
    return f"Cash table {target.number}" + (f" ({target.name})" if target.name else "")


def rules_view(
    target: Target, *, profile: str | None = None, overrides: Mapping[str, object] | None = None
) -> RulesView:
    """The target's rules for the editor: as stored, or with another profile and other options
    (a preview, which may be refused: `refusal` then says why and the values show what was
    asked)."""
    profile = profile or target.rule_profile
    if overrides is None:
        overrides = target.rule_overrides or {}
    overrides = dict(overrides)
    defaults = profile_defaults(target, profile).as_dict()
    refusal = None
    try:
        values = rules_build(target, profile, overrides).as_dict()
    except ConfigError as error:
        key = rules_culprit(target, profile, overrides)
        refusal = Refusal(code=error.code, detail=error.detail, key=key)
        # What was asked, shown where it can be: a value no option takes (a list, null) shows
        # the default instead, as the words for it cannot be looked up.
        asked = {
            k: v
            for k, v in overrides.items()
            if k in _FIELDS and k != "profile" and isinstance(v, str | bool | int | float)
        }
        values = {**defaults, **asked, **rules_fixed(target)}
    forced = _forced(target, profile)
    groups = tuple(
        OptionGroup(
            key=group.key,
            title=group.title,
            options=tuple(_row(line, group.key, values, forced) for line in group.lines),
        )
        for group in rule_text.describe_values(values, defaults)
    )
    words = rule_text.profile_words(profile)
    return RulesView(
        target="tournament" if isinstance(target, Tournament) else "cash_table",
        id=target.pk,
        name=_name(target),
        profile=profile,
        profile_label=words.label,
        profile_meaning=words.meaning,
        profiles=tuple(rule_text.profile_words(name) for name in rules_profiles(target)),
        overrides=overrides,
        values={key: value for key, value in values.items() if key != "profile"},
        groups=groups,
        refusal=refusal,
    )


def rules_lines(target: Target) -> dict[str, RuleLine]:
    """Every option of the target's rules in words, by key (for a page's summary line)."""
    groups = rule_text.describe(rules_current(target))
    return {line.key: line for group in groups for line in group.lines}


def rules_summary(
    profile: str, overrides: Mapping[str, OptionValue]
) -> tuple[str, list[tuple[str, str]]]:
    """A profile in words and each option it changes as (words, `key=value`), for lists of
    tables: ("Casino cash (S2)", [("Button movement: Dead button", "button_mode=dead")])."""
    changes = []
    for key, value in overrides.items():
        option = rule_text.OPTION_WORDS.get(key)
        words = f"{option.title}: {option.words(value).label}" if option else str(key)
        changes.append((words, f"{key}={value}"))
    return rule_text.profile_words(profile).label, changes


# --- the dealer's sheet -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class RulesSheet:
    """The rules a table plays in words, for the dealer: the hand's own while one is in
    progress (a hand keeps the rules it started with), else those of the next hand."""

    hand_number: int | None
    profile_label: str
    groups: tuple[rule_text.RuleGroup, ...]
    hidden: int  # options that do not apply to this game, left out
    changed_since: bool  # the table's rules changed while this hand was dealt


def rules_target(table: Table) -> Target:
    """Where a table's rules are kept: its tournament, or the cash table itself."""
    return table if table.tournament is None else table.tournament


def _hand_rules(rules: Mapping[str, OptionValue]) -> Rules:
    """The rules a hand stored (`Rules.as_dict`); `Rules` makes the choices' strings members."""
    stored = {key: value for key, value in rules.items() if key in _FIELDS}
    # The choices come as their strings where the fields name members: `Rules.__post_init__`
    # makes them members (the engine's own way to read stored rules).
    return Rules(**stored)  # type: ignore[arg-type]


def table_rules_sheet(table: Table) -> RulesSheet:
    """The dealer's rules sheet for `table`: every option that applies, in words, with the
    values that differ from the profile's defaults marked."""
    current = rules_current(rules_target(table))
    playing = hand_reader().rules_in_hand(table.pk)
    rules = current if playing is None else _hand_rules(playing.rules)
    groups = []
    hidden = 0
    for group in rule_text.describe(rules):
        lines = tuple(line for line in group.lines if not line.not_applicable)
        hidden += len(group.lines) - len(lines)
        if lines:
            groups.append(dataclasses.replace(group, lines=lines))
    return RulesSheet(
        hand_number=None if playing is None else playing.number,
        profile_label=rule_text.profile_words(rules.profile).label,
        groups=tuple(groups),
        hidden=hidden,
        changed_since=playing is not None and rules != current,
    )
