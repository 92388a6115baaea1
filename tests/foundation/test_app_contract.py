"""The import contracts "the floor app and config import only the rules engine of the dealer
app" and "the common kit imports neither app" (pyproject.toml) list every dealer module but the
engine: a module added to the dealer app and left off a list would be importable from the floor
or the kit without the linter noticing."""

from __future__ import annotations

import pkgutil
import tomllib
from pathlib import Path

import dealer
from tournaments import hands

ROOT = Path(__file__).resolve().parents[2]
NAME = "The floor app and config import only the rules engine of the dealer app"
KIT = "The common kit imports neither app, only the rules engine's refusal kinds"
ENGINE = "The rules engine is pure Python: no Django, no services, no apps"


def _contract(name: str = NAME) -> dict:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    contracts = config["tool"]["importlinter"]["contracts"]
    return next(c for c in contracts if c["name"] == name)


def _dealer_modules() -> set[str]:
    modules = {f"dealer.{m.name}" for m in pkgutil.iter_modules(dealer.__path__)}
    assert "dealer.engine" in modules
    return modules


def test_the_contract_forbids_every_dealer_module_but_the_engine():
    assert set(_contract()["forbidden_modules"]) == _dealer_modules() - {"dealer.engine"}
    assert set(_contract()["source_modules"]) == {"tournaments", "config"}


def test_the_kit_imports_neither_app_nor_config_only_the_engine():
    forbidden = set(_contract(KIT)["forbidden_modules"])
    assert forbidden == (_dealer_modules() - {"dealer.engine"}) | {"tournaments", "config"}
    assert _contract(KIT)["source_modules"] == ["common"]


def test_the_engine_imports_neither_the_kit_nor_the_apps():
    forbidden = set(_contract(ENGINE)["forbidden_modules"])
    assert {"common", "config", "tournaments", "dealer.models"} <= forbidden


def test_the_dealer_app_hands_the_floor_its_reader_of_hands_when_django_starts():
    reader = hands.hand_reader()
    assert type(reader).__module__ == "dealer.selectors"
