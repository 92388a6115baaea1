"""Admin registrations for the tournament floor models (none yet)."""
