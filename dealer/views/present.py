"""The hand's snapshot laid out for the tablet: seats around the oval, the pots, the action bar,
the board entry, the showdown and the awards.

Every amount shown comes from the snapshot the services computed (`Hand.state`); this module
only arranges it (positions on the screen, labels, the order of the buttons). The half-pot
button, too, is the engine's (`half_pot_raise_to`).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field, fields
from datetime import datetime
from functools import cache
from operator import attrgetter
from typing import TYPE_CHECKING, NamedTuple, NotRequired, TypeAlias, TypedDict

from django.conf import settings
from django.template.loader import get_template, render_to_string
from django.utils.safestring import SafeString, mark_safe

from dealer.card_gate import CardSight
from dealer.cash.models import CashSeat
from dealer.codec import CardLedger, HandSnapshot, OutOfTurn, PlayerView
from dealer.engine.cards import RANKS, SUITS, DeckKind, deck
from dealer.engine.json_values import JsonObject, JsonValue
from dealer.hand_log import split_undone
from dealer.models import Hand, HandEvent
from tournaments.models import Entry, Table

if TYPE_CHECKING:  # the stubs' name for what a template engine hands back; no runtime class
    from django.template.backends.base import _EngineTemplate

Seated: TypeAlias = Entry | CashSeat  # a player seated now: a tournament entry or a cash seat

SUIT_SYMBOLS = {"s": "\u2660", "h": "\u2665", "d": "\u2666", "c": "\u2663"}
SUIT_NAMES = {"s": "spades", "h": "hearts", "d": "diamonds", "c": "clubs"}
RANK_TEXT = {"T": "10"}
RANK_NAMES = {"A": "Ace", "K": "King", "Q": "Queen", "J": "Jack", "T": "10"}
NEXT_STREET = {"preflop": "flop", "flop": "turn", "turn": "river"}
ACTION_WORDS = {
    "fold": "folds",
    "check": "checks",
    "call": "calls",
    "bet": "bets",
    "raise": "raises to",
    "all_in": "all-in",
    "deal_board": "Board",
    "deal_hole": "hole cards",
    "show": "shows",
    "muck": "mucks",
    "claim_board": "plays the board",
    "kill": "dead hand",
    "misdeal": "misdeal",
    "take_back_board": "board taken back",
    "run_twice": "run it twice (all agreed)",
}


# --- pieces rendered once ------------------------------------------------------------------

# A tap redraws the table and, when cards are due, the card picker: nine seat boxes and 52 cards,
# most of them as they were on the last tap. Each is rendered from its template once per
# distinct content and process, then reused; the key is everything the template reads.
_RENDERED: dict[tuple[str, Hashable], SafeString] = {}
_RENDERED_MAX = 20_000  # a bound on memory: some tens of thousands of small pieces


def rendered(template: str, key: Hashable, context: dict[str, object]) -> SafeString:
    """`template` (one of the tablet's, `templates/jinja2/`) rendered with `context`, which
    `key` (hashable) must describe entirely. With DEBUG every time, so that an edited template
    shows at once."""
    if settings.DEBUG:
        return mark_safe(render_to_string(template, context, using="jinja2"))
    piece = _RENDERED.get((template, key))
    if piece is None:
        if len(_RENDERED) >= _RENDERED_MAX:
            _RENDERED.clear()
        piece = mark_safe(_template(template).render(context))
        _RENDERED[(template, key)] = piece
    return piece


@cache
def _template(name: str) -> _EngineTemplate:
    """The compiled template (looking it up through the loaders cost as much as a seat box)."""
    return get_template(name, using="jinja2")


# --- cards -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CardView:
    code: str  # "As", or "??" for a card dealt but not entered

    @property
    def face(self) -> SafeString:
        """The card as the table shows it (`dealer/_card.html`), rendered once per card."""
        return rendered("dealer/_card.html", (self.code, False), {"card": self})

    @property
    def small_face(self) -> SafeString:
        """The card, small (a seat's cards, the showdown, the history)."""
        return rendered("dealer/_card.html", (self.code, True), {"card": self, "small": True})

    @property
    def known(self) -> bool:
        return self.code != "??"

    @property
    def rank(self) -> str:
        return RANK_TEXT.get(self.code[0], self.code[0]) if self.known else ""

    @property
    def suit(self) -> str:
        return self.code[1] if self.known else ""

    @property
    def symbol(self) -> str:
        return SUIT_SYMBOLS.get(self.suit, "")

    @property
    def label(self) -> str:
        if not self.known:
            return "card not entered"
        return f"{RANK_NAMES.get(self.code[0], self.code[0])} of {SUIT_NAMES[self.suit]}"

    @property
    def red(self) -> bool:
        return self.suit in ("h", "d")


def card_views(codes: Iterable[str] | None) -> list[CardView]:
    return [CardView(str(c)) for c in codes or ()]


@dataclass(frozen=True, slots=True)
class LedgerView:
    """The cards out of play, in the dealer's words, under the board (the engine's ledger)."""

    burned: int
    stub: int
    notes: tuple[str, ...]  # "Next burn: 7d (exposed)", "Out of play: 2h, back for the river"


def ledger_view(cards: CardLedger | None) -> LedgerView | None:
    if not cards:
        return None
    notes = []
    known = [code for code in cards.get("next_burn", ()) if code != "??"]
    if cards.get("next_burn"):
        shown = ", ".join(known) if known else "a card"
        notes.append(f"Next burn: {shown} (taken from a hand or named)")
    for item in cards.get("out", ()):
        notes.append(f"Out of play: {item['card']}, back into the stub for the {item['back']}")
    dead = cards.get("dead", ())
    if dead:
        notes.append(f"Out of play for the hand: {', '.join(dead)}")
    return LedgerView(burned=cards.get("burned", 0), stub=cards.get("stub", 0), notes=tuple(notes))


def deck_rows(cards: CardLedger | None, checked: Iterable[str] = ()) -> list[list[SafeString]]:
    """The card picker: one row per suit, aces first, of the game's deck as the engine's card
    ledger gives it (`cards`, the snapshot's ledger: `deck` and `out_of_play`, see
    `dealer.engine.ledger.card_choice`); the cards out of play disabled, the `checked` ones
    ticked. The picker decides nothing itself. Each card's checkbox comes rendered
    (`dealer/_pick.html`)."""
    kind = cards.get("deck", DeckKind.STANDARD) if cards else DeckKind.STANDARD
    in_deck = {str(card) for card in deck(DeckKind(kind))}
    out = set(cards.get("out_of_play", ())) if cards else set()
    ticked = set(checked)
    rows = []
    for suit in SUITS:
        row = []
        for rank in reversed(RANKS):
            code = rank + suit
            if code not in in_deck:
                continue  # Texas 6+ has no 2 to 5
            taken, on = code in out, code in ticked
            context = {"card": CardView(code), "taken": taken, "checked": on}
            row.append(rendered("dealer/_pick.html", (code, taken, on), context))
        rows.append(row)
    return rows


# --- seats around the oval -------------------------------------------------------------------


@cache
def seat_position(seat: int, seat_count: int) -> tuple[float, float, float, float]:
    """Where a seat and its bet go around the oval: (cx, cy) of the seat, from -1 to 1 across
    the room its box has (static/css/tablet.css puts the box's centre at that fraction of the
    way from the felt area's middle to its edge less half the box, so that no seat is ever cut,
    whatever the screen), and (x, y) of its bet in percent of the felt area.

    The dealer sits at the bottom middle; seat 1 is on the dealer's left and the seats go
    clockwise, evenly spaced as if the dealer took one place at the table."""
    angle = math.radians(90 + 360 * seat / (seat_count + 1))
    cos, sin = math.cos(angle), math.sin(angle)
    return (
        round(cos, 4),
        round(sin, 4),
        round(50 + 27 * cos, 2),
        round(50 + 22 * sin, 2),
    )


# A table seats 2 to 10 (MAX_SEAT in the serializers): static/css/seats.css places each of them.
SEAT_COUNTS = range(2, 11)


def seat_place(seat: int, seat_count: int) -> str:
    """The class suffix that places a seat and its bet (`seat-at-<place>`, `bet-at-<place>`)."""
    return f"{seat_count}-{seat}"


def seat_css() -> str:
    """static/css/seats.css: every seat's place around the oval as a class, so that the page
    carries no style attribute (the Content-Security-Policy allows no inline style)."""
    lines = [
        "/* Written by `manage.py seat_css` from dealer.views.present.seat_position: do not edit."
        " */"
    ]
    for count in SEAT_COUNTS:
        for seat in range(1, count + 1):
            cx, cy, bx, by = seat_position(seat, count)
            place = seat_place(seat, count)
            lines.append(f".seat-at-{place} {{ --cx: {cx}; --cy: {cy}; }}")
            lines.append(f".bet-at-{place} {{ --x: {bx}%; --y: {by}%; }}")
    return "\n".join(lines) + "\n"


class SeatTag(NamedTuple):
    """A seat's status tag: its text, its class (`tag--<kind>`), a test id where tests look."""

    text: str
    kind: str
    testid: str = ""


@dataclass(slots=True, kw_only=True)
class SeatView:
    seat: int
    x: float  # the seat's place around the oval, -1 to 1 (`seat_position`)
    y: float
    bet_x: float
    bet_y: float
    place: str  # its class in static/css/seats.css (`seat_place`)
    name: str = ""
    empty: bool = True
    in_hand: bool = False
    stack: int = 0
    bet: int = 0
    folded: bool = False
    all_in: bool = False
    to_act: bool = False
    button: bool = False
    small_blind: bool = False
    big_blind: bool = False
    shown: list[CardView] = field(default_factory=list)
    mucked: bool = False
    next_to_show: bool = False
    won: int = 0
    busted: bool = False
    away: bool = False  # a cash player sitting out
    joined: bool = False  # seated since the hand shown ended (a move, the final-table redraw)
    waits: str = ""  # why the next hand will not deal this player in (T 10-A), between hands
    moves: str = ""  # where this player moves when the hand in progress ends
    waiting: str = ""  # an action out of turn waiting for this player's turn (T 53-A)
    hand_shown: bool = False  # the tablet shows a hand (a seated player may not be in it)

    # The seat box is written on every tap: its classes and its tag are worked out here, once,
    # rather than by a dozen template conditions per seat.

    @property
    def shown_codes(self) -> tuple[str, ...]:
        return tuple(card.code for card in self.shown)

    @property
    def marks(self) -> list[tuple[str, str, str]]:
        """Position marks as (short text, class, title): the button D, SB and BB."""
        marks = []
        if self.button:
            marks.append(("D", "button", "Button"))
        if self.small_blind:
            marks.append(("SB", "blind", "Small blind"))
        if self.big_blind:
            marks.append(("BB", "blind", "Big blind"))
        return marks

    @property
    def box(self) -> SafeString:
        """The seat box and its bet (`dealer/_seat.html`), rendered once per distinct seat."""
        return rendered("dealer/_seat.html", _seat_key(self), {"s": self})

    @property
    def out(self) -> bool:
        """Greyed: seated but not in the hand shown, or waiting to be dealt in."""
        seated_out = self.hand_shown and not self.in_hand and not self.empty and not self.joined
        return seated_out or bool(self.waits)

    @property
    def css(self) -> str:
        """The seat box's state classes (tablet.css), each with its leading space."""
        flags = (
            (self.empty, " is-empty"),
            (self.folded, " is-folded"),
            (self.all_in, " is-all-in"),
            (self.to_act, " is-to-act"),
            (self.next_to_show, " is-next-to-show"),
            (self.won, " is-winner"),
            (self.busted, " is-busted"),
            (self.out, " is-out"),
        )
        return "".join(name for on, name in flags if on)

    @property
    def tag(self) -> SeatTag | None:
        """The seat's one status tag, the most telling first."""
        if self.won:
            return SeatTag(f"Wins {self.won:,}", "win")
        flags = (
            (self.busted, "Out", "out"),
            (self.to_act, "To act", "act"),
            (self.next_to_show, "Shows next", "act"),
            (self.all_in, "All-in", "allin"),
            (self.mucked, "Mucked", "fold"),
            (self.folded, "Folded", "fold"),
            (self.away, "Sitting out", "fold"),
        )
        for on, text, kind in flags:
            if on:
                return SeatTag(text, kind)
        if self.waiting:
            return SeatTag(f"Out of turn: {self.waiting}", "move", "out-of-turn")
        if self.waits:
            return SeatTag(self.waits[:1].upper() + self.waits[1:], "fold", "waits")
        if self.hand_shown and not self.in_hand and not self.joined:
            return SeatTag("Not dealt in", "fold")
        return None


# What a seat box shows (its key in `rendered`); the cards shown as a tuple, to be hashable.
_seat_key = attrgetter(*(f.name for f in fields(SeatView) if f.name != "shown"), "shown_codes")


def _declared_words(entry: OutOfTurn) -> str:
    """An action out of turn as the seat's tag says it ("raise to 600")."""
    action, amount = entry["action"], entry.get("amount")
    if action == "raise":
        return f"raise to {amount:,}"
    if action == "bet":
        return f"bet {amount:,}"
    return "all-in" if action == "all_in" else str(action)


def seat_views(
    table: Table, snapshot: HandSnapshot | None, entries: Sequence[Seated] = ()
) -> list[SeatView]:
    """Every seat of the table: the players of the hand from the snapshot, else the players
    seated now (before the first hand): tournament entries or cash seats, each with a seat, a
    player and chips."""
    seats: dict[int, SeatView] = {}
    for number in range(1, table.seat_count + 1):
        x, y, bx, by = seat_position(number, table.seat_count)
        seats[number] = SeatView(
            seat=number, x=x, y=y, bet_x=bx, bet_y=by, place=seat_place(number, table.seat_count)
        )
    if snapshot is None:
        for entry in entries:
            if entry.seat in seats:
                seated = seats[entry.seat]
                seated.name, seated.stack, seated.empty = entry.player.name, entry.chips, False
                seated.away = bool(getattr(entry, "away", False))
        for number, view in seats.items():
            view.button = number == table.button_seat
        return list(seats.values())
    won: dict[int, int] = {}
    for award in snapshot.get("awards") or ():
        for seat, share in zip(award["winners"], award["shares"], strict=False):
            won[seat] = won.get(seat, 0) + share
    over = snapshot.get("status") in (Hand.Status.COMPLETE, Hand.Status.VOID)
    waiting = {e["seat"]: _declared_words(e) for e in snapshot.get("out_of_turn") or ()}
    for player in snapshot["players"]:
        found = seats.get(player["seat"])
        if found is None:
            continue
        view = found
        view.name = player["name"]
        view.empty = False
        view.in_hand = True
        view.stack = player["stack"]
        view.bet = player["bet"]
        view.folded = player["folded"]
        view.all_in = player["all_in"] and not over
        view.shown = card_views(player.get("shown"))
        view.mucked = player.get("mucked", False)
        view.to_act = player["seat"] == snapshot.get("actor_seat")
        view.next_to_show = player["seat"] == snapshot.get("next_to_show")
        view.won = won.get(player["seat"], 0)
        view.busted = over and player["stack"] == 0
        view.waiting = waiting.get(player["seat"], "")
    for number, view in seats.items():
        view.button = number == snapshot.get("button_seat")
        view.small_blind = number == snapshot.get("small_blind_seat")
        view.big_blind = number == snapshot.get("big_blind_seat")
    if over:
        for view in seats.values():
            view.bet = 0
        if not table.is_cash:
            _seated_since(seats, entries)
    for entry in entries:  # seated now but not in the hand (a cash table between hands)
        sitting = None if entry.seat is None else seats.get(entry.seat)
        if sitting is not None and sitting.empty:
            sitting.name, sitting.stack, sitting.empty = entry.player.name, entry.chips, False
            sitting.away = bool(getattr(entry, "away", False))
    for view in seats.values():
        view.hand_shown = bool(snapshot)
    return list(seats.values())


def _seated_since(seats: dict[int, SeatView], entries: Sequence[Seated]) -> None:
    """Between tournament hands: each seat shows who sits there now. A player seated since the
    hand (moved in, or the final-table redraw) replaces the hand's player, a player who left is
    gone; a player the hand busted stays shown as out until someone takes the seat."""
    now = {entry.seat: entry for entry in entries}
    for number, view in seats.items():
        current = now.get(number)
        if current is not None and current.player.name == view.name:
            continue
        if current is None and (view.empty or view.busted):
            continue
        fresh = SeatView(
            seat=number, x=view.x, y=view.y, bet_x=view.bet_x, bet_y=view.bet_y, place=view.place
        )
        if current is not None:
            fresh.name, fresh.stack, fresh.empty = current.player.name, current.chips, False
            fresh.joined = True
        seats[number] = fresh


# --- pots, awards, showdown ------------------------------------------------------------------


def pot_label(index: int, count: int) -> str:
    if index == 0:
        return "Main pot" if count > 1 else "Pot"
    return f"Side pot {index}" if count > 2 else "Side pot"


class SeatName(TypedDict):
    seat: int
    name: str


class PotRow(TypedDict):
    label: str
    amount: int
    eligible: list[SeatName]


class WinnerRow(TypedDict):
    seat: int
    name: str
    share: int
    hand: str
    odd_chip: bool


class AwardRow(TypedDict):
    label: str
    amount: int
    rake: int
    winners: list[WinnerRow]
    split: bool
    odd_chips: list[WinnerRow]


class PushRow(TypedDict):
    pot: int
    label: str
    amount: int
    eligible: list[SeatName]
    pushed_to: list[SeatName] | None


class ShowdownRow(TypedDict):
    seat: int
    name: str
    status: str  # shown, mucked, next or waiting
    cards: list[CardView]
    open: bool


class ShowdownView(TypedDict):
    order: list[ShowdownRow]
    next_seat: int | None
    next_name: str


def names_by_seat(snapshot: HandSnapshot) -> dict[int, str]:
    return {p["seat"]: p["name"] for p in snapshot.get("players", ())}


def pot_views(snapshot: HandSnapshot) -> list[PotRow]:
    names = names_by_seat(snapshot)
    pots = snapshot.get("pots") or []
    return [
        {
            "label": pot_label(i, len(pots)),
            "amount": pot["amount"],
            "eligible": [{"seat": s, "name": names.get(s, "")} for s in pot["eligible_seats"]],
        }
        for i, pot in enumerate(pots)
        if pot["amount"] > 0
    ]


def award_views(snapshot: HandSnapshot) -> list[AwardRow]:
    """Each pot's winners with their shares and hands, the main pot last (the order they are
    pushed); the player given an odd chip is the one whose share is larger."""
    names = names_by_seat(snapshot)
    awards = snapshot.get("awards") or []
    count = max((a["pot"] for a in awards), default=0) + 1
    views: list[AwardRow] = []
    for award in awards:
        shares = list(award["shares"])
        smallest = min(shares) if shares else 0
        split = len(shares) > 1
        winners: list[WinnerRow] = [
            {
                "seat": seat,
                "name": names.get(seat, ""),
                "share": share,
                "hand": hand,
                "odd_chip": split and share > smallest,
            }
            for seat, share, hand in zip(award["winners"], shares, award["hands"], strict=False)
        ]
        views.append(
            {
                # Run it twice (RIT): each run's half of a pot is its own award.
                "label": pot_label(award["pot"], count)
                + (f", run {award['run']}" if award.get("run") else ""),
                "amount": award["amount"],
                # The house's take from this pot (RULES.md 6.5): dropped before the push.
                "rake": award.get("rake", 0),
                "winners": winners,
                "split": split,
                "odd_chips": [w for w in winners if w["odd_chip"]],
            }
        )
    return views


def push_views(snapshot: HandSnapshot) -> list[PushRow]:
    """Showdown by tap: each pot the dealer may push, with a button per player who can win it,
    or the players it went to once pushed (the engine's `push` list; empty when none is due)."""
    names = names_by_seat(snapshot)
    pots = snapshot.get("push") or []
    return [
        {
            "pot": pot["pot"],
            "label": pot_label(pot["pot"], len(pots)),
            "amount": pot["amount"],
            "eligible": [{"seat": s, "name": names.get(s, "")} for s in pot["eligible_seats"]],
            "pushed_to": None
            if pot["pushed_to"] is None
            else [{"seat": s, "name": names.get(s, "")} for s in pot["pushed_to"]],
        }
        for pot in pots
    ]


def best_hand_seats(pushes: list[PushRow]) -> list[SeatName]:
    """The players who may still take pots, for the "best hand takes every pot it is in" row:
    shown when more than one pot is left to push."""
    left = [p for p in pushes if p["pushed_to"] is None and len(p["eligible"]) > 1]
    if len(left) < 2:
        return []
    seen: dict[int, SeatName] = {}
    for pot in left:
        for player in pot["eligible"]:
            seen.setdefault(player["seat"], player)
    return sorted(seen.values(), key=lambda p: p["seat"])


def showdown_view(snapshot: HandSnapshot) -> ShowdownView | None:
    if snapshot.get("phase") != "showdown":
        return None
    by_seat = {p["seat"]: p for p in snapshot["players"]}
    order: list[ShowdownRow] = []
    for seat in snapshot.get("showdown_order") or ():
        player = by_seat[seat]
        if player.get("shown"):
            status = "shown"
        elif player.get("mucked"):
            status = "mucked"
        elif seat == snapshot.get("next_to_show"):
            status = "next"
        else:
            status = "waiting"
        order.append(
            {
                "seat": seat,
                "name": player["name"],
                "status": status,
                "cards": card_views(player.get("shown")),
                "open": status in ("next", "waiting"),
            }
        )
    next_seat = snapshot.get("next_to_show")
    return {
        "order": order,
        "next_seat": next_seat,
        "next_name": by_seat[next_seat]["name"] if next_seat in by_seat else "",
    }


# --- the action bar --------------------------------------------------------------------------


class SizeButton(TypedDict):
    label: str
    amount: int
    action: str  # the tap: "raise:600", "all_in"
    wide: NotRequired[bool]


class ActionBar(TypedDict):
    seat: int
    name: str
    stack: int
    bet: int
    can_fold: bool
    can_check: bool
    call: int
    call_all_in: bool
    kind: str
    word: str
    min: int | None
    max: int | None
    sizes: list[SizeButton]
    can_raise: bool
    typed: bool
    pot_limit: bool
    deal_unentered: NotRequired[bool]


def action_bar(snapshot: HandSnapshot) -> ActionBar | None:
    """The buttons for the player to act, with the engine's amounts (none it does not allow)."""
    legal = snapshot.get("legal")
    if not legal or snapshot.get("phase") != "betting":
        return None
    actor = next((p for p in snapshot["players"] if p["seat"] == legal["actor"]), None)
    if actor is None:
        return None
    low, top, pot = legal["min_raise_to"], legal["max_raise_to"], legal["pot_raise_to"]
    all_in_to = legal["all_in_to"]
    kind = "bet" if legal["is_bet"] else "raise"
    sizes: list[SizeButton] = []
    pot_limit = bool(snapshot.get("pot_limit"))
    if low is not None and top is not None:
        if low == top:
            if low == all_in_to:
                sizes.append({"label": "All-in", "amount": low, "action": "all_in", "wide": True})
            else:
                sizes.append({"label": "Only size", "amount": low, "action": f"{kind}:{low}"})
        else:
            sizes.append({"label": "Min", "amount": low, "action": f"{kind}:{low}"})
            half = legal.get("half_pot_raise_to")
            if half is not None:
                sizes.append({"label": "\u00bd Pot", "amount": half, "action": f"{kind}:{half}"})
            if pot is not None and pot > low:
                label = "POT" if pot_limit and pot == top else "Pot"
                if pot == all_in_to:
                    sizes.append({"label": f"{label} (all-in)", "amount": pot, "action": "all_in"})
                else:
                    sizes.append({"label": label, "amount": pot, "action": f"{kind}:{pot}"})
            if top == all_in_to and not any(s["action"] == "all_in" for s in sizes):
                sizes.append({"label": "All-in", "amount": top, "action": "all_in"})
            elif top != all_in_to and (pot is None or top > pot):
                sizes.append({"label": "Max", "amount": top, "action": f"{kind}:{top}"})
    return {
        "seat": actor["seat"],
        "name": actor["name"],
        "stack": actor["stack"],
        "bet": actor["bet"],
        "can_fold": legal["can_fold"],
        "can_check": legal["can_check"],
        "call": legal["call"],
        "call_all_in": legal["call"] > 0 and legal["call"] == actor["stack"],
        "kind": kind,
        "word": "Bet" if legal["is_bet"] else "Raise to",
        "min": low,
        "max": top,
        "sizes": sizes,
        "can_raise": low is not None,
        "typed": low is not None and top is not None and low != top,
        "pot_limit": pot_limit,
    }


def deal_bar(snapshot: HandSnapshot) -> ActionBar | None:
    """While a board deal is due: the action bar of the next street's first player, each tap
    saying the board was dealt without its cards (the engine's `legal_after_deal`)."""
    after = snapshot.get("legal_after_deal")
    if snapshot.get("phase") != "dealing" or not after:
        return None
    players: list[PlayerView] = [{**p, "bet": 0} for p in snapshot["players"]]  # new street: 0
    bar = action_bar({**snapshot, "phase": "betting", "legal": after, "players": players})
    return None if bar is None else {**bar, "deal_unentered": True}


# --- the log of the hand ---------------------------------------------------------------------


def _whole(value: JsonValue) -> int | None:
    return value if type(value) is int else None


def _listed(value: JsonValue) -> list[JsonValue]:
    return value if isinstance(value, list) else []


def _describe_action(action: JsonObject, seats: list[int], names: dict[int, str]) -> str:
    """One logged action (`dealer.codec.action_to_dict`) in words; a field of the wrong type
    is left out rather than failing the log."""
    kind = str(action.get("kind", ""))
    amount = _whole(action.get("amount"))
    if kind == "award":  # "Pot 1 pushed to seat 4 Ana": pots counted from 1, the main pot first
        indexes = [_whole(w) for w in _listed(action.get("winners"))]
        winners = [seats[w] for w in indexes if w is not None and 0 <= w < len(seats)]
        to = " and ".join(f"seat {s} {names.get(s, '')}".strip() for s in winners)
        if amount is None:  # the best hand's tap: every pot its winners are in
            numbers = " and ".join(str(s) for s in winners)
            who = f"seat {numbers} is" if len(winners) == 1 else f"seats {numbers} are all"
            return f"Every pot {who} in pushed to {to}"
        return f"Pot {amount + 1} pushed to {to}"
    word = ACTION_WORDS.get(kind, kind.replace("_", " "))
    who = ""
    player = _whole(action.get("player"))
    if player is not None and 0 <= player < len(seats):
        seat = seats[player]
        who = f"Seat {seat} {names.get(seat, '')}".strip()
    parts = [p for p in (who, word) if p]
    if amount is not None:
        parts.append(f"{amount:,}")
    cards = [str(c) for c in _listed(action.get("cards"))]
    if cards:
        parts.append(" ".join(CardView(c).rank + CardView(c).symbol or "?" for c in cards))
    if action.get("reason"):
        parts.append(f"({action['reason']})")
    return " ".join(parts)


class LogEntry(NamedTuple):
    """What the tablet's log shows of an event (read without the stored answer, a whole state)."""

    seq: int
    kind: str
    payload: JsonObject


def describe_event(event: LogEntry | HandEvent, hand: Hand) -> str:
    seats = [s["seat"] for s in hand.seats]
    names = {s["seat"]: s.get("name", "") for s in hand.seats}
    payload = event.payload or {}
    if event.kind == HandEvent.Kind.UNDO:
        return f"Undo: {payload.get('reason', '')}"
    if event.kind == HandEvent.Kind.REOPEN:
        return f"Reopened: {payload.get('reason', '')}"
    if event.kind == HandEvent.Kind.PROCEDURE:
        title = payload.get("title") or payload.get("trigger", "Procedure")
        return f"Procedure: {title}"
    actions = _listed(payload.get("actions")) or [payload.get("action") or {}]
    return "; ".join(_describe_action(a, seats, names) for a in actions if isinstance(a, dict))


class LogLine(TypedDict):
    seq: int
    text: str
    undo: bool
    cancelled: bool


class LogView(TypedDict):
    entries: list[LogLine]
    undoable: str | None


def log_line(event: LogEntry | HandEvent, hand: Hand, *, cancelled: bool = False) -> LogLine:
    """One line of the tablet's log: the whole log (`log_view`), or the line a tap just added,
    from the event the write returned (nothing read)."""
    return {
        "seq": event.seq,
        "text": describe_event(event, hand),
        "undo": event.kind == HandEvent.Kind.UNDO,
        "cancelled": cancelled,
    }


def log_view(hand: Hand | None, limit: int = 8, *, sight: CardSight) -> LogView:
    """The hand's latest entries (newest first), each marked if a later undo cancelled it, and
    the entry an undo would cancel now, as the viewer may see them (`dealer.card_gate`): for
    one who may not see the hole cards, the cards no player has shown read "??"."""
    if hand is None:
        return {"entries": [], "undoable": None}
    # Not the answers stored for resends (a whole state each), and no model instances.
    events = [
        LogEntry(seq, kind, sight.payload(payload))
        for seq, kind, payload in hand.events.order_by("seq").values_list("seq", "kind", "payload")
    ]
    # A reopening is no entry of the hand: an undo cancels the entry before it (as the services
    # replay the log).
    in_force, undone = split_undone(
        [event for event in events if event.kind != HandEvent.Kind.REOPEN],
        lambda event: event.kind == HandEvent.Kind.UNDO,
    )
    cancelled = {event.seq for event in undone}
    entries = [log_line(e, hand, cancelled=e.seq in cancelled) for e in reversed(events[-limit:])]
    undoable = describe_event(in_force[-1], hand) if in_force else None
    return {"entries": entries, "undoable": undoable}


# --- the table's hands -----------------------------------------------------------------------


class WonRow(TypedDict):
    seat: int
    name: str
    amount: int


class HandSummary(TypedDict):
    hand: Hand
    number: int
    status: str
    board: list[CardView]
    pot: int
    winners: list[WonRow]
    players: int
    ended_at: datetime | None
    started_at: datetime


def hand_summary(hand: Hand) -> HandSummary:
    """One line of the hand history: number, outcome, winners with what they won."""
    state: HandSnapshot | None = hand.state or None  # None: no state written yet
    names = names_by_seat(state) if state else {}
    awards = (state.get("awards") or []) if state else []
    winners: dict[int, int] = {}
    for award in awards:
        for seat, share in zip(award["winners"], award["shares"], strict=False):
            winners[seat] = winners.get(seat, 0) + share
    return {
        "hand": hand,
        "number": hand.number,
        "status": hand.status,
        "board": card_views(state.get("board") if state else None),
        "pot": sum(a["amount"] for a in awards) or (state.get("pot_total", 0) if state else 0),
        "winners": [
            {"seat": seat, "name": names.get(seat, ""), "amount": amount}
            for seat, amount in winners.items()
        ],
        "players": len((state.get("players") or ()) if state else ()),
        "ended_at": hand.ended_at,
        "started_at": hand.created_at,
    }
