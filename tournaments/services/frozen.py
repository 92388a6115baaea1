"""Which of a tournament's settings can no longer change, and the refusal when one is sent: the
settings the hands are dealt with once play has started, the bounty settings once played, the
prices once an entry has paid them (`services.prices`). The settings service and the rules
editor's service both ask here (before, each imported the other)."""

from __future__ import annotations

from collections.abc import Iterable

from common.errors import FloorError
from tournaments.models import Tournament
from tournaments.services.prices import MONEY_SETTINGS, money_locked

# The settings the hands are dealt with: once play has started, changing one would change the
# hands in progress, so they are locked (shown so on the settings page, refused by the service).
LOCKED_WHEN_STARTED = {
    "game": "game",
    "structure": "betting structure",
    "starting_stack": "starting stack",
    "rule_profile": "rule profile",
    "rule_overrides": "rule options",
}

# The bounty settings: the players have paid their bounties and some may have been won, so they
# are locked once play has started, and stay so when it is over (KO-3).
BOUNTY_SETTINGS = {"bounty_kind": "bounty kind", "bounty": "bounty"}


def tournament_started(tournament: Tournament) -> bool:
    return tournament.status in (Tournament.Status.RUNNING, Tournament.Status.PAUSED)


def locked_settings(tournament: Tournament) -> tuple[str, ...]:
    """The settings that can no longer change: those the hands are dealt with, once started;
    the bounty settings once started or finished; the prices once an entry has paid them
    (`services.prices`)."""
    hands = tuple(LOCKED_WHEN_STARTED) if tournament_started(tournament) else ()
    played = tournament_started(tournament) or tournament.status == Tournament.Status.FINISHED
    bounty = tuple(BOUNTY_SETTINGS) if played else ()
    prices = tuple(n for n in MONEY_SETTINGS if n not in bounty) if money_locked(tournament) else ()
    return hands + bounty + prices


def check_locked_settings(tournament: Tournament, changed: Iterable[str]) -> None:
    """Refuse a new value for a setting the hands in progress are dealt with (409)."""
    names = LOCKED_WHEN_STARTED | BOUNTY_SETTINGS
    locked = [names[name] for name in locked_settings(tournament) if name in changed]
    if set(locked) <= set(BOUNTY_SETTINGS.values()) and locked:
        raise FloorError(
            "tournament_started",
            f"The {' and '.join(locked)} cannot change once the tournament has started: "
            "the players have paid their bounties and some may have been won.",
        )
    if locked:
        raise FloorError(
            "tournament_started",
            f"The {' and '.join(locked)} cannot change once the tournament has started: "
            "it would change the hands being played.",
        )
