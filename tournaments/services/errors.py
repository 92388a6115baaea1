"""The refusal every floor service raises: a code for programs, a sentence for people."""

from __future__ import annotations


class FloorError(Exception):
    """`status` is the HTTP answer: 409 when the request conflicts with the event's state, 400
    when the request itself is wrong, 404 when what it names does not exist."""

    def __init__(self, code: str, detail: str, *, status: int = 409) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail
        self.status = status

    def as_dict(self) -> dict[str, str]:
        return {"code": self.code, "detail": self.detail}


def from_value_error(error: ValueError, *, status: int = 400) -> FloorError:
    """Turn a pure module's error (ClockError, PayoutError, SeatingError, ...) into a FloorError."""
    code = getattr(error, "code", "invalid")
    detail = getattr(error, "detail", str(error))
    return FloorError(str(code), str(detail), status=status)
