"""A hand's state as plain JSON values, and back: what the server stores with a hand so that the
next write need not replay the log (`dealer/state_cache.py`).

Plain data on purpose. The stored value comes back from the database, which is not the engine's
to trust: reading it builds only the engine's own values (cards, actions, rules, the set-up and
the state) from numbers, strings, lists and dicts, checking the type of every one, so a value
that was tampered with or written by other code can at worst be refused (`SnapshotError`), never
run. The round trip is exact: `state_from_json(state_to_json(s)) == s`.

Cards are written as PHH writes them, one string per group ("AsKd", "??" for an unknown card),
rule options as their strings, an action without the fields it does not use. The layout follows
the engine's dataclasses field by field; a change to them is a change to the engine's code, and
the cache ignores states stored by other code (its fingerprint of the engine). Reading is on
every write's path (docs/performance.md), hence the checks on whole lists at once.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import fields
from enum import StrEnum
from typing import Any, TypeVar

from dealer.engine.actions import Action, Kind
from dealer.engine.cards import UNKNOWN, Card, DeckKind, deck
from dealer.engine.errors import ConfigError, EngineError, Invalid
from dealer.engine.json_values import JsonObject
from dealer.engine.rules import OPTIONS, Rules
from dealer.engine.setup import HandSetup, PlayerSetup
from dealer.engine.state import Award, HandState, OutOfTurn, Phase

__all__ = ["SnapshotError", "state_from_json", "state_to_json"]

T = TypeVar("T")
E = TypeVar("E", bound=StrEnum)


class SnapshotError(EngineError, Invalid):
    """A stored state that is not one this module writes: the caller replays the log instead."""

    code = "bad_snapshot"


_RULE_NAMES = tuple(f.name for f in fields(Rules))


# --- writing ---------------------------------------------------------------------------------


def _text(cards: tuple[Card | None, ...]) -> str:
    return "".join(UNKNOWN if card is None else str(card) for card in cards)


def _maybe_text(cards: tuple[Card | None, ...] | None) -> str | None:
    return None if cards is None else _text(cards)


def _rules_to_json(rules: Rules) -> JsonObject:
    # Not `Rules.as_dict`: `dataclasses.asdict` copies deeply, and costs most of a write here.
    values = {name: getattr(rules, name) for name in _RULE_NAMES}
    return {name: v.value if isinstance(v, StrEnum) else v for name, v in values.items()}


def action_to_json(action: Action, *, card_list: bool = False) -> JsonObject:
    """An action as JSON, a field left out when it is not used. The snapshot writes its cards as
    one text ("AsKd", `??` for an unknown card); `card_list` writes them as a list
    (["As", "Kd"]), as the event log and the API do (`dealer.codec`)."""
    data: JsonObject = {"kind": action.kind.value}
    if action.player is not None:
        data["player"] = action.player
    if action.amount is not None:
        data["amount"] = action.amount
    if action.cards:
        if card_list:
            data["cards"] = [UNKNOWN if card is None else str(card) for card in action.cards]
        else:
            data["cards"] = _text(action.cards)
    if action.reason:
        data["reason"] = action.reason
    if action.declared is not None:
        data["declared"] = action.declared.value
    if action.winners:
        data["winners"] = list(action.winners)
    return data


def _setup_to_json(setup: HandSetup) -> JsonObject:
    return {
        "rules": _rules_to_json(setup.rules),
        "players": [
            {
                "stack": p.stack,
                "seat": p.seat,
                "name": p.name,
                "blind": p.blind,
                "dead": p.dead,
                "ante": p.ante,
                "hole": _maybe_text(p.hole),
            }
            for p in setup.players
        ],
        "small_blind": setup.small_blind,
        "big_blind": setup.big_blind,
        "small_bet": setup.small_bet,
        "unit": setup.unit,
        "button_index": setup.button_index,
        "bring_in_index": setup.bring_in_index,
    }


def state_to_json(state: HandState) -> JsonObject:
    """The state as JSON values (dicts, lists, strings, integers, booleans and nulls)."""
    return {
        "setup": _setup_to_json(state.setup),
        "phase": state.phase.value,
        "street": state.street,
        "stacks": list(state.stacks),
        "bets": list(state.bets),
        "contributed": list(state.contributed),
        "folded": list(state.folded),
        "dead": state.dead,
        "high": state.high,
        "full_level": state.full_level,
        "last_full_raise": state.last_full_raise,
        "raise_count": state.raise_count,
        "capped": state.capped,
        "acted": list(state.acted),
        "actor": state.actor,
        "aggressor": state.aggressor,
        "river_aggressor": state.river_aggressor,
        "pl_preflop_extra": state.pl_preflop_extra,
        "board": _text(state.board),
        "holes": [_maybe_text(h) for h in state.holes],
        "shown": [_maybe_text(s) for s in state.shown],
        "mucked": list(state.mucked),
        "claims": list(state.claims),
        "turn_actions": state.turn_actions,
        "chip_actions": state.chip_actions,
        "awards": [
            {
                "pot": a.pot,
                "amount": a.amount,
                "winners": list(a.winners),
                "shares": list(a.shares),
                "hands": list(a.hands),
                "rake": a.rake,
                **({"run": a.run} if a.run else {}),
            }
            for a in state.awards
        ],
        "log": [action_to_json(a) for a in state.log],
        "burns": _text(state.burns),
        "next_burn": _maybe_text(state.next_burn),
        "aside": [[_text((card,)), back] for card, back in state.aside],
        "skip_burn": state.skip_burn,
        "rake": state.rake,
        # The promotional drop's part of the rake: a state stored without it had none.
        **({"drop": state.drop} if state.drop else {}),
        # Run it twice only (RIT): a state stored without them was run once.
        **(
            {"runs": state.runs, "common": state.common, "board2": _text(state.board2)}
            if state.runs != 1
            else {}
        ),
        # Actions out of turn waiting (T 53-A): a state stored without them has none.
        **(
            {
                "pending": [
                    {"action": action_to_json(e.action), "facing": e.facing} for e in state.pending
                ]
            }
            if state.pending
            else {}
        ),
    }


# --- reading: every value checked for its type before it is used ------------------------------


def _refuse(what: str) -> SnapshotError:
    return SnapshotError(f"The stored hand state is not usable ({what}): the log is replayed.")


def _int(value: object) -> int:
    if type(value) is not int:  # not a bool, a float or a string of digits
        raise _refuse(f"{value!r:.40} is not a whole number")
    return value


def _maybe_int(value: object) -> int | None:
    return None if value is None else _int(value)


def _bool(value: object) -> bool:
    if type(value) is not bool:
        raise _refuse(f"{value!r:.40} is not true or false")
    return value


def _str(value: object) -> str:
    if type(value) is not str:
        raise _refuse(f"{value!r:.40} is not text")
    return value


def _all(kind: type[T]) -> Callable[[object], tuple[T, ...]]:
    """A reader of a list whose items are all of exactly this type."""
    only = frozenset({kind})

    def read(value: object) -> tuple[T, ...]:
        if type(value) is not list or not only.issuperset(map(type, value)):
            raise _refuse(f"{value!r:.40} is not a list of {kind.__name__}")
        return tuple(value)

    return read


_ints, _bools, _strs = _all(int), _all(bool), _all(str)


def _each(value: object, read: Callable[[object], T]) -> tuple[T, ...]:
    if type(value) is not list:
        raise _refuse(f"{type(value).__name__} is not a list")
    return tuple(read(item) for item in value)


def _fields(
    value: object, required: frozenset[str], optional: frozenset[str] = frozenset()
) -> dict[str, object]:
    if type(value) is not dict:
        raise _refuse(f"{type(value).__name__} is not an object")
    keys = value.keys()
    if not (required <= keys and keys <= required | optional):
        raise _refuse(f"fields {sorted(map(str, keys))!s:.200}")
    return value


_KNOWN: dict[str, Card] = {str(card): card for card in deck(DeckKind.STANDARD)}
_SOME: dict[str, Card | None] = {**_KNOWN, UNKNOWN: None}


def _card_reader(by_text: Mapping[str, T]) -> Callable[[object], tuple[T, ...]]:
    def read(value: object) -> tuple[T, ...]:
        if type(value) is str and not len(value) % 2:
            try:
                return tuple(by_text[value[i : i + 2]] for i in range(0, len(value), 2))
            except KeyError:
                pass
        raise _refuse(f"{value!r:.40} is not cards")

    return read


_known_cards, _some_cards = _card_reader(_KNOWN), _card_reader(_SOME)


def _maybe_known_cards(value: object) -> tuple[Card, ...] | None:
    return None if value is None else _known_cards(value)


def _maybe_some_cards(value: object) -> tuple[Card | None, ...] | None:
    return None if value is None else _some_cards(value)


def _enum(enum: type[E]) -> Callable[[object], E]:
    members = {member.value: member for member in enum}

    def read(value: object) -> E:
        member = members.get(value) if type(value) is str else None
        if member is None:
            raise _refuse(f"{value!r:.40} is not a {enum.__name__}")
        return member

    return read


_kind, _phase = _enum(Kind), _enum(Phase)
_ACTION_KEYS = frozenset({"kind", "player", "amount", "cards", "reason", "declared", "winners"})


def _action(value: object) -> Action:
    # The log is most of a state: this reader does the checks of `_fields` and the others inline.
    if type(value) is not dict or not value.keys() <= _ACTION_KEYS:
        raise _refuse(f"{value!r:.40} is not an action")
    # A field is left out when it is not used (None, no cards, no reason), never written empty.
    return Action(
        kind=_kind(value.get("kind")),
        player=_int(value["player"]) if "player" in value else None,
        amount=_int(value["amount"]) if "amount" in value else None,
        cards=_some_cards(value["cards"]) if "cards" in value else (),
        reason=_str(value["reason"]) if "reason" in value else "",
        declared=_kind(value["declared"]) if "declared" in value else None,
        winners=_ints(value["winners"]) if "winners" in value else (),
    )


# Any: the values read go to `Rules(**...)`, each to its own field's type (a member, a
# boolean, a number), which one return type cannot say.
def _rule_reader(name: str) -> Callable[[object], Any]:
    if name in OPTIONS:
        return _enum(OPTIONS[name])
    default = getattr(Rules(), name)
    return _bool if isinstance(default, bool) else _int if isinstance(default, int) else _str


_RULE_READERS = {name: _rule_reader(name) for name in _RULE_NAMES}
_RULE_KEYS = frozenset(_RULE_NAMES)


def _rules(value: object) -> Rules:
    data = _fields(value, _RULE_KEYS)
    return Rules(**{name: read(data[name]) for name, read in _RULE_READERS.items()})


_PLAYER_KEYS = frozenset({"stack", "seat", "name", "blind", "dead", "ante", "hole"})


def _player(value: object) -> PlayerSetup:
    data = _fields(value, _PLAYER_KEYS)
    return PlayerSetup(
        stack=_int(data["stack"]),
        seat=_int(data["seat"]),
        name=_str(data["name"]),
        blind=_int(data["blind"]),
        dead=_int(data["dead"]),
        ante=_int(data["ante"]),
        hole=_maybe_known_cards(data["hole"]),
    )


_SETUP_KEYS = frozenset(
    {"rules", "players", "small_blind", "big_blind", "small_bet", "unit"}
    | {"button_index", "bring_in_index"}
)


def _setup(value: object) -> HandSetup:
    data = _fields(value, _SETUP_KEYS)
    rules, players = _rules(data["rules"]), _each(data["players"], _player)
    small_blind, big_blind = _int(data["small_blind"]), _int(data["big_blind"])
    small_bet, unit = _int(data["small_bet"]), _int(data["unit"])
    button_index, bring_in_index = _maybe_int(data["button_index"]), _int(data["bring_in_index"])
    try:
        return HandSetup(
            rules=rules,
            players=players,
            small_blind=small_blind,
            big_blind=big_blind,
            small_bet=small_bet,
            unit=unit,
            button_index=button_index,
            bring_in_index=bring_in_index,
        )
    except ConfigError as error:  # the set-up's own checks: player count, blinds, stacks
        raise _refuse(error.detail) from error


_AWARD_KEYS = frozenset({"pot", "amount", "winners", "shares", "hands", "rake"})


def _award(value: object) -> Award:
    data = _fields(value, _AWARD_KEYS, frozenset({"run"}))
    return Award(
        pot=_int(data["pot"]),
        amount=_int(data["amount"]),
        winners=_ints(data["winners"]),
        shares=_ints(data["shares"]),
        hands=_strs(data["hands"]),
        rake=_int(data["rake"]),
        run=_int(data.get("run", 0)),
    )


_STATE_KEYS = frozenset(
    {"setup", "phase", "street", "stacks", "bets", "contributed", "folded", "dead", "high"}
    | {"full_level", "last_full_raise", "raise_count", "capped", "acted", "actor", "aggressor"}
    | {"river_aggressor", "pl_preflop_extra", "board", "holes", "shown", "mucked", "claims"}
    | {"turn_actions", "chip_actions", "awards", "log"}
    | {"burns", "next_burn", "aside", "skip_burn", "rake"}
)


def _per_player(values: tuple[T, ...], name: str, count: int) -> tuple[T, ...]:
    if len(values) != count:
        raise _refuse(f"{len(values)} {name} for {count} players")
    return values


def _player_index(value: object, count: int) -> int | None:
    index = _maybe_int(value)
    if index is not None and not 0 <= index < count:
        raise _refuse(f"no player {index}")
    return index


def state_from_json(data: object) -> HandState:
    """The state that `state_to_json` wrote, from the JSON values read back; `SnapshotError`
    for anything else (a missing or unknown field, a value of the wrong type, a per-player list
    of the wrong length)."""
    f = _fields(data, _STATE_KEYS, frozenset({"runs", "common", "board2", "pending", "drop"}))
    setup = _setup(f["setup"])
    n = len(setup.players)
    street, board = _int(f["street"]), _some_cards(f["board"])
    if not 0 <= street <= 3 or len(board) > 5:
        raise _refuse(f"street {street} with {len(board)} board cards")
    return HandState(
        setup=setup,
        phase=_phase(f["phase"]),
        street=street,
        stacks=_per_player(_ints(f["stacks"]), "stacks", n),
        bets=_per_player(_ints(f["bets"]), "bets", n),
        contributed=_per_player(_ints(f["contributed"]), "contributions", n),
        folded=_per_player(_bools(f["folded"]), "folds", n),
        dead=_int(f["dead"]),
        high=_int(f["high"]),
        full_level=_int(f["full_level"]),
        last_full_raise=_int(f["last_full_raise"]),
        raise_count=_int(f["raise_count"]),
        capped=_bool(f["capped"]),
        acted=_per_player(_ints(f["acted"]), "bet levels acted at", n),
        actor=_player_index(f["actor"], n),
        aggressor=_player_index(f["aggressor"], n),
        river_aggressor=_player_index(f["river_aggressor"], n),
        pl_preflop_extra=_int(f["pl_preflop_extra"]),
        board=board,
        holes=_per_player(_each(f["holes"], _maybe_some_cards), "hole cards", n),
        shown=_per_player(_each(f["shown"], _maybe_known_cards), "hands shown", n),
        mucked=_per_player(_bools(f["mucked"]), "mucks", n),
        claims=_per_player(_bools(f["claims"]), "claims", n),
        turn_actions=_int(f["turn_actions"]),
        chip_actions=_int(f["chip_actions"]),
        awards=_each(f["awards"], _award),
        log=_each(f["log"], _action),
        burns=_some_cards(f["burns"]),
        next_burn=_maybe_some_cards(f["next_burn"]),
        aside=_each(f["aside"], _aside_entry),
        skip_burn=_street(f["skip_burn"]),
        rake=_int(f["rake"]),
        drop=_int(f.get("drop", 0)),
        runs=_int(f.get("runs", 1)),
        common=_int(f.get("common", 0)),
        board2=_some_cards(f.get("board2", "")),
        pending=_each(f.get("pending", []), _pending_entry),
    )


def _pending_entry(value: object) -> OutOfTurn:
    f = _fields(value, frozenset({"action", "facing"}))
    action = _action(f["action"])
    if action.player is None:
        raise _refuse("an action out of turn without its player")
    return OutOfTurn(action=action, facing=_int(f["facing"]))


def _aside_entry(value: object) -> tuple[Card | None, int | None]:
    if type(value) is not list or len(value) != 2:
        raise _refuse(f"{value!r:.40} is not a card set aside")
    cards = _some_cards(value[0])
    back = _maybe_int(value[1])
    if len(cards) != 1 or (back is not None and not 1 <= back <= 3):
        raise _refuse(f"{value!r:.40} is not a card set aside")
    return cards[0], back


def _street(value: object) -> int:
    street = _int(value)
    if not 0 <= street <= 3:
        raise _refuse(f"street {street}")
    return street
