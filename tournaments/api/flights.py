"""Multi-flight events: create one with its flights and Day 2, add a flight or a day, bag a
flight's (or a day's) survivors, draw the next day, and read the event's summary, a phase's bag
list and the event's results. The desk's event pages call the same services and read models."""

from __future__ import annotations

from django.urls import URLPattern, path
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.utils.serializer_helpers import ReturnDict

from common.api.base import FloorApi
from common.api.errors import WRITE_ERRORS, responses
from common.api.limits import amount_field
from common.api.permissions import PublicReadDirectorWrite
from common.roles import is_director
from config import request_time
from tournaments.api.events import TournamentCreateInputSerializer
from tournaments.api.fields import TournamentStatusField
from tournaments.api.lookups import get_tournament
from tournaments.models import Tournament
from tournaments.selectors.flights import (
    EventSummary,
    bag_list,
    event_results,
    event_summary,
    phase_label,
)
from tournaments.services.flights import (
    MAX_FLIGHTS,
    day_draw,
    event_add_day,
    event_add_flight,
    event_create,
    phase_bag,
)

TAGS = ["events"]


class EventCreateInputSerializer(TournamentCreateInputSerializer):
    flights = serializers.ListField(
        child=serializers.CharField(max_length=10),
        min_length=1,
        max_length=MAX_FLIGHTS,
        help_text='the starting flights\' letters: ["A", "B", "C"]',
    )
    reentry_across_flights = serializers.BooleanField(
        default=True,
        help_text="a player who survived a flight may enter another (the best stack goes on)",
    )


class FlightInputSerializer(serializers.Serializer):
    flight = serializers.CharField(max_length=10, help_text='the new flight\'s letter: "D"')


class PhaseOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    phase = serializers.CharField(source="label", help_text='"Day 1A", "Day 2"')
    kind = serializers.ChoiceField(choices=[Tournament.Kind.FLIGHT, Tournament.Kind.DAY])
    day = serializers.IntegerField()
    flight = serializers.CharField()
    status = TournamentStatusField()
    entries = serializers.IntegerField()
    players_left = serializers.IntegerField()
    chips_in_play = serializers.IntegerField(
        help_text="chips issued less colour-ups: the phase's `total_chips` in its standings"
    )
    can_bag = serializers.BooleanField(help_text="under way, with a later day to bag for")
    can_draw = serializers.BooleanField(help_text="a later day whose field is not drawn yet")


class EventOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="event.pk")
    name = serializers.CharField(source="event.name")
    status = TournamentStatusField(help_text="the event's, from its phases")
    reentry_across_flights = serializers.BooleanField(source="event.reentry_across_flights")
    buy_in = serializers.DecimalField(max_digits=10, decimal_places=2, source="event.buy_in")
    fee = serializers.DecimalField(max_digits=10, decimal_places=2, source="event.fee")
    entries = serializers.IntegerField(help_text="every flight's entries, re-entries included")
    players = serializers.IntegerField(help_text="different players who entered a flight")
    prize_pool = amount_field()
    places_paid = serializers.IntegerField()
    prizes = serializers.ListField(child=amount_field(), help_text="first place first")
    phases = PhaseOutputSerializer(many=True)


class BagOutputSerializer(serializers.Serializer):
    entry_id = serializers.IntegerField()
    name = serializers.CharField()
    table = serializers.IntegerField(allow_null=True)
    seat = serializers.IntegerField(allow_null=True)
    chips = serializers.IntegerField()
    chips_source = serializers.CharField()
    state = serializers.ChoiceField(
        choices=["to bag", "bagged", "carried", "forfeited"],
        help_text="`to bag` while the day is under way; `forfeited`: a bigger bag went on",
    )
    carried_to = serializers.CharField(help_text='"Day 2 table 4 seat 7" once drawn')


class BagListOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    phase = serializers.CharField(help_text='"Day 1A"')
    status = TournamentStatusField()
    players = serializers.IntegerField()
    chips = serializers.IntegerField()
    bags = BagOutputSerializer(many=True)


class EventResultOutputSerializer(serializers.Serializer):
    place = serializers.IntegerField(allow_null=True, help_text="null: still in")
    name = serializers.CharField()
    entry_id = serializers.IntegerField()
    phase = serializers.CharField(help_text="where the player's best run ended")
    chips = serializers.IntegerField(help_text="a player still in: their stack")
    prize = amount_field(allow_null=True)


def _event(request: Request, pk: int) -> EventSummary:
    """The event named in the URL, summed up; the public does not see a planned one (404)."""
    event = Tournament.objects.filter(pk=pk, kind=Tournament.Kind.EVENT).first()
    if event is None:
        raise NotFound("There is no such multi-flight event.")
    summary = event_summary(event)
    if summary.status == Tournament.Status.PLANNED and not is_director(request.user):
        raise NotFound("There is no such multi-flight event.")
    return summary


def _bags(phase: Tournament) -> ReturnDict[str, object]:
    bags = bag_list(phase)
    return BagListOutputSerializer(
        {
            "id": phase.pk,
            "name": phase.name,
            "phase": phase_label(phase),
            "status": phase.status,
            "players": len(bags),
            "chips": sum(bag.chips for bag in bags),
            "bags": bags,
        }
    ).data


class EventsApi(FloorApi):
    @extend_schema(
        tags=TAGS,
        request=EventCreateInputSerializer,
        responses=responses(EventOutputSerializer, 400, 403, 409, status=201),
    )
    def post(self, request: Request) -> Response:
        """Create a multi-flight event from a schedule with its flights (Day 1A, 1B, ...) and its
        Day 2, each a tournament with the event's settings and levels. 400 `bad_flights` (no
        flight, a letter twice, too long)."""
        data = EventCreateInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        event = event_create(actor=request.user, **data.validated_data)
        return Response(EventOutputSerializer(event_summary(event)).data, status=201)


class EventApi(FloorApi):
    permission_classes = (PublicReadDirectorWrite,)

    @extend_schema(tags=TAGS, responses=responses(EventOutputSerializer, 404))
    def get(self, request: Request, pk: int) -> Response:
        """Public (once a flight has opened): the event with each flight and day (entries,
        players left, chips in play, status) and the prizes over the whole event."""
        return Response(EventOutputSerializer(_event(request, pk)).data)


class EventFlightsApi(FloorApi):
    @extend_schema(
        tags=TAGS,
        request=FlightInputSerializer,
        responses=responses(PhaseOutputSerializer, *WRITE_ERRORS, status=201),
    )
    def post(self, request: Request, pk: int) -> Response:
        """Add a starting flight. 409 `flight_exists`, `day_drawn` (Day 2 has been drawn)."""
        summary = _event(request, pk)
        data = FlightInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        phase = event_add_flight(
            event=summary.event, flight=data.validated_data["flight"], actor=request.user
        )
        return Response(_phase(phase), status=201)


class EventDaysApi(FloorApi):
    @extend_schema(
        tags=TAGS, request=None, responses=responses(PhaseOutputSerializer, 403, 404, status=201)
    )
    def post(self, request: Request, pk: int) -> Response:
        """Add the next later day (Day 3 after Day 2)."""
        summary = _event(request, pk)
        phase = event_add_day(event=summary.event, actor=request.user)
        return Response(_phase(phase), status=201)


def _phase(phase: Tournament) -> ReturnDict[str, object]:
    event = phase.parent
    assert event is not None
    row = next(row for row in event_summary(event).phases if row.id == phase.pk)
    return PhaseOutputSerializer(row).data


class EventResultsApi(FloorApi):
    permission_classes = (PublicReadDirectorWrite,)

    @extend_schema(tags=TAGS, responses=responses(EventResultOutputSerializer(many=True), 404))
    def get(self, request: Request, pk: int) -> Response:
        """Public: one row per player, their best entry: the players still in, the later days'
        places, then everyone out in a flight by when they went out (latest first)."""
        summary = _event(request, pk)
        return Response(EventResultOutputSerializer(event_results(summary.event), many=True).data)


class BagInputSerializer(serializers.Serializer):
    confirm = serializers.BooleanField(
        default=False,
        help_text="bag although some tables were never counted (409 `tables_not_counted` "
        "names them)",
    )


class PhaseBagApi(FloorApi):
    @extend_schema(tags=TAGS, responses=responses(BagListOutputSerializer, 403, 404))
    def get(self, request: Request, pk: int) -> Response:
        """The bag list of a flight or a day: the players still in by table and seat, with their
        chips (what they would bag now while the day is under way)."""
        return Response(_bags(get_tournament(request, pk)))

    @extend_schema(
        tags=TAGS,
        request=BagInputSerializer,
        responses=responses(BagListOutputSerializer, 400, 403, 404, 409),
    )
    def post(self, request: Request, pk: int) -> Response:
        """End the day: bag the survivors' chips (their ledger chips: correct the counts on the
        count sheets first); the phase finishes without a winner. 409 `tables_not_counted`
        (naming the tables where someone still in was never counted: send `confirm` to bag
        them with the ledger's chips), `hands_in_progress`, `not_running`, `no_next_day` (the
        last day is played to a winner)."""
        data = BagInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        phase = phase_bag(
            phase=get_tournament(request, pk),
            now=request_time.now(),
            confirm=data.validated_data["confirm"],
            actor=request.user,
        )
        return Response(_bags(phase))


class DayDrawApi(FloorApi):
    @extend_schema(
        tags=TAGS, request=None, responses=responses(EventOutputSerializer, 403, 404, 409)
    )
    def post(self, request: Request, pk: int) -> Response:
        """Draw a later day: each player's best bag from the phases before it becomes an entry
        of the day, then seats are drawn. 409 `flights_running` (a flight has not been bagged),
        `day_drawn`, `not_a_day`, `not_enough_players`."""
        day = day_draw(day=get_tournament(request, pk), now=request_time.now(), actor=request.user)
        assert day.parent is not None
        return Response(EventOutputSerializer(event_summary(day.parent)).data)


urls: list[URLPattern] = [
    path("events/", EventsApi.as_view(), name="api-events"),
    path("events/<int:pk>/", EventApi.as_view(), name="api-event"),
    path("events/<int:pk>/flights/", EventFlightsApi.as_view(), name="api-event-flights"),
    path("events/<int:pk>/days/", EventDaysApi.as_view(), name="api-event-days"),
    path("events/<int:pk>/results/", EventResultsApi.as_view(), name="api-event-results"),
    path("tournaments/<int:pk>/bag/", PhaseBagApi.as_view(), name="api-phase-bag"),
    path("tournaments/<int:pk>/day-draw/", DayDrawApi.as_view(), name="api-day-draw"),
]
