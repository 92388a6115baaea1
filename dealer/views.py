"""The dealer tablet pages (none yet)."""
