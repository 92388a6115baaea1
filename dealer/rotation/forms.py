"""The board's forms: the plan and a dealer to put on shift; the push's PIN; the Staff page's
accounts (the services check the rest)."""

from __future__ import annotations

from django import forms


class PlanForm(forms.Form):
    down_minutes = forms.IntegerField(label="Down (minutes)", min_value=20, max_value=30)
    downs_before_break = forms.IntegerField(label="Downs before a break", min_value=1, max_value=12)
    break_minutes = forms.IntegerField(label="Break (minutes)", min_value=5, max_value=60)


class ShiftForm(forms.Form):
    dealer = forms.IntegerField()


class StaffForm(forms.Form):
    """A new dealer (with a PIN) or floor account (with a password): `dealer.rotation.staff`
    checks the rest, in its own words."""

    role = forms.ChoiceField(choices=[("dealer", "Dealer"), ("floor", "Floor (director)")])
    username = forms.CharField(max_length=150)
    name = forms.CharField(max_length=150, required=False)
    pin = forms.CharField(max_length=64, required=False, strip=False)
    password = forms.CharField(max_length=128, required=False, strip=False)


class PinForm(forms.Form):
    pin = forms.CharField(max_length=64, strip=False)
