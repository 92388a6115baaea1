"""`manage.py load_cash_demo`: the demo's cash floor next to the demo tournament (`make run`).

Table 20, a 1/2 no-limit table of its own: six players, a few hands played; Dmitri sat out while
both blinds passed him, so the seats page and the tablet show what he owes; two players on the
table's own list. And the game "1/2 NL" dealt at tables 11 and 12 with rake (5% capped at 5, no
flop no drop; run it twice allowed), eleven players seated, the buttons drawn and three players
on the game's list; the demo dealer deals tables 11 and 20.
Idempotent: does nothing when the demo cash table exists.
"""

from __future__ import annotations

import random
import uuid

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand
from django.db import transaction

from dealer.cash.games import services as games
from dealer.cash.games import waitlist
from dealer.cash.models import CashSeat
from dealer.cash.seats import services
from dealer.models import Hand
from dealer.services import hand_record_action, hand_start
from tournaments.models import Table
from tournaments.services.tables import table_assign_dealer

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

    def handle(self, *args: object, **options: object) -> None:
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
        _game(dealer)
        return table


GAME = "1/2 NL"
# The house's take at the game's tables: 5% capped at 5, no flop no drop; run it twice.
GAME_RULES = {
    "rake_percent": 5,
    "rake_cap": 5,
    "rake_no_flop_no_drop": True,
    "run_it_twice_allowed": True,
}
GAME_SEATS = {
    11: [("Paula Reyes", 200), ("Quentin Hale", 150), ("Rosa Lind", 180), ("Sami Okafor", 200),
         ("Tariq Nasser", 120), ("Uma Patel", 200), ("Viktor Sorensen", 160)],
    12: [("Wen Zhao", 200), ("Xavier Moreau", 100), ("Yara Haddad", 200), ("Zoe Becker", 140)],
}  # fmt: skip
GAME_WAITING = ("Adele Novak", "Bruno Costa", "Carmen Ortiz")


def _game(dealer: User | None) -> None:
    """The game "1/2 NL" at tables 11 and 12 (nine seats, buy-in 40 to 200, the rake above),
    eleven players seated, the buttons drawn, three players on the game's list; the demo dealer
    deals table 11."""
    game = games.cash_game_create(
        name=GAME,
        small_blind=1,
        big_blind=2,
        hold_seconds=300,
        rule_profile="casino_cash",
        rule_overrides=GAME_RULES,
    )
    for number, players in GAME_SEATS.items():
        table = services.cash_table_create(
            number=number,
            name=f"{GAME} {number}",
            rule_profile="casino_cash",
            rule_overrides=GAME_RULES,
            small_blind=1,
            big_blind=2,
            min_buy_in=40,
            max_buy_in=200,
        )
        games.cash_game_table_attach(game=game, table=table)
        for seat, (name, buy_in) in enumerate(players, start=1):
            services.cash_seat_take(table=table, seat=seat, player_name=name, buy_in=buy_in)
        services.cash_table_draw_button(table=table, rng=random.Random(number))
        if number == 11 and dealer is not None:
            table_assign_dealer(table=table, dealer_id=dealer.pk)
    for name in GAME_WAITING:
        waitlist.game_waitlist_join(game=game, player_name=name)


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
