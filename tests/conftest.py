"""Fixtures every test package shares. A module that needs something else (a director at a
frozen time, a page client with its own set-up) defines its own fixture of the same name."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.test import override_settings
from rest_framework.test import APIClient

from tests.examples import register_profiles
from tests.factories import DirectorFactory, make
from tests.passwords import one_round_first
from tests.workers import worker_name

# The longest tests (minutes each on CI: `--durations`), first in a parallel run, where they go
# one to each process (pytest-xdist hands tests out in this order): started late, one of them
# would keep its process busy minutes after the others had run out of tests.
LONGEST = (
    "tests/security/test_form_fuzz.py::test_no_hostile_form_input_answers_a_server_error",
    "tests/tournaments/test_ledger_machine.py::test_floor_and_tablets_keep_every_chip_accounted_for",
)

register_profiles()  # `make test-long`: --hypothesis-profile=long (tests/examples.py)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    if worker_name():
        items.sort(key=lambda item: item.nodeid not in LONGEST)  # stable: the rest keep their order


def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """Lanes for the tests that wait (tests/workers.py, `LaneScheduling`)."""
    if config.getvalue("dist") != "loadgroup":
        return None
    from tests.workers import LaneScheduling

    return LaneScheduling(config, log)


@pytest.fixture(scope="session", autouse=True)
def _set_up_at_test_speed() -> Iterator[None]:
    """Two costs every test paid without testing anything (docs/performance.md, "The suite's
    time"): a password hashed at a million rounds for every user a factory made and every
    sign-in tried (tests/passwords.py: one round here), and WhiteNoise listing every static file
    for every test client made (`WHITENOISE_AUTOREFRESH`: each file is looked up when asked
    for instead; tests/operations/test_static_caching.py checks the production mode)."""
    with override_settings(PASSWORD_HASHERS=one_round_first(), WHITENOISE_AUTOREFRESH=True):
        yield


@pytest.fixture(scope="session", autouse=True)
def _form_widgets_rendered_plainly(django_test_environment: None) -> Iterator[None]:
    """Django's test set-up has every template rendered announce itself, and the test client
    keeps a copy of each one's context (`response.context`, `response.templates`). A page of
    forms renders one small template per field (`django/forms/widgets/...`): a quarter of the
    form fuzzer's time went to copying those contexts, which no test reads. Widget templates
    render as in production; every other template is still recorded."""
    from django.template.base import Template

    recorded = Template._render  # type: ignore[attr-defined]  # Django's, for the tests

    def render(self: Template, context: Any) -> Any:
        if (self.name or "").startswith("django/forms/"):
            return self.nodelist.render(context)
        return recorded(self, context)

    Template._render = render  # type: ignore[attr-defined]
    try:
        yield
    finally:
        Template._render = recorded  # type: ignore[attr-defined]


@pytest.fixture(scope="session", autouse=True)
def _tables_emptied_by_delete() -> Iterator[None]:
    """After a test that commits (`transaction=True`, the live server of the browser tests),
    pytest-django empties every table. Django does it with one TRUNCATE of all of them, which
    PostgreSQL carries out by giving each of the 60-odd tables new files: about a third of a
    second a test, spent in PostgreSQL, for tables that hold a few rows. A DELETE of each
    table leaves them just as empty (the sequences are not reset either way), with the
    foreign keys checked at the commit, as Django makes them (DEFERRABLE INITIALLY DEFERRED).
    A flush that asks for its sequences reset, or for a cascade to tables outside the ones
    named (a test case's `available_apps`), still gets Django's TRUNCATE.
    """
    from django.db.backends.postgresql.operations import DatabaseOperations

    truncate = DatabaseOperations.sql_flush

    def sql_flush(
        self: Any,
        style: Any,
        tables: Any,
        *,
        reset_sequences: bool = False,
        allow_cascade: bool = False,
    ) -> list[str]:
        if reset_sequences or allow_cascade or not tables:
            return truncate(
                self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade
            )
        quote = self.quote_name
        return ["SET CONSTRAINTS ALL DEFERRED"] + [f"DELETE FROM {quote(t)}" for t in tables]

    DatabaseOperations.sql_flush = sql_flush  # type: ignore[method-assign]
    try:
        yield
    finally:
        DatabaseOperations.sql_flush = truncate  # type: ignore[method-assign]


@pytest.fixture
def director() -> APIClient:
    """A client signed in as a tournament director, for the API and the pages alike (an
    `APIClient` is Django's test client with JSON helpers)."""
    client = APIClient()
    client.force_login(make(DirectorFactory))
    return client


@pytest.fixture(autouse=True)
def _throttles_reset() -> None:
    """The rates per client (sign-ins, 20 a minute; joining a waiting list, 60 an hour) count in
    the cache, which outlives a test: each test starts with the test client's address (the
    live server's too) unthrottled."""
    from django.core.cache import cache

    cache.delete_many([f"throttle_{scope}_127.0.0.1" for scope in ("sign_in", "list_join")])
