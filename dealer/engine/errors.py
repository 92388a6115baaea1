"""The engine's exceptions: every refusal carries a stable code and a sentence for a dealer."""

from __future__ import annotations


class EngineError(Exception):
    """Base class: `code` is stable for clients, `detail` is what a dealer or director reads."""

    code: str = "engine_error"

    def __init__(self, detail: str, *, code: str | None = None) -> None:
        super().__init__(detail)
        self.detail = detail
        if code is not None:
            self.code = code

    def as_dict(self) -> dict[str, str]:
        return {"code": self.code, "detail": self.detail}


class RuleViolation(EngineError):  # noqa: N818 - the rulebook's word, used across the API
    """An action the rules of the hand do not allow at this moment (API answer: 409)."""

    code = "rule_violation"


class ConfigError(EngineError):
    """A rule option or a hand set-up that cannot be used (API answer: 400)."""

    code = "bad_config"
