"""Who eliminated whom, with the bounties each knockout paid (`selectors.tournament_bounties`):
public, as the payouts are (names only)."""

from __future__ import annotations

from django.urls import URLPattern, path
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from common.api.base import FloorApi
from common.api.errors import responses
from common.api.limits import amount_field
from tournaments.api.lookups import get_tournament
from tournaments.models import Tournament
from tournaments.selectors.bounties import tournament_bounties

TAGS = ["results"]


class KnockoutOutputSerializer(serializers.Serializer):
    busted_id = serializers.IntegerField(help_text="the entry knocked out")
    busted = serializers.CharField(help_text='its player\'s name ("#2" for a re-entry)')
    eliminator_id = serializers.IntegerField(help_text="an entry that knocked it out")
    eliminator = serializers.CharField()
    share = serializers.IntegerField(
        help_text="the chips the eliminator won of the pot that took the last chips, or 1 for "
        "each player the desk named: the bounty is split in proportion"
    )
    cash = amount_field(help_text="the bounty paid in cash for this knockout")
    onto_head = amount_field(help_text="progressive: what went onto the eliminator's own head")
    bust_group = serializers.IntegerField(help_text="the players out on the same hand share it")
    hand_id = serializers.IntegerField(allow_null=True, help_text="the tablet's hand, if any")
    created_at = serializers.DateTimeField()


class EntryBountyOutputSerializer(serializers.Serializer):
    entry_id = serializers.IntegerField()
    name = serializers.CharField()
    head = amount_field(help_text="the bounty on the player's head now (0 once out or collected)")
    won = amount_field(help_text="bounty cash won: knockouts, and the own head at the end")
    collected = amount_field(help_text="the own head collected at the end (part of `won`)")
    knockouts = serializers.IntegerField(help_text="players knocked out (a shared one counts)")


class KnockoutsOutputSerializer(serializers.Serializer):
    bounty_kind = serializers.ChoiceField(choices=Tournament.Bounty.choices)
    bounty = amount_field(help_text="the bounty on each entry (0 without bounties)")
    paid = amount_field(help_text="the bounty cash won so far")
    knockouts = KnockoutOutputSerializer(many=True, help_text="in the order they happened")
    players = EntryBountyOutputSerializer(
        many=True, help_text="the players the knockouts or the end touched, by bounties won"
    )


class KnockoutsApi(FloorApi):
    permission_classes = (AllowAny,)

    @extend_schema(tags=TAGS, responses=responses(KnockoutsOutputSerializer, 404))
    def get(self, request: Request, pk: int) -> Response:
        """Public: who eliminated whom, in order, with what each knockout paid; and each
        player's bounties (progressive: the bounty on their head now)."""
        bounties = tournament_bounties(get_tournament(request, pk))
        players = sorted(bounties.entries.values(), key=lambda e: (-e.won, e.name, e.entry_id))
        data = {
            "bounty_kind": bounties.kind,
            "bounty": bounties.bounty,
            "paid": bounties.paid,
            "knockouts": bounties.knockouts,
            "players": players,
        }
        return Response(KnockoutsOutputSerializer(data).data)


urls: list[URLPattern] = [
    path("tournaments/<int:pk>/knockouts/", KnockoutsApi.as_view(), name="api-knockouts"),
]
