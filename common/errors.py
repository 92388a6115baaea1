"""The refusals of both apps' services: a code for programs, a sentence for people, and a kind
(`dealer.engine.errors`) that the edge (`config.exceptions.status_of`) turns into an HTTP status.

Unlayered, below both the services and the read models: a service refuses a write with these,
and a read model a question it cannot answer (a payout table that cannot be used, the ICM deal
when the calculator is switched off). The kinds are the engine's, which imports nothing of the
project; so this module imports the engine's errors and nothing else of it.

Pages and the API catch `FloorError`; a service raises the class that says whose fault it is:
`FloorInvalid` (the request itself is wrong), `FloorNotFound`, `FloorForbidden`, or
`FloorConflict` (refused in the event's current state), which a plain `FloorError(code, detail)`
also builds, being the most common refusal.
"""

from __future__ import annotations

from dealer.engine.errors import Conflict, DomainError, Forbidden, Invalid, NotFound, kind_of


class FloorError(DomainError):
    """A service's refusal; `FloorError(code, detail)` is a `FloorConflict`. The edge
    (`config.exceptions.status_of`) gives it its status from its kind, and `answer_fields` are
    what the API's answer carries besides the code and the sentence."""

    def __new__(cls, *args: object, **kwargs: object) -> FloorError:
        return super().__new__(FloorConflict if cls is FloorError else cls, *args)

    def answer_fields(self) -> dict[str, object]:
        return {}


class FloorInvalid(FloorError, Invalid):  # noqa: N818 - the kind, as clients say it
    """The request itself is wrong: a missing name, an unknown setting, a bad amount."""


class FloorConflict(FloorError, Conflict):  # noqa: N818 - the kind, as clients say it
    """The request is refused in the event's current state: not running, finished, in a hand."""


class FloorNotFound(FloorError, NotFound):  # noqa: N818 - the kind, as clients say it
    """What the request names is not there: no such tournament, entry or hand."""


class FloorForbidden(FloorError, Forbidden):  # noqa: N818 - the kind, as clients say it
    """The user may not do this here (a dealer writing to another dealer's table)."""


_OF_KIND: dict[type[DomainError], type[FloorError]] = {
    Invalid: FloorInvalid,
    Conflict: FloorConflict,
    NotFound: FloorNotFound,
    Forbidden: FloorForbidden,
}


def floor_refusal(kind: type[DomainError], code: str, detail: str) -> FloorError:
    """A floor refusal of the given kind (`Invalid`, `Conflict`, ...)."""
    return _OF_KIND[kind](code, detail)


def refusal_like(error: DomainError, detail: str) -> FloorError:
    """The same refusal (code and kind) in other words, e.g. naming whose row it is."""
    return floor_refusal(kind_of(error), error.code, detail)


def from_value_error(
    error: ValueError | DomainError, *, kind: type[DomainError] | None = None
) -> FloorError:
    """Turn a pure module's error (ClockError, PayoutError, SeatingError, ...) into a FloorError,
    which pages catch, with its code and sentence. Its kind is the error's own unless the service
    knows better: a payout table that cannot be used is the request's fault when the director
    sends it (`Invalid`), the event's when it is stored (`Conflict`)."""
    code = getattr(error, "code", "invalid")
    detail = getattr(error, "detail", str(error))
    if kind is None:
        kind = kind_of(error) if isinstance(error, DomainError) else Invalid
    return floor_refusal(kind, str(code), str(detail))
