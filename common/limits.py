"""The bounds every column sets, one table for both apps' forms and APIs. A value outside them is
a field error (400) before any service runs, never a database error. The floor's own bounds (a
level's length, a schedule's rows, a table's seats) are `tournaments.limits`.
"""

MAX_INT = 2**31 - 1  # PositiveIntegerField on every database
MAX_SMALL_INT = 2**15 - 1  # PositiveSmallIntegerField
MAX_ID = 2**63 - 1  # BigAutoField
MAX_NAME = 80  # a player's name (Player.name), and the names typed beside it
