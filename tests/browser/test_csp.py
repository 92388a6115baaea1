"""Every role's main pages in Chromium under the Content-Security-Policy (issue 23).

On the demo floor (the form fuzz's: a hand in play at the dealer's table, a cash game with a
waiting list, two screens), an anonymous visitor, the dealer and the director open their pages
and use what runs in the browser: the dealer taps an action and a second tablet follows by its
htmx poll; the screen's clock counts down; the director's bust row is swapped in by htmx and
its split and remove buttons (static/js/desk.js) work. Every `securitypolicyviolation` event,
every console message about the policies (a violation, an unknown Permissions-Policy feature)
and every uncaught script error fails the test.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from dealer.cash.models import WaitingListEntry
from dealer.models import Hand
from dealer.views.present import seat_position
from tests.browser.test_tablet import tap
from tests.security.test_form_fuzz import Floor, build_floor

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Reports each violation to the test through a binding (CDP's, which the policy does not
# govern), from the first script of every page and frame.
WATCH = """
document.addEventListener("securitypolicyviolation", (event) => {
  window.__cspViolation(
    `${event.violatedDirective} blocked ${event.blockedURI || "inline"} at ` +
    `${event.sourceFile}:${event.lineNumber} (${event.sample})`
  );
});
"""


class Watch:
    """What went wrong in a browser context: policy violations and script errors."""

    def __init__(self, context: Any) -> None:
        self.problems: list[str] = []
        context.expose_function("__cspViolation", self._report)
        context.add_init_script(WATCH)

    def _report(self, text: str) -> None:
        self.problems.append(text)

    def page(self, context: Any) -> Any:
        tab = context.new_page()
        tab.on("console", self._console)
        tab.on("pageerror", lambda error: self.problems.append(f"script error: {error}"))
        return tab

    def _console(self, message: Any) -> None:
        # The policies' own errors: a violation, or a feature Chromium does not know.
        policies = ("Content Security Policy", "Content-Security-Policy", "Permissions-Policy")
        if any(name in message.text for name in policies):
            self.problems.append(f"console: {message.text}")


@pytest.fixture
def floor() -> Floor:
    return build_floor()


def open_context(browser: Any, **options: Any) -> tuple[Any, Watch]:
    context = browser.new_context(**options)
    context.set_default_timeout(15_000)
    return context, Watch(context)


def sign_in(page: Any, base: str, username: str) -> None:
    page.goto(f"{base}/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", username)  # the demo's logins (load_demo)
    page.press("input[name=password]", "Enter")
    page.wait_for_url(re.compile(r"/(desk|deal)/$"))


def visit(page: Any, url: str) -> None:
    response = page.goto(url)
    assert response is not None
    assert response.status == 200, f"{url}: {response.status}"
    page.wait_for_load_state("load")


def test_public_pages_a_screen_and_the_phone_list_run_under_the_policy(
    browser: Any, live_server: Any, floor: Floor
) -> None:
    base, t = live_server.url, floor.tournament.pk
    context, watch = open_context(browser, viewport={"width": 1280, "height": 800})
    page = watch.page(context)
    for path in ("/", "/login/", f"/t/{t}/", f"/t/{t}/payouts/", "/games/", "/lists/"):
        visit(page, base + path)
    screen = floor.tournament.screens.order_by("pk").first()
    assert screen is not None
    visit(page, f"{base}/t/{t}/screens/{screen.pk}/")
    # The clock counts down in the browser (static/js/clock.js).
    shown = page.inner_text("[data-clock-time]")
    page.wait_for_function(
        "was => document.querySelector('[data-clock-time]').textContent !== was", arg=shown
    )

    phone, phone_watch = open_context(
        browser, viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    on_phone = phone_watch.page(phone)
    listed = WaitingListEntry.objects.filter(game__isnull=False).order_by("pk").first()
    assert listed is not None
    visit(on_phone, f"{base}/games/{listed.game_id}/join/")
    visit(on_phone, f"{base}/lists/{listed.code}/")
    # The place is polled by htmx: the poll asks and its answer is taken in.
    with on_phone.expect_response(re.compile(rf"/lists/{listed.code}/state/"), timeout=20_000):
        pass
    on_phone.wait_for_selector("#place [data-place]")

    context.close()
    phone.close()
    assert watch.problems + phone_watch.problems == []


def test_the_dealer_taps_and_a_second_tablet_follows_under_the_policy(
    browser: Any, live_server: Any, floor: Floor
) -> None:
    base = live_server.url
    context, watch = open_context(browser, viewport={"width": 1280, "height": 800}, has_touch=True)
    tablet = watch.page(context)
    sign_in(tablet, base, "dealer")
    url = f"{base}/deal/table/{floor.table.pk}/"
    visit(tablet, url)
    other = watch.page(context)
    visit(other, url)
    hand = Hand.objects.filter(table=floor.table).order_by("-number").first()
    assert hand is not None
    version = hand.state["version"]

    tap(tablet, "Fold")  # a tap is an htmx POST with the client id tablet.js adds

    hand.refresh_from_db()
    assert hand.state["version"] == version + 1
    # The second device's htmx poll (every 3 s) swaps the new state in.
    other.wait_for_function(
        "v => document.querySelector('#tablet').dataset.version === v", arg=str(version + 1)
    )
    # Its seats are placed by classes (static/css/seats.css), not style attributes.
    cx, cy, _, _ = seat_position(1, floor.table.seat_count)
    placed = other.eval_on_selector(
        "[data-seat='1']",
        "e => ['--cx', '--cy'].map(name => getComputedStyle(e).getPropertyValue(name))",
    )
    assert [float(value) for value in placed] == [cx, cy]

    context.close()
    assert watch.problems == []


def test_the_directors_pages_and_desk_buttons_run_under_the_policy(
    browser: Any, live_server: Any, floor: Floor
) -> None:
    base, t = live_server.url, floor.tournament.pk
    context, watch = open_context(browser, viewport={"width": 1280, "height": 860})
    page = watch.page(context)
    sign_in(page, base, "director")
    for path in (
        "/desk/",
        f"/desk/t/{t}/",
        f"/desk/t/{t}/entries/",
        f"/desk/t/{t}/tables/",
        f"/desk/t/{t}/clock/",
        f"/desk/t/{t}/payouts/",
        f"/desk/t/{t}/screens/",
        f"/desk/t/{t}/seat-cards/",
        "/cash/",
        "/cash/games/",
        "/admin/",
        "/admin/tournaments/tournament/",
        "/api/docs/",
    ):
        visit(page, base + path)
    page.wait_for_selector("#swagger-ui .info")  # Swagger UI ran and read the schema

    # A bust row: htmx swaps the row in for the chosen player, then desk.js's buttons.
    visit(page, f"{base}/desk/t/{t}/busts/")
    player = page.locator("select[name=entry] option:not([disabled]):not([value=''])").first
    with page.expect_response(re.compile(r"/busts/row/")):
        page.select_option("select[name=entry]", player.get_attribute("value"))
    page.wait_for_selector(".eliminator-split")
    picks = ".bust-row .eliminator-picks select"
    before = page.locator(picks).count()
    page.get_by_role("button", name="+ Split with another player").click()
    assert page.locator(picks).count() == before + 1
    rows = page.locator("tr.bust-row").count()
    page.get_by_role("button", name="Remove this row").first.click()
    assert page.locator("tr.bust-row").count() == rows - 1

    context.close()
    assert watch.problems == []
