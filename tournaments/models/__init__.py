"""The tournament floor: schedules, tournaments, players and entries, tables and seats, audit log.

Models hold fields, constraints and small derived properties only; every write goes through
`tournaments.services`. Chips are integers, money is Decimal.

One module per domain (issue 28); every model is importable from `tournaments.models`.
"""

from tournaments.models.audit import AuditEvent, Device
from tournaments.models.dealers import DealerDown, DealerShift, RotationPlan
from tournaments.models.entries import ChipMove, Entry, Knockout, Player
from tournaments.models.events import Series, Tournament, TournamentLevel
from tournaments.models.once import FormToken
from tournaments.models.screens import Screen
from tournaments.models.structure import BlindLevel, BlindSchedule, LevelFields
from tournaments.models.tables import ButtonDraw, Table

__all__ = [
    "AuditEvent",
    "BlindLevel",
    "BlindSchedule",
    "ButtonDraw",
    "ChipMove",
    "DealerDown",
    "DealerShift",
    "Device",
    "Entry",
    "FormToken",
    "Knockout",
    "LevelFields",
    "Player",
    "RotationPlan",
    "Screen",
    "Series",
    "Table",
    "Tournament",
    "TournamentLevel",
]
