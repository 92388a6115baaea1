"""One error hierarchy; the HTTP status is chosen at the edge, by the error's kind (issue 11).

Every domain error (engine, floor services, the floor's pure modules) derives from one kind:
`Invalid` 400, `Forbidden` 403, `NotFound` 404, `Conflict` 409. The API's exception handler and
the pages' helper (`config.exceptions.status_of`) read the same table, and no domain error
carries a status of its own.
"""

from __future__ import annotations

import importlib
import pkgutil
from types import SimpleNamespace

import pytest

import dealer
import tournaments
from common.errors import (
    FloorConflict,
    FloorError,
    FloorForbidden,
    FloorInvalid,
    FloorNotFound,
    from_value_error,
    refusal_like,
)
from config.exceptions import STATUS_OF_KIND, floor_exception_handler, status_of
from dealer.engine.cards import CardError
from dealer.engine.errors import (
    KINDS,
    ConfigError,
    Conflict,
    DomainError,
    EngineError,
    Forbidden,
    Invalid,
    NotFound,
    RuleViolation,
    kind_of,
)
from dealer.engine.phh.history import PhhError
from dealer.services import StaleVersionError
from tournaments.clock import ClockError, ScheduleError
from tournaments.icm import IcmError
from tournaments.payouts import PayoutError
from tournaments.seating import SeatingError
from tournaments.services.counts import CountsRefusedError
from tournaments.services.form_tokens import FormSentTwiceError

# Classes that group errors by area and are never raised as they are (`FloorError(code, detail)`
# builds a `FloorConflict`; `CountsRefusedError(rows)` the subclass of its first row's kind).
AREA_BASES = {DomainError, EngineError, FloorError, CountsRefusedError, *KINDS}

# Kept until the remaining callers move: dealer/views/tablet.py reads `FloorError.status`.
STATUS_SHIMS = {FloorError}


def _import_everything() -> None:
    for package in (dealer, tournaments):
        for module in pkgutil.walk_packages(package.__path__, f"{package.__name__}."):
            if ".migrations" not in module.name and not module.name.endswith("__main__"):
                importlib.import_module(module.name)


def _subclasses(root: type) -> set[type]:
    found: set[type] = set()
    todo = [root]
    while todo:
        for sub in todo.pop().__subclasses__():
            if sub not in found:
                found.add(sub)
                todo.append(sub)
    return found


_import_everything()
DOMAIN_ERRORS = sorted(_subclasses(DomainError), key=lambda cls: cls.__qualname__)
RAISED = [cls for cls in DOMAIN_ERRORS if cls not in AREA_BASES]


def _instance(cls: type[DomainError]) -> DomainError:
    """An instance with a code and a sentence, whatever the class's constructor takes."""
    error = BaseException.__new__(cls)
    error.code, error.detail = "some_code", "A sentence."
    if issubclass(cls, StaleVersionError):
        error.hand = SimpleNamespace(state={"hand": 1})  # type: ignore[attr-defined]
    return error


def test_every_domain_error_that_is_raised_has_exactly_one_kind() -> None:
    assert len(RAISED) > 20  # the walk found the errors of every area
    without = [cls.__qualname__ for cls in RAISED if sum(issubclass(cls, k) for k in KINDS) != 1]
    assert not without, f"derive each from exactly one of {[k.__name__ for k in KINDS]}: {without}"


@pytest.mark.parametrize("cls", RAISED, ids=lambda cls: cls.__qualname__)
def test_the_api_and_the_pages_give_a_domain_error_the_same_status(cls) -> None:
    error = _instance(cls)
    response = floor_exception_handler(error, {})
    assert response is not None
    assert response.status_code == status_of(error) == STATUS_OF_KIND[kind_of(error)]
    assert (response.data["code"], response.data["detail"]) == ("some_code", "A sentence.")


@pytest.mark.parametrize("cls", DOMAIN_ERRORS, ids=lambda cls: cls.__qualname__)
def test_no_domain_error_carries_a_status(cls) -> None:
    carriers = [
        klass.__qualname__
        for klass in cls.__mro__
        if "status" in vars(klass) and klass not in STATUS_SHIMS
    ]
    assert not carriers, "the edge chooses the status (config.exceptions.status_of)"


@pytest.mark.parametrize(
    ("error", "status"),
    [
        (ConfigError("Unknown rule option 'x'.", code="unknown_option"), 400),
        (RuleViolation("This hand is over: start the next hand.", code="hand_over"), 409),
        (PhhError("Not a PHH file.", code="bad_toml"), 400),
        (CardError("'Zz' is not a card."), 400),
        (SeatingError("No seats.", code="no_seats"), 400),
        (PayoutError("bad_percentages", "The percentages add up to 90, not 100."), 400),
        (IcmError("no_players", "A deal needs at least one player."), 400),
        (ClockError("not_running", "The clock is not running, so it cannot be paused."), 409),
        (ScheduleError("empty_schedule", "The schedule has no levels."), 409),
        (FloorError("not_running", "A deal is made while the tournament is running."), 409),
        (FloorInvalid("name_required", "Enter the player's name."), 400),
        (FloorNotFound("not_found", "There is no such entry."), 404),
        (FloorForbidden("permission_denied", "Only a director may."), 403),
        (FormSentTwiceError(), 409),
    ],
    ids=lambda value: type(value).__name__ if isinstance(value, Exception) else str(value),
)
def test_each_area_keeps_the_status_it_had(error, status) -> None:
    assert status_of(error) == status


def test_kinds_map_to_one_status_each() -> None:
    expected = {Invalid: 400, Forbidden: 403, NotFound: 404, Conflict: 409}
    assert expected == STATUS_OF_KIND


def test_a_plain_floor_error_is_a_conflict() -> None:
    error = FloorError("tournament_finished", "The tournament is finished already.")
    assert isinstance(error, FloorConflict)
    assert (error.code, error.detail, str(error)) == (
        "tournament_finished",
        "The tournament is finished already.",
        "The tournament is finished already.",
    )


def test_a_bare_floor_error_is_a_conflict_and_takes_no_status() -> None:
    error = FloorError("code", "A sentence.")
    assert type(error) is FloorConflict
    assert status_of(error) == 409
    with pytest.raises(TypeError):
        FloorError("code", "A sentence.", status=400)


def test_a_pure_modules_error_keeps_its_code_sentence_and_kind_unless_the_service_says() -> None:
    payout = PayoutError("bad_percentages", "The percentages add up to 90, not 100.")
    sent = from_value_error(payout)
    stored = from_value_error(payout, kind=Conflict)
    assert (type(sent), type(stored)) == (FloorInvalid, FloorConflict)
    assert sent.as_dict() == stored.as_dict() == payout.as_dict()
    assert type(from_value_error(ValueError("odd"))) is FloorInvalid
    seating = from_value_error(SeatingError("There is no open seat.", code="no_open_seat"))
    assert (type(seating), seating.code) == (FloorInvalid, "no_open_seat")


def test_the_pure_modules_errors_are_still_value_errors() -> None:
    """Services catch the pure modules' refusals as ValueError."""
    for cls in (ClockError, ScheduleError, PayoutError, IcmError, CardError):
        assert issubclass(cls, ValueError)


def test_a_count_sheet_refusal_takes_the_kind_of_its_first_row() -> None:
    bad = FloorInvalid("bad_chips", "A playing entry has at least one chip.")
    busy = FloorError("in_hand", "Ann is in a hand.")
    refused = CountsRefusedError({1: bad, 2: busy})
    assert isinstance(refused, CountsRefusedError)
    assert (status_of(refused), refused.code) == (400, "bad_chips")
    assert refused.detail == "A playing entry has at least one chip. Ann is in a hand."
    assert status_of(CountsRefusedError({2: busy, 1: bad})) == 409
    assert status_of(refusal_like(bad, "Ann: no chips.")) == 400


def test_an_error_of_no_kind_is_a_bug_not_a_status() -> None:
    with pytest.raises(TypeError):
        status_of(DomainError("code", "A sentence."))
