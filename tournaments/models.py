"""Tournament floor models (Tournament, BlindSchedule, Level, Player, Entry, Table, Seat, ...).

None yet: they come with the floor issues.
"""
