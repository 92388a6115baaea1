"""`manage.py load_cash_demo`: a demo cash table next to the demo tournament (`make run`).

Six players at a 1/2 no-limit table, a few hands played; Dmitri sat out while both blinds
passed him, so the seats page and the tablet show what he owes; two players on the waiting list.
Idempotent: does nothing when the demo cash table exists.
"""

from __future__ import annotations

import random
import uuid
from typing import Any

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand
from django.db import transaction

from dealer.cash import services
from dealer.models import Hand
from dealer.services import hand_record_action, hand_start
from tournaments.models import CashSeat, Table

NUMBER = 20
PLAYERS = (
    "Ana Lopez",
    "Ben Okafor",
    "Chloe Martin",
    "Dmitri Ivanov",
    "Eva Schmidt",
    "Farid Haddad",
)


class Command(BaseCommand):
    help = "Load a demo cash table (1/2 no limit, six players, a returning player owing blinds)."

    def handle(self, *args: Any, **options: Any) -> None:
        if Table.objects.filter(tournament=None, number=NUMBER).exists():
            return
        table = self._load()
        self.stdout.write(self.style.SUCCESS(f"Loaded the demo cash table: /cash/{table.pk}/"))

    @transaction.atomic
    def _load(self) -> Table:
        table = services.cash_table_create(
            number=NUMBER,
            name="1/2 No-Limit Hold'em",
            game="holdem",
            structure="no_limit",
            rule_profile="casino_cash",
            small_blind=1,
            big_blind=2,
            min_buy_in=40,
            max_buy_in=200,
        )
        for seat, name in enumerate(PLAYERS, start=1):
            services.cash_seat_take(table=table, seat=seat, player_name=name, buy_in=200)
        dealer = User.objects.filter(username="dealer").first()
        if dealer is not None:
            Table.objects.filter(pk=table.pk).update(dealer=dealer)
        services.cash_table_draw_button(table=table, rng=random.Random(20))
        _fold_around(hand_start(table=table))
        services.cash_seat_sit_out(cash_seat=CashSeat.objects.get(table=table, seat=4))
        for _ in range(3):
            _fold_around(hand_start(table=table))
        for name in ("Grace Kim", "Hugo Rossi"):
            services.cash_waitlist_add(table=table, player_name=name)
        return table


def _fold_around(hand: Hand) -> None:
    """Everyone folds to the last player (the big blind wins the blinds)."""
    state = hand.state
    while state["status"] == Hand.Status.IN_PROGRESS:
        result = hand_record_action(
            hand=hand,
            action={"kind": "fold", "seat": state["actor_seat"]},
            client_id=uuid.uuid4().hex,
            version=state["version"],
        )
        hand, state = result.hand, result.answer
