"""Pages of the floor: the landing page now; the director dashboard and public pages later."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def home(request: HttpRequest) -> HttpResponse:
    """The landing page: what the product is and who it is for."""
    return render(request, "home.html")
