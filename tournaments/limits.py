"""The bounds of what the floor accepts, one table for the pages' forms and the API alike (a
setting's bounds once differed: 100 entries and level 200 on the form, 32,767 in the API). A
value outside them is a field error (400) before any service runs, never a database error. The
columns' own bounds (`MAX_INT`, `MAX_ID`, a name's length) are `common.limits`.
"""

MAX_LEVEL_SECONDS = 24 * 60 * 60  # a level (or a break) lasts at most a day
MAX_LEVELS = 500  # rows of a schedule

# Settings that name a level (late registration, rebuys, the add-on) name one of the
# schedule's levels (the windows' own check), so no more than a schedule holds.
MAX_LEVEL_NUMBER = MAX_LEVELS
MAX_ENTRIES_PER_PLAYER = 100  # entries per player: the first and its re-entries
SEATS_PER_TABLE = (2, 10)  # the fewest and most seats a table is dealt with
