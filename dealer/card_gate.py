"""What a caller may see of a hand's cards: the one gate every answer carrying a card asks.

`card_sight(user, table)` is the decision. Directors and the table's own dealer see every card
entered (they deal the hand: `tournaments.roles.may_deal`). Everyone else sees the board and the
cards shown at the table (a show at showdown, a card exposed face up, a card set aside), and
reads "??" for the rest: the hole cards dealt, a hand mucked or killed.

What each answer does with the decision:

- the hand's log (API events, the tablet's log): `CardSight.payload` walks every key of an
  event's payload, so a private entry is hidden wherever it sits (`action`, a procedure's
  `actions`, the `undone` list of an undo, ...);
- the hand's state (API, tablet): carries only public cards by construction (`dealer.codec`:
  the board, `shown`, the ledger's face-up cards), so it is the same for every caller and so is
  its ETag; the tablet's ETag includes whether the viewer may deal, so it is per audience;
- answers that depend on the hole cards and cannot be masked (procedure previews and their
  refusals, PHH and its exports): `check_hole_cards` refuses them (403) before anything is
  computed from the cards. A refusal to the table's dealer may name the cards they entered.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TypeVar, cast

from common.actors import Actor
from common.errors import FloorForbidden
from tournaments.models import Table
from tournaments.roles import may_see_hole_cards

# Entries whose cards are the players' own until shown: the hole cards dealt, a hand mucked or
# killed. A show, an exposed card and the board are public.
PRIVATE_CARD_KINDS = frozenset({"deal_hole", "muck", "kill"})
HIDDEN_CARD = "??"

PREVIEW_REFUSAL = "Procedures are previewed and carried out only at the tables you deal."

# An event's payload: JSON as stored, or a shape its reader knows (a test's literal).
Payload = TypeVar("Payload", bound=Mapping[str, object])


@dataclass(frozen=True, slots=True, kw_only=True)
class CardSight:
    """What one caller may see of one table's hands."""

    hole_cards: bool  # every card entered; else the public ones only

    @property
    def audience(self) -> str:
        """Who the answer is for, where a cached answer or its ETag must tell them apart."""
        return "table" if self.hole_cards else "public"

    def payload(self, payload: Payload) -> Payload:
        """An event's payload as this caller reads it."""
        return payload if self.hole_cards else hide_hole_cards(payload)


def card_sight(user: Actor, table: Table) -> CardSight:
    """What `user` may see of the cards of `table`'s hands: the one decision."""
    return CardSight(hole_cards=may_see_hole_cards(user, table))


def check_hole_cards(user: Actor, table: Table, refusal: str = PREVIEW_REFUSAL) -> CardSight:
    """Refuse (403) an answer that depends on the hole cards to a caller who may not see them,
    before anything is read of them; answers the caller's sight otherwise."""
    sight = card_sight(user, table)
    if not sight.hole_cards:
        raise FloorForbidden("permission_denied", refusal)
    return sight


def _hide(value: object) -> object:
    if isinstance(value, list):
        return [_hide(item) for item in value]
    if not isinstance(value, dict):
        return value
    hidden = {key: _hide(item) for key, item in value.items()}
    cards = hidden.get("cards")
    if hidden.get("kind") in PRIVATE_CARD_KINDS and isinstance(cards, list):
        hidden["cards"] = [HIDDEN_CARD] * len(cards)
    return hidden


def hide_hole_cards(payload: Payload) -> Payload:
    """A payload as someone who may not see the players' cards reads it: wherever an entry of a
    hole-card deal, a muck or a kill sits in it (at any depth, under any key), its cards read
    "??" (their number kept); the rest as it is. The payload given is not changed."""
    if not payload:
        return payload
    # The copy has the payload's keys and nesting; only card codes became "??" (still strings):
    # it has the payload's type.
    return cast("Payload", _hide(payload))
