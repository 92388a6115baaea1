"""The landing page: what the product is, and the tournaments on now."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from common.roles import is_director
from tournaments.models import Tournament
from tournaments.selectors import tournament_list

ON_NOW = (Tournament.Status.REGISTERING, Tournament.Status.RUNNING, Tournament.Status.PAUSED)


RESULTS_SHOWN = 30


def home(request: HttpRequest) -> HttpResponse:
    """The landing page: who it is for, and the registering and running tournaments with links
    to their public pages (and, for directors, to their dashboards)."""
    tournaments = tournament_list(public=True).filter(status__in=ON_NOW)
    # The results of finished events stay on the home page (archived ones, test events, do not).
    finished = tournament_list(public=True).filter(status=Tournament.Status.FINISHED)
    finished = finished.order_by("-clock_started_at", "-pk")[:RESULTS_SHOWN]
    return render(request, "home.html", {"tournaments": tournaments, "finished": finished})


@login_required
def after_login(request: HttpRequest) -> HttpResponse:
    """Where signing in leads: directors to the dashboard, dealers to their tables."""
    return redirect("tournament-list" if is_director(request.user) else "deal-tables")
