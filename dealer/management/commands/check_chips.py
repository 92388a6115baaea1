"""`manage.py check_chips`: replay every tournament's chip ledger and prove its books balance."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from dealer.services import check_hand_chips
from tournaments.models import Tournament
from tournaments.selectors.books import chips_check, tournament_books


class Command(BaseCommand):
    help = (
        "Replay every tournament's chip ledger: each entry's rows add up to its chips, each hand "
        "moves chips without making any, and the chips in play are the chips issued less "
        "colour-ups plus the floor's recorded corrections. Exits non-zero on any difference."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--tournament", type=int, help="check this tournament only (its id)")

    def handle(self, *args: Any, **options: Any) -> None:
        chosen = Tournament.objects.order_by("pk")
        if options["tournament"]:
            chosen = chosen.filter(pk=options["tournament"])
        problems: list[str] = []
        for tournament in chosen:
            found = chips_check(tournament) + check_hand_chips(tournament)
            problems += found
            books = tournament_books(tournament)
            mark = "differs" if found else "balances"
            self.stdout.write(
                f"{tournament.name}: issued {books.issued:,}, colour-ups {books.removed:,}, "
                f"floor corrections {books.corrections:,}, hands {books.hands:,} net; "
                f"stacks {books.stacks:,} of {books.in_play:,} in play: {mark}."
            )
        for problem in problems:
            self.stderr.write(problem)
        if problems:
            raise CommandError(f"{len(problems)} difference(s) in the chip ledgers.")
        self.stdout.write(self.style.SUCCESS("Every chip ledger balances."))
