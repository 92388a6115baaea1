"""Tests of what a card room's network may send: production defaults, hostile input to the API
and to the pages' forms, and the regressions those runs found."""
