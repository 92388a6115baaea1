"""Playwright driving Debian's Chromium against Django's live server.

Chromium comes from the machine (`apt-get install chromium`, done by .ci/run on CI), never a
downloaded browser build. With REQUIRE_SERVICES=1 a missing Chromium fails the tests.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from tests.required import REQUIRED

SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
FAILURES = Path(__file__).resolve().parents[2] / "test-failures"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

# Playwright's sync API runs an event loop in the test thread; the ORM calls the tests make there
# are ordinary synchronous ones.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


# The public pages' and phones' polls (10 to 15 s in the room): a browser test waiting for a
# poll to bring news waited that long, idle, on a core the suite could have used. Two seconds
# here; a test that times a poll sets its own (tests/browser/test_list_alerts.py). The tablet's
# own poll (3 s) and the screens' clock stay as served.
QUICK_POLLS = (
    "dealer.cash.games.views.POLL_SECONDS",
    "dealer.views.live.POLL_SECONDS",
    "tournaments.views.public.POLL_SECONDS",
)


@pytest.fixture(autouse=True)
def _quick_polls(monkeypatch: pytest.MonkeyPatch) -> None:
    for target in QUICK_POLLS:
        monkeypatch.setattr(target, 2)


# The tablet's tap guard (TABLET_TAP_GUARD_MS, 350 ms in the room): the buttons a tap's answer
# draws take no tap for that long, so that a dealer's double tap does not land on the next
# player's button. Playwright's click waits for a button to be enabled, so every tap a browser
# test made after the first sat out the whole guard: the cash evening's 31 taps took 15.3 s with
# it, 1.8 s at 35 ms. The guard stays on at a tenth of its time (every tap still waits for it); the
# tests of the guard itself, marked `tap_guard`, run with the room's 350 ms.
QUICK_TAP_GUARD_MS = 35


@pytest.fixture(autouse=True)
def _quick_tap_guard(request: pytest.FixtureRequest, settings: Any) -> None:
    if request.node.get_closest_marker("tap_guard") is None:
        settings.TABLET_TAP_GUARD_MS = QUICK_TAP_GUARD_MS


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    """A browser test that fails reports what each of its tabs showed at that moment: the
    address and the page's visible text in the failure's report (so CI's output holds it), and
    the page's HTML and a screenshot in `test-failures/` (not kept in git)."""
    outcome = yield
    report = outcome.get_result()  # type: ignore[attr-defined]
    if report.when != "call" or not report.failed:
        return
    for name, value in getattr(item, "funcargs", {}).items():
        if not (hasattr(value, "evaluate") and hasattr(value, "screenshot")):
            continue  # not a Playwright page
        stem = FAILURES / re.sub(r"[^\w.-]+", "_", f"{item.name}-{name}")[:150]
        try:
            text = value.evaluate("() => document.body ? document.body.innerText : ''")
            FAILURES.mkdir(exist_ok=True)
            stem.with_suffix(".html").write_text(value.content())
            value.screenshot(path=str(stem.with_suffix(".png")), full_page=True)
            shown = f"{value.url}\n{text[:4000]}"
        except Exception as error:  # a closed or crashed page: say so, keep the failure
            shown = f"(the page could not be read: {error})"
        report.sections.append((f"the {name} tab when the test failed", shown))


def _chromium() -> str | None:
    return (
        os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    )


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    path = _chromium()
    if path is None:
        if REQUIRED:
            pytest.fail(
                "REQUIRE_SERVICES=1 but Chromium is not installed (apt-get install chromium)"
            )
        pytest.skip("Chromium is not installed")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture
def page(browser: object) -> Iterator[object]:
    context = browser.new_context(viewport={"width": 1280, "height": 860})  # type: ignore[attr-defined]
    context.set_default_timeout(15_000)
    tab = context.new_page()
    yield tab
    context.close()


@pytest.fixture
def phone(browser: object) -> Iterator[object]:
    context = browser.new_context(  # type: ignore[attr-defined]
        viewport={"width": 390, "height": 844},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
    )
    context.set_default_timeout(15_000)
    tab = context.new_page()
    yield tab
    context.close()


@pytest.fixture
def tablet(browser: Any) -> Iterator[Any]:
    """A 10-inch tablet in landscape: 1280 x 800, touch."""
    context = browser.new_context(viewport={"width": 1280, "height": 800}, has_touch=True)
    context.set_default_timeout(15_000)
    tab = context.new_page()
    yield tab
    context.close()


def screenshot(page: object, name: str, *, full_page: bool = True) -> Path:
    """Save a screenshot of the page into docs/screenshots/ (the README shows them)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=full_page)  # type: ignore[attr-defined]
    return path


def wait_for_message(page: Any, sentence: str, *, success: bool = False) -> None:
    """Wait for `sentence` among the messages at the top of the page (a form's answer), its
    case included; with `success`, in a success message (the service's sentence after a
    write), not a warning or an error. A bare `text=...` selector matches any element holding
    the words in any case: a planned tournament's own hint ("Players can register once
    registration is open.") met `text=Registration is open.` before the answer to "Open
    registration" had come, and the test went on to a page still planned."""
    from playwright.sync_api import expect

    expect(page.locator(".message--success" if success else ".messages")).to_contain_text(sentence)


def sign_in_director(page: Any, live_server: Any) -> None:
    """A director signs in on the login page and lands on the desk."""
    get_user_model().objects.create_user("director", password="director", is_staff=True)
    page.goto(f"{live_server.url}/login/")
    page.fill("input[name=username]", "director")
    page.fill("input[name=password]", "director")
    page.press("input[name=password]", "Enter")
    page.wait_for_url(re.compile(r"/desk/$"))
