"""Forms of the multi-flight event pages: they parse what was typed; the flights service
(`tournaments.services.flights`) decides what is allowed."""

from __future__ import annotations

from typing import Any

from django import forms

from tournaments.forms import TournamentForm


class EventForm(TournamentForm):
    """A multi-flight event's settings, as a tournament's, with its flights' letters."""

    flights = forms.CharField(
        max_length=200,
        initial="A, B",
        label="Starting flights",
        help_text='their letters, e.g. "A, B, C": Day 1A, Day 1B, Day 1C, then Day 2',
    )
    reentry_across_flights = forms.BooleanField(
        required=False,
        initial=True,
        label="A player who survived a flight may enter another (the best stack goes on)",
    )

    # An event is not a satellite (a satellite may target it): those settings are not offered.
    NOT_FOR_EVENTS = ("satellite_target", "seat_value")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in self.NOT_FOR_EVENTS:
            self.fields.pop(name, None)

    def setting_values(self) -> dict[str, object]:
        """The tournament settings the event and its phases share (not the flights)."""
        values = super().setting_values()
        for name in ("flights", "reentry_across_flights"):
            values.pop(name, None)
        return values

    def flight_labels(self) -> list[str]:
        text = self.cleaned_data["flights"].replace(";", ",")
        parts = text.split(",") if "," in text else text.split()
        return [part.strip() for part in parts if part.strip()]


class FlightForm(forms.Form):
    flight = forms.CharField(max_length=10, label="New flight", help_text='its letter: "D"')
