"""The floor: tournaments, blind schedules, players, tables, seats, clock, payouts, standings."""
