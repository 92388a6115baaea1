"""Cells for the CSV exports (results, procedure log) that a spreadsheet opens safely."""

from __future__ import annotations

# A cell starting with one of these is a formula to a spreadsheet: a player's name typed at the
# desk as "=HYPERLINK(...)" must reach the director's spreadsheet as text.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value: object) -> str:
    """The value as text, prefixed with a quote when a spreadsheet would read it as a formula."""
    text = "" if value is None else str(value)
    return f"'{text}" if text.startswith(FORMULA_START) else text
