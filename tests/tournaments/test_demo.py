"""`manage.py load_demo` (run by `make run`): a running demo event, loaded once."""

from __future__ import annotations

from io import StringIO

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command

from tournaments.models import Entry, Tournament

pytestmark = pytest.mark.django_db


def test_demo_is_a_running_tournament_of_45_on_5_tables_with_busts_and_logins() -> None:
    out = StringIO()
    call_command("load_demo", stdout=out)
    call_command("load_demo", stdout=out)  # idempotent
    (tournament,) = Tournament.objects.all()
    assert tournament.status == "running"
    entries = Entry.objects.filter(tournament=tournament)
    assert entries.count() == 45
    assert entries.filter(status="busted").count() == 3
    assert tournament.tables.count() == 5
    assert User.objects.get(username="director").is_staff
    assert User.objects.get(username="dealer").groups.filter(name="dealer").exists()
    assert out.getvalue().count("user 'director', password 'director'") == 2
