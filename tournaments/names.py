"""How names are compared: a search for "jose" finds "José", "  JOSÉ " and "Jose". Pure."""

from __future__ import annotations

import unicodedata


def fold(text: str) -> str:
    """The text as searched: lower case, accents dropped, runs of spaces made one. "Øst" and
    "ß" fold to "ost" and "ss" (letters with no combining accent are spelled out)."""
    spelled = text.translate(_SPELLED)
    decomposed = unicodedata.normalize("NFKD", spelled.casefold())
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(plain.split())


# Letters that carry their accent in the letter itself, so NFKD leaves them as they are.
_SPELLED = str.maketrans(
    {
        "Ø": "O",
        "ø": "o",
        "Ł": "L",
        "ł": "l",
        "Đ": "D",
        "đ": "d",
        "Æ": "AE",
        "æ": "ae",
        "Œ": "OE",
        "œ": "oe",
    }
)
