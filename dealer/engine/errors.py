"""Every refusal of the project, engine and floor alike: a stable code and a sentence for people.

One hierarchy, two axes:

- the KIND says whose fault the refusal is, and only the edge turns it into an HTTP status
  (`config.exceptions.status_of`): `Invalid` (the request itself is wrong), `Conflict` (the
  request is refused in the current state of the hand, table or event), `NotFound` (what it
  names does not exist), `Forbidden` (the user may not do it);
- the AREA says where it comes from: `EngineError` (`RuleViolation`, `ConfigError`, `PhhError`)
  here, `FloorError` in the floor's services, `ClockError`, `PayoutError`, `SeatingError`, ... in
  the floor's pure modules. Every error that can be raised derives from one area and one kind.

It lives in the engine because the engine may import nothing of the project, and everything may
import the engine.
"""

from __future__ import annotations


class DomainError(Exception):
    """Base class: `code` is stable for clients, `detail` is what a dealer or director reads."""

    code: str = "error"

    def __init__(self, code: str, detail: str) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail

    def as_dict(self) -> dict[str, str]:
        return {"code": self.code, "detail": self.detail}


# --- kinds: the edge maps each to one HTTP status -------------------------------------------


class Invalid(DomainError):  # noqa: N818 - the kind, as the edge and clients say it
    """The request itself is wrong: a value out of range, an unknown option, a missing name."""


class Conflict(DomainError):  # noqa: N818 - the kind, as the edge and clients say it
    """The request is refused in the current state: the hand is over, the clock is paused."""


class NotFound(DomainError):  # noqa: N818 - the kind, as the edge and clients say it
    """What the request names does not exist (or no longer does)."""


class Forbidden(DomainError):  # noqa: N818 - the kind, as the edge and clients say it
    """The user may not do this (a dealer writing to another dealer's table)."""


KINDS: tuple[type[DomainError], ...] = (Invalid, Conflict, NotFound, Forbidden)
"""Every kind; each error that is raised is an instance of exactly one of them."""


def kind_of(error: DomainError) -> type[DomainError]:
    """The kind of an error (`Invalid`, `Conflict`, ...); `TypeError` for an area base raised
    bare, which is a bug: raise a concrete error instead."""
    for kind in KINDS:
        if isinstance(error, kind):
            return kind
    raise TypeError(f"{type(error).__name__} has no kind: raise Invalid, Conflict, ... instead.")


# --- the engine's area -----------------------------------------------------------------------


class EngineError(DomainError):
    """The engine's refusals. Its constructor takes the sentence first, the code as a keyword."""

    code: str = "engine_error"

    def __init__(self, detail: str, *, code: str | None = None) -> None:
        super().__init__(self.code if code is None else code, detail)


class RuleViolation(EngineError, Conflict):  # noqa: N818 - the rulebook's word, used across the API
    """An action the rules of the hand do not allow at this moment."""

    code = "rule_violation"


class ConfigError(EngineError, Invalid):
    """A rule option or a hand set-up that cannot be used."""

    code = "bad_config"
