"""URLs of the floor's pages: the director dashboard and the public pages."""

from django.urls import path

from tournaments.views import home

urlpatterns = [
    path("", home, name="home"),
]
