"""Players across the series, for the director: the search (`/desk/players/?q=`, by any part
of the name without accents, or "#1042"), a player's page with every result and the contact
details (editable: `player_update`, the twin of `PATCH /api/players/{id}/`) and the merge of a
player registered twice into it (`players_merge`, the twin of `POST /api/players/{id}/merge/`),
and the public
results page `/p/<id>/` (the name and the results, never a contact; only of a player with a
public result, `player_public_get`, but for directors)."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import URLPattern, path
from django.views.decorators.http import require_POST

from common.errors import FloorError
from common.roles import is_director
from tournaments.models import Player
from tournaments.player_forms import (
    PlayerForm,
    PlayerMergeForm,
    PlayerSearchForm,
    attach_player_refusal,
)
from tournaments.selectors.players import (
    player_get,
    player_likely_same,
    player_public_get,
    player_results,
    player_search,
)
from tournaments.services.players import player_update, players_merge
from tournaments.views import series
from tournaments.views.access import director_required
from tournaments.views.form_tokens import form_write, refused_on_form


@director_required
def players_page(request: HttpRequest) -> HttpResponse:
    query, page, refusal = PlayerSearchForm.read(request.GET)
    if refusal:
        messages.error(request, refusal)
    archived = request.GET.get("archived") == "1"  # "show archived"
    context = {
        "found": player_search(query, page=page, archived=archived),
        "show_archived": archived,
        "tab": "players",
    }
    return render(request, "desk/players.html", context, status=400 if refusal else 200)


@director_required
def player_page(request: HttpRequest, pk: int) -> HttpResponse:
    """A player's results across the series, and their name, number and contact (a POST saves
    them; a refusal is shown next to its field)."""
    player = player_get(pk)
    if player is None:
        raise Http404("There is no such player.")
    form = PlayerForm(request.POST or None, initial=PlayerForm.initial_from(player))
    if request.method == "POST" and form.is_valid():
        saved = form_write(
            request,
            form,
            lambda: player_update(player=player, actor=request.user, **form.cleaned_data),
            "Player saved.",
            attach=attach_player_refusal,
        )
        if not isinstance(saved, FloorError):
            return redirect("player-detail", pk=pk)
    return _player_page(request, player, form, PlayerMergeForm())


@director_required
@require_POST
def player_merge_page(request: HttpRequest, pk: int) -> HttpResponse:
    """Merge the player typed (or a likely same one's button) into this one: the twin of
    `POST /api/players/{id}/merge/`; a refusal is shown next to the merge field."""
    player = player_get(pk)
    if player is None:
        raise Http404("There is no such player.")
    form = PlayerMergeForm(request.POST)
    if form.is_valid():
        merged = form.cleaned_data["merge"]
        other = player_get(merged)  # its name, for the message once it is gone
        name = other.name if other else f"Player {merged}"
        sent = form_write(
            request,
            form,
            lambda: players_merge(keep=player, merge=merged, actor=request.user),
            f"{name} merged into {player.name}.",
            once=True,
            attach=attach_player_refusal,
        )
        if not refused_on_form(sent):
            return redirect("player-detail", pk=pk)
    initial = PlayerForm.initial_from(player)
    return _player_page(request, player, PlayerForm(initial=initial), form)


def _player_page(
    request: HttpRequest, player: Player, form: PlayerForm, merge_form: PlayerMergeForm
) -> HttpResponse:
    context = {
        "player": player,
        "form": form,
        "merge_form": merge_form,
        "likely": player_likely_same(player),
        "results": player_results(player, public=False),
    }
    refused = form.errors or merge_form.errors
    return render(request, "desk/player.html", context, status=400 if refused else 200)


def public_player_page(request: HttpRequest, pk: int) -> HttpResponse:
    """Public: the player's name and results in the events the public may see; a player with
    none answers 404, as a missing one (directors see everyone's)."""
    player = player_get(pk) if is_director(request.user) else player_public_get(pk)
    if player is None:
        raise Http404("There is no such player.")
    return render(request, "public/player.html", {"results": player_results(player, public=True)})


urls: list[URLPattern] = [
    path("desk/players/", players_page, name="player-list"),
    path("desk/players/<int:pk>/", player_page, name="player-detail"),
    path("desk/players/<int:pk>/merge/", player_merge_page, name="player-merge"),
    path("p/<int:pk>/", public_player_page, name="public-player"),
    *series.urls,
]
