"""docs/rules.md defines every rule tag the code cites (S2, T 10-A, RP-8, W14, X12, A3, R 2a...),
so that a clone alone makes sense of each citation."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RULES_DOC = ROOT / "docs" / "rules.md"

# A tag as the code writes it. TDA rules are "T" + space + number ("T0" is a test timestamp).
TAG = re.compile(
    r"\b(S[0-4]|T [0-9]{1,3}(?:-[A-Z])?|RP-[0-9]+|W[0-9]{1,2}|X[0-9]{1,2}|A[0-9]{1,2}"
    r"|R [0-9][a-z])\b"
)
# Tags written in lower case in test names: test_x12_..., test_w4_..., test_t11c_..., test_rp8_...
TEST_NAME_TAG = re.compile(r"\bdef test_(x|w|a|rp)([0-9]{1,2})_")
TABLE_ROW = re.compile(r"^\| ([^|]+?) \| ([^|]+?) \|", re.MULTILINE)
RANGE = re.compile(r"^([A-Z]+)([0-9]+)-\1?([0-9]+)$")


def cited_tags(text: str) -> set[str]:
    """Every rule tag cited in a source text."""
    tags = set(TAG.findall(text))
    for prefix, number in TEST_NAME_TAG.findall(text):
        tags.add(("RP-" if prefix == "rp" else prefix.upper()) + number)
    return tags


def defined_tags(doc: str) -> dict[str, str]:
    """The tags of rules.md's table "Every tag, with where the code uses it", each with its
    meaning; "W1-W13, W16" and "R, R 2a, R 2b" name several."""
    section = doc.split("## Every tag, with where the code uses it", 1)[1].split("\n## ", 1)[0]
    defined: dict[str, str] = {}
    for names, meaning in TABLE_ROW.findall(section):
        if names.strip() in ("tag", "---"):
            continue
        for name in names.split(","):
            name = name.strip()
            match = RANGE.match(name)
            if match:
                prefix, first, last = match.groups()
                for number in range(int(first), int(last) + 1):
                    defined[f"{prefix}{number}"] = meaning.strip()
            else:
                defined[name] = meaning.strip()
    return defined


def source_files() -> list[Path]:
    listed = subprocess.run(
        ["git", "ls-files", "*.py", "*.html", "*.js"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()
    return [ROOT / name for name in listed if (ROOT / name).is_file()]


def test_every_rule_tag_the_code_cites_is_defined_in_docs_rules_md() -> None:
    defined = defined_tags(RULES_DOC.read_text())
    missing: dict[str, list[str]] = {}
    for path in source_files():
        for tag in cited_tags(path.read_text(errors="replace")):
            if tag not in defined:
                missing.setdefault(tag, []).append(str(path.relative_to(ROOT)))
    assert not missing, f"tags cited but not defined in docs/rules.md: {missing}"


def test_every_defined_tag_says_what_it_means() -> None:
    defined = defined_tags(RULES_DOC.read_text())
    assert {"S0", "S4", "T 10-A", "RP-8", "W17", "X12", "A9", "R 2b"} <= defined.keys()
    assert all(meaning for meaning in defined.values())


def test_the_tag_scan_finds_what_it_should_and_flags_an_unknown_tag() -> None:
    text = 'x = 1  # T 10-A and S2; "RP-8"\ndef test_x12_thing():\n    T0 = 5\n'
    assert cited_tags(text) == {"T 10-A", "S2", "RP-8", "X12"}
    unknown = "X" + "99"  # spelled apart: this file is scanned too
    assert cited_tags(f"# see {unknown}") == {unknown}
    assert unknown not in defined_tags(RULES_DOC.read_text())
