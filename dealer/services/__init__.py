"""The only code that writes hands: start, record, undo, procedures, reopen, end.

Every write carries the client's id and the hand version it was made against. A resent write
(same client id) gets its original answer; a write against an older version is refused with 409
and the current state. Writes to one hand are serialized by a row lock on the hand (PostgreSQL;
SQLite serializes whole transactions).

One module per step (issue 28): `writes` holds the one path every write takes (`hand_write`:
lock, writer, resend, version, apply, append, end), `sql` its two statements, `start`, `actions`,
`reopen` and `procedures` the writes themselves, `results` what a finished hand writes to the
tournament or the cash table. The read-only checks (who may write, why a hand may not start or be
reopened, a procedure's preview, the audits) are selectors: `dealer.selectors`.
"""

from dealer.services.actions import check_tap_seat, hand_record_action, hand_undo
from dealer.services.procedures import hand_run_procedure
from dealer.services.reopen import hand_reopen
from dealer.services.sql import NO_SUCH_HAND, HandNotAtTableError
from dealer.services.start import hand_start, stakes_record
from dealer.services.writes import Result, StaleTapError, StaleVersionError, check_writer

__all__ = [
    "NO_SUCH_HAND",
    "HandNotAtTableError",
    "Result",
    "StaleTapError",
    "StaleVersionError",
    "check_tap_seat",
    "check_writer",
    "hand_record_action",
    "hand_reopen",
    "hand_run_procedure",
    "hand_start",
    "hand_undo",
    "stakes_record",
]
