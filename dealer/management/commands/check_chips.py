"""`manage.py check_chips`: replay every tournament's chip ledger and the cash floor's, and prove
their books balance."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from dealer.cash.books import cash_chips_check
from dealer.cash.takings.cage import cash_float
from dealer.selectors import check_hand_chips
from tournaments.models import Tournament
from tournaments.selectors.books import chips_check, tournament_books


class Command(BaseCommand):
    help = (
        "Replay every tournament's chip ledger: each entry's rows add up to its chips, each hand "
        "moves chips without making any, and the chips in play are the chips issued less "
        "colour-ups plus the floor's recorded corrections; and the cash floor's ledger: every seat "
        "holds what its rows say, every hand moves chips without making any, and for every cash "
        "table and the whole floor the chips bought in, moved in and corrected are at the seats, "
        "cashed out, moved out, raked, dropped or taken in time. Exits non-zero on any "
        "difference."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--tournament", type=int, help="check this tournament only (its id)")
        parser.add_argument("--cash", action="store_true", help="check the cash floor only")

    def handle(self, *args: object, **options: Any) -> None:
        chosen = Tournament.objects.order_by("pk")
        if options["tournament"]:
            chosen = chosen.filter(pk=options["tournament"])
        problems: list[str] = []
        if options["cash"]:
            chosen = chosen.none()
        if not options["tournament"]:
            problems += self._cash()
        for tournament in chosen:
            found = chips_check(tournament) + check_hand_chips(tournament)
            problems += found
            books = tournament_books(tournament)
            mark = "differs" if found else "balances"
            self.stdout.write(
                f"{tournament.name}: issued {books.issued:,}, colour-ups {books.removed:,}, "
                f"floor corrections {books.corrections:,}, hands {books.hands:,} net, "
                f"to eliminators {books.knockouts:,}; "
                f"stacks {books.stacks:,} of {books.in_play:,} in play: {mark}."
            )
        for problem in problems:
            self.stderr.write(problem)
        if problems:
            raise CommandError(f"{len(problems)} difference(s) in the chip ledgers.")
        self.stdout.write(self.style.SUCCESS("Every chip ledger balances."))

    def _cash(self) -> list[str]:
        found = cash_chips_check()
        floor = cash_float()
        mark = "differs" if found else "balances"
        self.stdout.write(
            f"Cash floor: bought in {floor.came_in:,}, corrections {floor.corrections:,}, "
            f"cashed out {floor.went_out:,}, rake {floor.rake:,}, drop {floor.drop:,}, "
            f"time {floor.time:,}; {floor.at_tables:,} at the seats: {mark}."
        )
        return found
