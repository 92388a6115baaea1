"""Admin registrations for hands and their events (none yet)."""
