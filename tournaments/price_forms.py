"""The repricing form: the corrected prices of an event entries have paid, and why (issue 26).
It only reads what the page sent; `tournaments.services.prices` decides."""

from __future__ import annotations

from decimal import Decimal

from django import forms

from tournaments.forms import money
from tournaments.models import Tournament

PRICE_FIELDS = ("buy_in", "fee", "rebuy_price", "addon_price", "bounty")


class RepriceForm(forms.Form):
    buy_in = money(label="Buy-in", help_text="to the prize pool")
    fee = money(help_text="to the house")
    rebuy_price = money()
    addon_price = money(label="Add-on price")
    bounty = money(help_text="on each entry, not in the prize pool")
    reason = forms.CharField(
        max_length=200, help_text="written in the audit log with each entry's change"
    )

    @staticmethod
    def initial_from(tournament: Tournament) -> dict[str, object]:
        return {name: getattr(tournament, name) for name in PRICE_FIELDS}

    def prices(self) -> dict[str, Decimal]:
        return {name: self.cleaned_data[name] for name in PRICE_FIELDS}
