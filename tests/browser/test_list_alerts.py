"""A waiting list on the phone (issue 27): called, the open place page changes its title, beeps,
vibrates, notifies (permission granted) and counts the held seat's time down; and the player
leaves the list from the phone, which the floor's list shows at once."""

from __future__ import annotations

import re
from typing import Any

import pytest

from dealer.cash.games import services as games
from dealer.cash.games import waitlist
from dealer.cash.games.selectors import cash_game_get, cash_game_view
from dealer.cash.models import WaitingListEntry
from tests.browser.test_waiting_list import evening

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

POLL = 1  # seconds (the page's is `dealer.cash.games.views.POLL_SECONDS`)

# What the page asked of the phone, recorded: vibrations, notifications, sounds.
RECORD = """
window.__asked = {vibrate: [], notify: [], beeps: 0};
navigator.vibrate = (pattern) => { window.__asked.vibrate.push(pattern); return true; };
class Recorded {
  constructor(title, options) { window.__asked.notify.push([title, options.body]); }
}
Recorded.permission = 'granted';
Recorded.requestPermission = () => Promise.resolve('granted');
window.Notification = Recorded;
const Start = OscillatorNode.prototype.start;
OscillatorNode.prototype.start = function (...args) {
  window.__asked.beeps++;
  return Start.apply(this, args);
};
"""


@pytest.fixture
def poll_fast(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("dealer.cash.games.views.POLL_SECONDS", POLL)


def _listed(game_id: int) -> list[str]:
    """The names on the floor's list of the game (its one read model)."""
    return [e.player for e in cash_game_view(cash_game_get(game_id)).entries]


@pytest.mark.usefixtures("poll_fast")
def test_the_open_place_page_alerts_the_call_and_counts_down(phone: Any, live_server: Any) -> None:
    game = evening()
    nora = waitlist.game_waitlist_join(game=game, player_name="Nora Quinn", public=True)
    phone.add_init_script(RECORD)
    phone.goto(f"{live_server.url}/lists/{nora.code}/")
    assert phone.locator("[data-place]").inner_text() == "3"
    title = phone.title()
    phone.locator("body").tap()  # a tap: the browser lets the page make sound from now on

    for name in ("Lena", "Marco"):
        WaitingListEntry.objects.filter(player__name=name).update(status="removed")
    waitlist.game_waitlist_call_next(game=game)
    games.game_waitlist_seat(
        entry=WaitingListEntry.objects.get(player__name="Ivo", status="called")
    )

    phone.wait_for_function("(t) => document.title !== t", arg=title, timeout=(POLL + 2) * 1000)
    assert phone.title() == "Seat ready! " + title
    left = phone.locator("[data-call-left]").inner_text()
    assert re.fullmatch(r"[34]:\d\d", left), left  # held 240 s
    phone.wait_for_timeout(1100)
    assert phone.locator("[data-call-left]").inner_text() < left
    asked = phone.evaluate("() => window.__asked")
    assert asked["vibrate"] == [[300, 150, 300]]
    assert asked["notify"][0][0] == "Your seat is ready"
    assert "table 5, seat 1" in asked["notify"][0][1]
    assert asked["beeps"] == 2
    # The next polls (304, the same call) do not alert again.
    phone.wait_for_timeout(2 * POLL * 1000 + 300)
    assert phone.evaluate("() => window.__asked.vibrate.length") == 1


@pytest.mark.usefixtures("poll_fast")
def test_the_player_leaves_the_list_from_the_phone(phone: Any, live_server: Any) -> None:
    game = evening()
    nora = waitlist.game_waitlist_join(game=game, player_name="Nora Quinn", public=True)
    phone.goto(f"{live_server.url}/lists/{nora.code}/")
    assert "Nora Quinn" in _listed(game.pk)

    phone.get_by_role("button", name="Leave the list").click()

    phone.wait_for_selector("[data-off-list]")
    assert "Nora Quinn" not in _listed(game.pk)
    assert _listed(game.pk) == ["Lena", "Marco"]
    assert phone.locator("[data-leave]").count() == 0
