"""Forms of the director dashboard: they parse what was typed; the services decide what is allowed.

A form checks only the shape of the input (a number where a number is due, within what the
columns can store; text without NUL bytes, which PostgreSQL cannot store or compare). Every value
a page reads from a request goes through a form field: a bare `int()` takes "²" for a digit and
fails on it, and a number past a column's range fails in the database, both as a server error.
Floor rules (a schedule's blinds, payout tables, who may register) are the
services' business; their refusals are attached to the field they concern (`attach_refusal`).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from decimal import Decimal, InvalidOperation
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar, cast

from django import forms
from django.forms import BaseFormSet, formset_factory

from common.errors import FloorError
from common.limits import MAX_INT
from dealer.engine.rule_text import OPTION_WORDS
from dealer.engine.rules import DECIMALS, SIXPLUS_RANKING_OPTIONS
from tournaments.limits import MAX_ENTRIES_PER_PLAYER, MAX_LEVEL_NUMBER, SEATS_PER_TABLE
from tournaments.models import (
    BlindSchedule,
    ChipMove,
    Entry,
    LevelFields,
    Screen,
    Series,
    Tournament,
    TournamentLevel,
)
from tournaments.selectors.clock import LEVEL_FIELDS
from tournaments.selectors.rules import OptionRow, RulesView
from tournaments.services.counts import ChipCount
from tournaments.services.events import LevelRow, TournamentSettings

if TYPE_CHECKING:
    from django.utils.functional import _StrPromise

AUTOFOCUS = {"autofocus": True}

# What the columns can store on every database: chip counts are `integer` columns (PostgreSQL's
# limit), row ids `bigint`.
MAX_CHIPS = 2**31 - 1
MAX_ID = 2**63 - 1


def first_error(form: forms.BaseForm) -> str:
    """The form's first refusal, to show at the top of a page."""
    for errors in form.errors.values():
        if errors:
            return str(errors[0])
    return "The request could not be read: reload the page."


def record_id(
    *, required: bool = True, error_messages: dict[str, str] | None = None
) -> forms.IntegerField:
    """A row's id sent back by a page (a player picked, a table, a dealer)."""
    return forms.IntegerField(
        min_value=1, max_value=MAX_ID, required=required, error_messages=error_messages
    )


def money(
    *,
    initial: str = "0",
    required: bool = True,
    label: str | None = None,
    help_text: str = "",
    max_digits: int = 10,
) -> forms.DecimalField:
    """An amount of money (what the money columns can store, never negative)."""
    return forms.DecimalField(
        decimal_places=2,
        min_value=Decimal("0"),
        initial=Decimal(initial),
        required=required,
        label=label,
        help_text=help_text,
        max_digits=max_digits,
    )


# Which field a service's refusal concerns, by its code (anything else goes at the top).
REFUSAL_FIELDS = {
    "payout_empty": "payout_percentages",
    "payout_not_positive": "payout_percentages",
    "payout_increasing": "payout_percentages",
    "payout_not_100": "payout_percentages",
    "bad_payout_unit": "payout_unit",
    "bad_unit": "payout_unit",
    "duplicate_schedule": "name",
    "name_required": "name",
    "duplicate_registration": "name",
    "likely_same_player": "name",
    "no_reentry": "name",
    "bad_satellite_target": "satellite_target",
    "bad_bounty": "bounty",
    "bad_bounty_kind": "bounty_kind",
    "bad_late_registration_level": "late_registration_level",
    "bad_rebuy_until_level": "rebuy_until_level",
    "bad_addon_level": "addon_level",
}

LOCKED_HELP = "Locked: the tournament has started, and a change would change the hands in play."
_BOUNTY_LOCKED = "Locked: the tournament has started, and the players have paid their bounties."
# A price entries have paid (issue 26): corrected only by an audited repricing.
_MONEY_LOCKED = (
    "Locked: entries have paid this price. To correct a mistake, use Reprice: each entry's "
    "change is written in the audit log."
)
MONEY_FIELDS = frozenset({"buy_in", "fee", "rebuy_price", "addon_price", "bounty"})
LOCKED_HELPS = {
    "bounty_kind": _BOUNTY_LOCKED,
    "bounty": _MONEY_LOCKED,
    **dict.fromkeys(MONEY_FIELDS - {"bounty"}, _MONEY_LOCKED),
}


def attach_refusal(form: forms.BaseForm, error: FloorError) -> None:
    """Show a service's refusal next to the field it concerns, or at the top of the form."""
    field = REFUSAL_FIELDS.get(error.code)
    form.add_error(field if field in form.fields else None, error.detail)


# --- tournaments ----------------------------------------------------------------------------


def _number_text(value: Decimal) -> str:
    return f"{value.normalize():f}"


# The Texas 6+ ranking options a new tournament or cash table may choose (RULES.md 1); the
# engine refuses them for hold'em with its own sentence.
def sixplus_field(key: str) -> forms.BooleanField:
    """A Texas 6+ ranking option as a tick box, in the rules' own words."""
    words = OPTION_WORDS[key]
    return forms.BooleanField(required=False, label=words.title, help_text="Texas 6+ only.")


def sixplus_overrides(data: Mapping[str, object]) -> dict[str, bool]:
    """The 6+ options ticked, as rule overrides (the ones left unticked are the default)."""
    return {key: True for key in SIXPLUS_RANKING_OPTIONS if data.get(key)}


class TournamentForm(forms.Form):
    """A tournament's settings (`with_schedule`: creation, which copies a blind schedule)."""

    name = forms.CharField(max_length=120)
    schedule = forms.ModelChoiceField(
        queryset=BlindSchedule.objects.all(), empty_label=None, label="Blind schedule"
    )
    game = forms.ChoiceField(choices=Tournament.Game.choices)
    structure = forms.ChoiceField(choices=Tournament.Structure.choices)
    buy_in = money(label="Buy-in", help_text="to the prize pool")
    fee = money(help_text="to the house")
    starting_stack = forms.IntegerField(min_value=1, max_value=MAX_INT, initial=10000)
    seats_per_table = forms.IntegerField(
        min_value=SEATS_PER_TABLE[0], max_value=SEATS_PER_TABLE[1], initial=9
    )
    late_registration_level = forms.IntegerField(
        min_value=0,
        max_value=MAX_LEVEL_NUMBER,
        initial=0,
        help_text="open until the end of this level (0: no late registration)",
    )
    max_entries_per_player = forms.IntegerField(
        min_value=1,
        max_value=MAX_ENTRIES_PER_PLAYER,
        initial=1,
        label="Entries per player",
        help_text="1: no re-entry; 2: one re-entry; ...",
    )
    rebuy_price = money()
    rebuy_chips = forms.IntegerField(
        min_value=0, max_value=MAX_INT, initial=0, help_text="0: no rebuys"
    )
    rebuy_until_level = forms.IntegerField(
        min_value=0,
        max_value=MAX_LEVEL_NUMBER,
        initial=0,
        help_text="rebuys until the end of this level",
    )
    addon_price = money(label="Add-on price")
    addon_chips = forms.IntegerField(
        min_value=0, max_value=MAX_INT, initial=0, label="Add-on chips", help_text="0: none"
    )
    addon_level = forms.IntegerField(
        min_value=0,
        max_value=MAX_LEVEL_NUMBER,
        initial=0,
        required=False,
        label="Add-on at level",
        help_text="taken during this level and the break after it (0: the first break after "
        "the last rebuy level)",
    )
    payout_percentages = forms.CharField(
        required=False,
        max_length=2000,
        help_text="per place, comma-separated, e.g. 50, 30, 20 (blank: the standard table)",
    )
    payout_unit = money(initial="1", label="Rounding unit", help_text="prizes are rounded down")
    guarantee = money(max_digits=12)
    icm_enabled = forms.BooleanField(
        required=False, initial=True, label="ICM deal calculator at the final table"
    )
    # Not required: a post without them (an older page, a script) keeps what is stored.
    bounty_kind = forms.ChoiceField(
        choices=Tournament.Bounty.choices,
        initial=Tournament.Bounty.NONE,
        required=False,
        label="Bounties",
        help_text="progressive: half of each bounty won goes onto the winner's own",
    )
    bounty = money(
        required=False, help_text="on each entry, paid on top of the buy-in; not in the prize pool"
    )
    series = forms.ModelChoiceField(
        queryset=Series.objects.order_by("name"), required=False, empty_label="(none)"
    )
    satellite_target = forms.ModelChoiceField(
        queryset=Tournament.objects.exclude(status=Tournament.Status.FINISHED).order_by("name"),
        required=False,
        empty_label="(not a satellite)",
        label="Satellite for",
        help_text="the event whose seats this one pays as prizes",
    )
    seat_value = money(required=False, help_text="a seat's value (0: the target's buy-in and fee)")
    sixplus_flush_beats_full_house = sixplus_field("sixplus_flush_beats_full_house")
    sixplus_trips_beat_straight = sixplus_field("sixplus_trips_beat_straight")

    def __init__(
        self, *args: Any, with_schedule: bool = True, locked: Collection[str] = (), **kwargs: Any
    ) -> None:
        """`locked`: settings shown disabled with the reason; their stored value is kept. The
        6+ ranking options are offered at creation; afterwards the Rules page changes them."""
        super().__init__(*args, **kwargs)
        if not with_schedule:
            del self.fields["schedule"]
            for key in SIXPLUS_RANKING_OPTIONS:
                del self.fields[key]
        target = self.initial.get("satellite_target")
        if target is not None:  # the target chosen stays a choice once it is finished
            field = self.fields["satellite_target"]
            pk = getattr(target, "pk", target)
            field.queryset = field.queryset | Tournament.objects.filter(pk=pk)  # type: ignore[attr-defined]
        for name in locked:
            if name in self.fields:
                field = self.fields[name]
                field.help_text = LOCKED_HELPS.get(name, LOCKED_HELP)
                if name in MONEY_FIELDS:
                    # Read-only, not disabled: a changed price posted anyway (a page opened
                    # before the first entry paid) reaches the service, which refuses it
                    # (409 money_locked) instead of the page dropping it without a word.
                    field.widget.attrs["readonly"] = True
                else:
                    field.disabled = True

    @classmethod
    def initial_from(cls, tournament: Tournament) -> dict[str, object]:
        """The form's initial values from a stored tournament."""
        names = [n for n in cls.base_fields if n != "schedule" and n not in SIXPLUS_RANKING_OPTIONS]
        values = {name: getattr(tournament, name) for name in names}
        values["payout_percentages"] = ", ".join(
            _number_text(Decimal(str(p))) for p in tournament.payout_percentages or ()
        )
        return values

    def clean_seat_value(self) -> Decimal:
        return self.cleaned_data["seat_value"] or Decimal(0)  # left blank: the target's price

    def clean_payout_percentages(self) -> list[int | float]:
        text = self.cleaned_data["payout_percentages"]
        shares: list[int | float] = []
        for part in text.replace(";", ",").split(","):
            part = part.strip().rstrip("%").strip()
            if not part:
                continue
            try:
                value = Decimal(part)
            except InvalidOperation:
                raise forms.ValidationError(f"'{part}' is not a number.") from None
            if not value.is_finite():
                raise forms.ValidationError(f"'{part}' is not a number.")
            # Stored as JSON numbers; the service reads them back through str() exactly.
            shares.append(int(value) if value == value.to_integral_value() else float(value))
        return shares

    def settings(self) -> TournamentSettings:
        """The settings for `tournament_create` / `tournament_update` (no schedule); the 6+
        options ticked at creation as rule overrides."""
        # The fields left are the settings' names, each cleaned to the setting's type (the
        # services check the values).
        return cast("TournamentSettings", self.setting_values())

    def setting_values(self) -> dict[str, object]:
        """`settings` as the form cleaned them."""
        data = self.cleaned_data
        skip = {"schedule", *SIXPLUS_RANKING_OPTIONS}
        values = {k: v for k, v in data.items() if k not in skip}
        for name in ("bounty_kind", "bounty", "addon_level"):
            if values.get(name) in ("", None):
                values.pop(name, None)
        chosen = sixplus_overrides(data)
        if chosen:
            values["rule_overrides"] = chosen
        return values


# --- the rules editor -----------------------------------------------------------------------


def _option_field(option: OptionRow) -> forms.Field:
    """The control of one rule option: a list of its values, a tick box or a number."""
    label, disabled = option.title, not option.editable
    if option.kind == "yes_no":
        return forms.BooleanField(required=False, label=label, disabled=disabled)
    if option.kind == "number" and option.key in DECIMALS:  # a rake of 2.5%
        places = DECIMALS[option.key]
        return forms.DecimalField(
            min_value=option.low,
            max_value=option.high,
            decimal_places=places,
            widget=forms.NumberInput(attrs={"step": str(Decimal(1).scaleb(-places))}),
            label=label,
            disabled=disabled,
        )
    if option.kind == "number":
        return forms.IntegerField(
            min_value=option.low, max_value=option.high, label=label, disabled=disabled
        )
    choices = [(c.value, c.label) for c in option.choices]
    return forms.ChoiceField(choices=choices, label=label, disabled=disabled)


class RulesForm(forms.Form):
    """The rules editor (`view`: `tournaments.selectors.rules.rules_view`): the profile, and a
    control for every option the target may change. `shown_profile` is the profile the page
    showed, so that the options changed from it carry over to a newly picked profile. Options
    the target fixes (the game, the mode, the structure, a straddle in a tournament) are not
    fields or are disabled; with `locked`, every field is."""

    profile = forms.ChoiceField(label="Profile")
    shown_profile = forms.CharField(required=False, max_length=30, widget=forms.HiddenInput)

    def __init__(self, *args: Any, view: RulesView, locked: bool = False, **kwargs: Any) -> None:
        kwargs.setdefault(
            "initial", {"profile": view.profile, "shown_profile": view.profile, **view.values}
        )
        super().__init__(*args, **kwargs)
        profile = self.fields["profile"]
        assert isinstance(profile, forms.ChoiceField)
        profile.choices = [(p.name, p.label) for p in view.profiles]
        profile.disabled = locked
        self.option_keys: list[str] = []
        for option in view.options:
            if option.key in ("mode", "game", "structure"):
                continue
            field = _option_field(option)
            field.disabled = field.disabled or locked
            self.fields[option.key] = field
            self.option_keys.append(option.key)

    def option_values(self) -> dict[str, object]:
        """Every option's value as the page sent it (a disabled one: as it was shown); a decimal
        one as the JSON number the engine takes (2.5, or 5 when whole)."""
        values: dict[str, object] = {key: self.cleaned_data[key] for key in self.option_keys}
        for key, value in values.items():
            if isinstance(value, Decimal):
                values[key] = int(value) if value == value.to_integral_value() else float(value)
        return values

    def shown(self) -> str:
        """The profile the page showed (the one picked when it did not say)."""
        return str(self.cleaned_data.get("shown_profile") or self.cleaned_data["profile"])


# --- blind schedules ------------------------------------------------------------------------


class ScheduleNameForm(forms.Form):
    name = forms.CharField(max_length=120, widget=forms.TextInput(attrs=AUTOFOCUS))


class LevelForm(forms.Form):
    """One row of a schedule. Blank amounts are 0; the service checks the row."""

    small_blind = forms.IntegerField(required=False, max_value=MAX_INT)
    big_blind = forms.IntegerField(required=False, max_value=MAX_INT)
    ante = forms.IntegerField(required=False, max_value=MAX_INT)
    bb_ante = forms.BooleanField(required=False, label="BB ante")
    smallest_chip = forms.IntegerField(
        required=False, min_value=1, max_value=MAX_INT, label="Smallest chip"
    )
    minutes = forms.IntegerField(required=False, max_value=100_000)
    is_break = forms.BooleanField(required=False, widget=forms.HiddenInput)
    note = forms.CharField(required=False, max_length=200)

    def is_break_row(self) -> bool:
        """Whether this row is a break, from what was posted or its initial value."""
        return bool(self.fields["is_break"].to_python(self["is_break"].value()))

    # A row that cannot change (played, or in play) is given back as stored (see `lock`).
    locked_row: LevelRow | None = None

    def lock(self, row: LevelRow) -> None:
        """Show the row disabled; `level()` then gives `row` back unchanged, whatever is posted."""
        self.locked_row = row
        for field in self.fields.values():
            field.disabled = True

    def level(self) -> dict[str, int | bool | str]:
        """The row as the services take it (`duration` in seconds)."""
        if self.locked_row is not None:
            return dict(self.locked_row)
        data = self.cleaned_data
        return {
            "small_blind": data.get("small_blind") or 0,
            "big_blind": data.get("big_blind") or 0,
            "ante": data.get("ante") or 0,
            "bb_ante": bool(data.get("bb_ante")),
            "smallest_chip": data.get("smallest_chip") or 1,
            "duration": (data.get("minutes") or 0) * 60,
            "is_break": bool(data.get("is_break")),
            "note": data.get("note") or "",
        }

    @staticmethod
    def initial_from(level: LevelFields) -> dict[str, int | bool | str]:
        return {
            "small_blind": level.small_blind,
            "big_blind": level.big_blind,
            "ante": level.ante,
            "bb_ante": level.bb_ante,
            "smallest_chip": level.smallest_chip,
            "minutes": level.duration // 60,
            "is_break": level.is_break,
            "note": level.note,
        }


class BaseLevelFormSet(BaseFormSet):
    default_error_messages: ClassVar[dict[str, str | _StrPromise]] = {
        "missing_management_form": (
            "The table of levels arrived incomplete: reload the page and enter the changes again."
        ),
    }


MAX_LEVELS = 500
# `absolute_max`: a posted count of a billion rows builds at most this many forms.
LevelFormSet = formset_factory(
    LevelForm,
    formset=BaseLevelFormSet,
    extra=0,
    can_delete=True,
    max_num=MAX_LEVELS,
    absolute_max=MAX_LEVELS,
)
LEVELS_PREFIX = "levels"
LEVEL_COUNT = forms.IntegerField(min_value=0, max_value=MAX_LEVELS)


FormT = TypeVar("FormT", bound=forms.BaseForm)


def formset_tampered(formset: BaseFormSet[FormT]) -> bool:
    """Whether a posted formset's count of rows is missing or not a count (the page answers 400
    with the formset's sentence)."""
    return formset.is_bound and not formset.management_form.is_valid()


def levels_with_new_row(data: Mapping[str, str], *, is_break: bool) -> dict[str, str]:
    """Posted schedule data with one more (empty) row at the end: a level or a break. A count of
    rows that is not one is left as posted, for the formset to refuse."""
    copied = {key: data[key] for key in data}
    try:
        total = LEVEL_COUNT.clean(data.get(f"{LEVELS_PREFIX}-TOTAL_FORMS") or 0)
    except forms.ValidationError:
        return copied
    copied[f"{LEVELS_PREFIX}-TOTAL_FORMS"] = str(total + 1)
    if is_break:
        copied[f"{LEVELS_PREFIX}-{total}-is_break"] = "True"
    return copied


def tournament_level_formset(
    data: Mapping[str, str] | None, *, levels: Sequence[TournamentLevel], fixed: int
) -> BaseFormSet[LevelForm]:
    """A tournament's levels for its settings page, the first `fixed` (played, or in play)
    locked."""
    formset = LevelFormSet(
        data, initial=[LevelForm.initial_from(level) for level in levels], prefix=LEVELS_PREFIX
    )
    for form, level in zip(formset.forms[:fixed], levels, strict=False):
        form.lock({name: getattr(level, name) for name in LEVEL_FIELDS})
    return formset


def filled_levels(formset: BaseFormSet[LevelForm]) -> list[dict[str, int | bool | str]]:
    """The rows of a valid level formset, without removed and untouched empty rows."""
    return [
        form.level()
        for form in formset.forms
        if form.cleaned_data and not form.cleaned_data.get("DELETE")
    ]


# --- registration desk, eliminations, clock --------------------------------------------------


class RegisterForm(forms.Form):
    name = forms.CharField(
        max_length=80,
        label="Player name",
        # After a refusal the name is shown again, selected: typing the next name replaces it
        # (static/js/desk.js selects a data-select-on-focus field's text).
        widget=forms.TextInput(
            attrs={**AUTOFOCUS, "autocomplete": "off", "data-select-on-focus": ""}
        ),
    )
    # The answers to a `likely_same_player` question: register this known player, or create
    # a new one with the name typed.
    player = forms.IntegerField(required=False, min_value=1, widget=forms.HiddenInput)
    new_player = forms.BooleanField(required=False, widget=forms.HiddenInput)

    def clean(self) -> dict[str, object]:
        data = super().clean() or {}
        if data.get("player") is not None:
            self.errors.pop("name", None)  # the name is not read: the player is chosen
        return data


class BustsForm(forms.Form):
    """One hand's eliminations, posted as repeated `entry` and `stack` fields (one pair per row;
    rows without a player are ignored), each row's values parsed by `row_fields`; who knocked
    the player of a row out as `eliminated_by_<entry id>` (none, one or several; blanks
    ignored), in `cleaned_data["eliminators"]` by entry id."""

    row_fields: ClassVar[dict[str, forms.Field]] = {
        "entry": record_id(),
        "stack": forms.IntegerField(min_value=0, max_value=MAX_CHIPS),
    }

    def clean(self) -> dict[str, object]:
        entries = self.data.getlist("entry") if hasattr(self.data, "getlist") else []
        stacks = self.data.getlist("stack") if hasattr(self.data, "getlist") else []
        rows: list[tuple[int, int]] = []
        for row, (entry, stack) in enumerate(zip(entries, stacks, strict=False), start=1):
            if not entry.strip():
                continue
            rows.append(
                (
                    self._number("entry", entry, f"Row {row}: pick a player from the list."),
                    self._number(
                        "stack",
                        stack,
                        f"Row {row}: enter the chips the player started the hand with "
                        f"(a whole number, at most {MAX_CHIPS:,}).",
                    ),
                )
            )
        if not rows:
            raise forms.ValidationError("Pick at least one player who is out.")
        return {"rows": rows, "eliminators": {e: self._eliminators(e) for e, _ in rows}}

    def _eliminators(self, entry: int) -> list[int]:
        named = self.data.getlist(f"eliminated_by_{entry}") if hasattr(self.data, "getlist") else []
        refusal = "Pick who knocked the player out from the list."
        return [self._number("entry", value, refusal) for value in named if value.strip()]

    def _number(self, name: str, value: str, refusal: str) -> int:
        try:
            number: int = self.row_fields[name].clean(value)
        except forms.ValidationError:
            raise forms.ValidationError(refusal) from None
        return number


class CountSheetForm(forms.Form):
    """A table's count sheet: the occasion, what is recorded, and one count per seated player
    (field `chips_<entry id>`; blank leaves that player's chips as they are). Whether a count
    may be recorded (at least one chip, not in a hand) is the service's business."""

    kind = forms.ChoiceField(
        choices=[
            (ChipMove.Kind.COUNT, "Count"),
            (ChipMove.Kind.COLOUR_UP, "Colour-up or chip race"),
        ],
        initial=ChipMove.Kind.COUNT,
        label="What is recorded",
    )
    note = forms.CharField(
        max_length=200,
        required=False,
        label="Occasion",
        help_text="e.g. at the break, end of day 1",
    )
    smallest_chip = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=1_000_000,
        label="Smallest chip after the colour-up",
        help_text="a colour-up of the 25s: 100; the levels from now on play with it",
    )

    def __init__(self, *args: Any, entries: Sequence[Entry], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.entry_ids = {self.field_name(entry.pk): entry.pk for entry in entries}
        for entry in entries:
            self.fields[self.field_name(entry.pk)] = forms.IntegerField(
                required=False,
                max_value=MAX_INT,
                label=f"Chips of {entry.player.name}",
                widget=forms.NumberInput(attrs={"inputmode": "numeric", "step": 1}),
            )

    @staticmethod
    def field_name(entry_id: int) -> str:
        return f"chips_{entry_id}"

    def counts(self) -> list[ChipCount]:
        """The counts typed, in the order of the sheet."""
        return [
            ChipCount(entry_id=entry_id, chips=self.cleaned_data[name])
            for name, entry_id in self.entry_ids.items()
            if self.cleaned_data.get(name) is not None
        ]


class AddTimeForm(forms.Form):
    seconds = forms.IntegerField(min_value=-3600, max_value=3600)


class SetLevelForm(forms.Form):
    index = forms.IntegerField(min_value=0, max_value=MAX_LEVELS, label="Level")


class HandForHandHandForm(forms.Form):
    """The hand-for-hand hand the director saw when pressing Hand complete."""

    hand = forms.IntegerField(min_value=1, max_value=100_000, required=False)


class DealForm(forms.Form):
    """A deal accepted on the desk: the method and the stacks it was shown for."""

    method = forms.CharField(max_length=20)
    chips = forms.RegexField(regex=r"^[0-9]{1,12}(,[0-9]{1,12}){0,9}$", required=False)

    def expected_chips(self) -> list[int] | None:
        chips = self.cleaned_data.get("chips")
        return [int(n) for n in chips.split(",")] if chips else None


class ScreenForm(forms.Form):
    """A screen of the room (the desk's Screens tab): its name, layout and sound."""

    name = forms.CharField(max_length=60, error_messages={"required": "Give the screen a name."})
    layout = forms.ChoiceField(choices=Screen.Layout.choices, initial=Screen.Layout.CLASSIC)
    sound = forms.BooleanField(required=False, label="Chime at level changes and at 1:00")


class FloorMessageForm(forms.Form):
    """The floor's message to the room (blank takes it down)."""

    message = forms.CharField(
        required=False,
        max_length=200,
        error_messages={"max_length": "A message to the room is at most 200 characters."},
    )


# --- what the desk's and the public pages read from a link or a search box -------------------


class SearchForm(forms.Form):
    """A name typed in a search box (the desk's entries, the public seat lookup)."""

    q = forms.CharField(
        required=False,
        max_length=80,
        strip=False,
        error_messages={"max_length": "Type at most 80 characters of the name."},
    )

    @classmethod
    def query(cls, data: Mapping[str, str]) -> tuple[str, str | None]:
        """The query typed, or "" with the sentence saying why it is refused."""
        form = cls(data)
        if form.is_valid():
            return form.cleaned_data["q"], None
        return "", first_error(form)


class SeatCardsForm(forms.Form):
    """`?entry=`: one player's seat card (a late entry); none, every seated player's."""

    entry = record_id(
        required=False, error_messages={"invalid": "Pick a player from the entries list."}
    )


class TableDealerForm(forms.Form):
    """A table's dealer (blank: none), and the page to go back to."""

    dealer = record_id(required=False, error_messages={"invalid": "Pick a dealer from the list."})
    next = forms.CharField(required=False, max_length=2000)


class HandReopenForm(forms.Form):
    """The desk's "Reopen" of a table's last hand: why, and the hand's version shown."""

    reason = forms.CharField(required=False, max_length=2000)
    version = forms.IntegerField(
        min_value=0,
        max_value=MAX_CHIPS,
        error_messages={"invalid": "This page is out of date: reload it and reopen the hand."},
    )

    def clean_reason(self) -> str:
        return " ".join(self.cleaned_data["reason"].split())[:200]
