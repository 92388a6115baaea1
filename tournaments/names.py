"""How names are kept and compared: a name is stored without what cannot be seen
(`clean_name`), and searched folded: a search for "jose" finds "José", "  JOSÉ " and "Jose".
Pure."""

from __future__ import annotations

import unicodedata


def clean_name(text: str) -> str:
    """A person's name as stored, the one cleaning of every place that takes one (players,
    cash seats and lists): composed (NFC), without invisible characters (zero-width spaces and
    joiners, a byte order mark, controls), without an accent that has no letter under it,
    runs of spaces (of any kind) made one. "" when nothing visible is left, which the services
    refuse as a blank name."""
    kept: list[str] = []
    for char in unicodedata.normalize("NFC", text):
        if char.isspace():
            kept.append(" ")
        elif char in _INVISIBLE or unicodedata.category(char) in _INVISIBLE_KINDS:
            continue
        elif unicodedata.combining(char) and (not kept or kept[-1] == " "):
            continue  # an accent on nothing (or on a space) shows as nothing
        else:
            kept.append(char)
    return unicodedata.normalize("NFC", " ".join("".join(kept).split()))


# Format characters (zero-width, BOM, direction marks), controls, private use, unassigned.
_INVISIBLE_KINDS = frozenset({"Cf", "Cc", "Co", "Cs", "Cn"})
# Letters and symbols that draw nothing: the Hangul fillers and the blank Braille pattern.
_INVISIBLE = frozenset("\u115f\u1160\u3164\uffa0\u2800")


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
