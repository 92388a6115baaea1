"""The import contract "the floor app and config import only the rules engine of the dealer
app" (pyproject.toml) lists every dealer module but the engine: a module added to the dealer app
and left off the list would be importable from the floor without the linter noticing."""

from __future__ import annotations

import pkgutil
import tomllib
from pathlib import Path

import dealer
from tournaments import hands

ROOT = Path(__file__).resolve().parents[2]
NAME = "The floor app and config import only the rules engine of the dealer app"


def _contract() -> dict:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    contracts = config["tool"]["importlinter"]["contracts"]
    return next(c for c in contracts if c["name"] == NAME)


def test_the_contract_forbids_every_dealer_module_but_the_engine():
    modules = {f"dealer.{m.name}" for m in pkgutil.iter_modules(dealer.__path__)}
    assert "dealer.engine" in modules
    assert set(_contract()["forbidden_modules"]) == modules - {"dealer.engine"}
    assert set(_contract()["source_modules"]) == {"tournaments", "config"}


def test_the_dealer_app_hands_the_floor_its_reader_of_hands_when_django_starts():
    reader = hands.hand_reader()
    assert type(reader).__module__ == "dealer.selectors"
