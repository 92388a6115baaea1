"""The floor's own refusals, beside the family every service raises (`common.errors`)."""

from __future__ import annotations

from common.errors import FloorConflict


class LikelySamePlayerError(FloorConflict):
    """Registration asks before creating a second player whose name folds to a known one's
    ("Jose Nunez" next to "José Núñez"): `candidates` are the known players (id, name, number),
    which the API answers with the refusal and the desk offers to register."""

    candidates: list[dict[str, object]] = []  # noqa: RUF012 - replaced per instance, never mutated

    def __init__(self, code: str, detail: str, *, candidates: list[dict[str, object]]) -> None:
        super().__init__(code, detail)
        self.candidates = candidates

    def answer_fields(self) -> dict[str, object]:
        return {"candidates": self.candidates}
