"""The desk's set-up forms (issue 26): the schedule generator, a copy's name, archiving."""

from __future__ import annotations

from dataclasses import asdict

from django import forms

from tournaments.structures import MAX_LEVELS, STANDARD, BlindPlan, Template, template_get

# A generator refusal's field, by its code (anything else goes at the top of the form).
PLAN_FIELDS = {
    "bad_increase": "increase",
    "bad_level_count": "levels",
    "bad_smallest_chip": "smallest_chip",
    "not_in_smallest_chips": "smallest_chip",
    "bad_start_blinds": "big_blind",
    "duplicate_schedule": "name",
    "name_required": "name",
}


class GenerateForm(forms.Form):
    """The generator's inputs (rule SG-1, docs/rules.md)."""

    name = forms.CharField(max_length=120, label="Schedule name")
    small_blind = forms.IntegerField(min_value=1, label="First small blind")
    big_blind = forms.IntegerField(min_value=1, label="First big blind")
    level_minutes = forms.IntegerField(min_value=1, max_value=24 * 60, label="Level (minutes)")
    increase = forms.CharField(
        max_length=8,
        initial=STANDARD,
        help_text='"standard": the next of 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8 x 10^n; or a '
        'percentage ("30")',
    )
    levels = forms.IntegerField(min_value=1, max_value=MAX_LEVELS, label="Playing levels")
    break_every = forms.IntegerField(
        min_value=0,
        max_value=MAX_LEVELS,
        initial=0,
        label="Break every (levels)",
        help_text="0: none",
    )
    break_minutes = forms.IntegerField(
        min_value=1, max_value=24 * 60, initial=10, label="Break (minutes)"
    )
    antes_from = forms.IntegerField(
        min_value=0,
        max_value=MAX_LEVELS,
        initial=0,
        label="Big-blind ante from level",
        help_text="the ante equals the big blind; 0: none",
    )
    smallest_chip = forms.IntegerField(min_value=1, initial=1, label="Smallest chip")

    @staticmethod
    def initial_from(key: str | None) -> tuple[Template | None, dict[str, object]]:
        """The template named `?template=` and its inputs as the form's initial values."""
        template = template_get(key) if key else None
        if template is None:
            return None, {}
        return template, {"name": template.name, **asdict(template.plan)}

    def plan(self) -> BlindPlan:
        values = {k: v for k, v in self.cleaned_data.items() if k != "name"}
        values["increase"] = values["increase"].strip().lower().rstrip("%")
        return BlindPlan(**values)


class CopyForm(forms.Form):
    name = forms.CharField(max_length=120)


class ArchiveForm(forms.Form):
    """`archived=1` archives, `archived=0` brings back."""

    archived = forms.TypedChoiceField(
        choices=[("1", "archive"), ("0", "restore")], coerce=lambda v: v == "1", initial="1"
    )
