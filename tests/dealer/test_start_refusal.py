"""The tablet offers "Start next hand" exactly when the table lets `hand_start` deal (both read
`start_refusal`): the button, the refusal and the service agree about the table."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.test import RequestFactory

from common.errors import FloorError
from dealer.models import Hand
from dealer.selectors import start_refusal
from dealer.services import hand_start
from dealer.views.tablet import tablet_context
from tests.dealer.test_cash_services import seated
from tests.dealer.test_services import event
from tests.factories import DirectorFactory
from tournaments.models import Table, Tournament

pytestmark = pytest.mark.django_db


def _paused() -> Table:
    table = event(4)
    Tournament.objects.filter(tables=table).update(status=Tournament.Status.PAUSED)
    return Table.objects.get(pk=table.pk)


def _broken() -> Table:
    table = event(4)
    Table.objects.filter(pk=table.pk).update(is_broken=True)
    return Table.objects.get(pk=table.pk)


def _in_progress() -> Table:
    table = event(4)
    hand_start(table=table)
    return table


def _closed_cash() -> Table:
    table = seated("1 2 3", button=1)
    Table.objects.filter(pk=table.pk).update(is_open=False)
    return Table.objects.get(pk=table.pk)


@pytest.mark.parametrize(
    ("make", "code"),
    [
        pytest.param(lambda: event(4), None, id="running_tournament"),
        pytest.param(_paused, "not_running", id="paused_tournament"),
        pytest.param(_broken, "table_broken", id="broken_table"),
        pytest.param(_in_progress, "hand_in_progress", id="hand_in_progress"),
        pytest.param(lambda: seated("1 2 3", button=1), None, id="open_cash_table"),
        pytest.param(_closed_cash, "table_closed", id="closed_cash_table"),
    ],
)
def test_the_start_button_and_the_service_agree(
    make: Callable[[], Table], code: str | None
) -> None:
    table = make()
    in_progress = Hand.objects.filter(table=table, status=Hand.Status.IN_PROGRESS).exists()
    refusal = start_refusal(table, in_progress=in_progress)
    assert (refusal.code if refusal else None) == code
    request = RequestFactory().get("/")
    request.user = DirectorFactory.create()
    shown = tablet_context(request, Table.objects.get(pk=table.pk))
    assert shown["can_start"] is (code is None)
    try:
        hand_start(table=table)
        started = None
    except FloorError as error:
        started = error.code
    assert started == code
