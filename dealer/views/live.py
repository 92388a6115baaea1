"""The live updates (issue 27): the event's story as a phone page, its polled part and an Atom
feed for media sites. Each reads the one story (`dealer.story.tournament_story`) and answers
with the tournament's version as its ETag, so an unchanged poll is a 304."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from xml.etree import ElementTree

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse

from config.conditional import conditional
from dealer.story import Story, tournament_story
from tournaments.models import Tournament
from tournaments.selectors import tournament_full, tournament_head, version_tag
from tournaments.selectors.versions import version_mark
from tournaments.views.access import public_tournament_get

POLL_SECONDS = 15
ATOM = "http://www.w3.org/2005/Atom"


def live(request: HttpRequest, pk: int) -> HttpResponse:
    """The story, newest first; the list polls `public-live-state`."""
    tournament = public_tournament_get(pk)
    context = {
        "tournament": tournament,
        "story": tournament_story(tournament),
        "poll_seconds": POLL_SECONDS,
    }
    return render(request, "public/live.html", context)


def _polled(
    request: HttpRequest,
    pk: int,
    part: str,
    build: Callable[[HttpRequest, Tournament], HttpResponse],
) -> HttpResponseBase:
    tournament = tournament_head(pk)
    if tournament is None:
        raise Http404("There is no such tournament.")
    etag = f'"{version_tag(tournament, part)}"'
    return conditional(
        request,
        etag,
        lambda: build(request, tournament_full(tournament)),
        version=version_mark(tournament),
    )


def live_state(request: HttpRequest, pk: int) -> HttpResponseBase:
    """The polled list of the live page, with an ETag (304 when nothing changed)."""

    def build(request: HttpRequest, tournament: Tournament) -> HttpResponse:
        story = tournament_story(tournament)
        return HttpResponse(render_to_string("public/_live.html", {"story": story}))

    return _polled(request, pk, "live-state", build)


def live_atom(request: HttpRequest, pk: int) -> HttpResponseBase:
    """The story as an Atom 1.0 feed (RFC 4287), newest first."""

    def build(request: HttpRequest, tournament: Tournament) -> HttpResponse:
        page = request.build_absolute_uri(reverse("public-live", args=[tournament.pk]))
        body = atom_feed(tournament_story(tournament), page=page, tournament=tournament)
        return HttpResponse(body, content_type="application/atom+xml; charset=utf-8")

    return _polled(request, pk, "live-atom", build)


def _when(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def atom_feed(story: Story, *, page: str, tournament: Tournament) -> bytes:
    """The Atom document: the feed's id, title, updated and link, and one entry per story item
    with its id (a tag URI that never changes), title, updated, content and link. Built with
    ElementTree, so every name and text is escaped."""
    ElementTree.register_namespace("", ATOM)
    feed = ElementTree.Element(f"{{{ATOM}}}feed")
    created = (tournament.created_at or datetime.now(UTC)).date().isoformat()
    base = f"tag:floordesk,{created}:tournament-{tournament.pk}"
    _sub(feed, "id", base)
    _sub(feed, "title", f"{story.name}: live updates")
    _sub(feed, "updated", _when(story.updated or tournament.created_at or datetime.now(UTC)))
    author = ElementTree.SubElement(feed, f"{{{ATOM}}}author")
    _sub(author, "name", "FloorDesk")
    ElementTree.SubElement(feed, f"{{{ATOM}}}link", rel="alternate", href=page)
    for item in story.entries:
        entry = ElementTree.SubElement(feed, f"{{{ATOM}}}entry")
        _sub(entry, "id", f"{base}:{item.id}")
        _sub(entry, "title", item.title)
        _sub(entry, "updated", _when(item.at))
        _sub(entry, "content", item.text, type="text")
        ElementTree.SubElement(entry, f"{{{ATOM}}}link", rel="alternate", href=f"{page}#{item.id}")
    return ElementTree.tostring(feed, encoding="utf-8", xml_declaration=True)


def _sub(parent: ElementTree.Element, name: str, text: str, **attrs: str) -> None:
    ElementTree.SubElement(parent, f"{{{ATOM}}}{name}", attrs).text = text
