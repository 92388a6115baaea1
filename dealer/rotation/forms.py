"""The board's forms: the plan and a dealer to put on shift (the services check the rest)."""

from __future__ import annotations

from django import forms


class PlanForm(forms.Form):
    down_minutes = forms.IntegerField(label="Down (minutes)", min_value=20, max_value=30)
    downs_before_break = forms.IntegerField(label="Downs before a break", min_value=1, max_value=12)
    break_minutes = forms.IntegerField(label="Break (minutes)", min_value=5, max_value=60)


class ShiftForm(forms.Form):
    dealer = forms.IntegerField()
