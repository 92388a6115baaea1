"""`manage.py check_hands`: replay every stored hand and compare it with its cached state and its
stored engine state."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from dealer.models import Hand
from dealer.selectors import check_hands


class Command(BaseCommand):
    help = (
        "Replay every stored hand's event log and check that it reproduces the cached state "
        "and the stored engine state."
    )

    def handle(self, *args: object, **options: object) -> None:
        problems = check_hands()
        for problem in problems:
            self.stderr.write(problem)
        if problems:
            raise CommandError(f"{len(problems)} hand(s) do not replay to their cached state.")
        self.stdout.write(
            self.style.SUCCESS(
                f"{Hand.objects.count()} hand(s) replayed: every cached state matches."
            )
        )
