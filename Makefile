# FloorDesk: `make run` for a local server, `make test` for lint and tests.

VENV ?= .venv
PY := $(VENV)/bin/python
PYTHON ?= $(shell command -v python3.11 2>/dev/null || command -v python3)
PYTEST_ARGS ?=

.PHONY: install run test lint fmt bench clean

install: $(VENV)/.installed

# Re-installs whenever pyproject.toml changes.
$(VENV)/.installed: pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $@

# Migrates, loads the demo tournament, its logins (printed every time) and a demo cash table, serves.
run: install
	$(PY) manage.py migrate --noinput
	$(PY) manage.py load_demo
	$(PY) manage.py load_cash_demo
	$(PY) manage.py runserver 127.0.0.1:8000

test: lint
	$(VENV)/bin/pytest $(PYTEST_ARGS)

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy .
	$(VENV)/bin/lint-imports

fmt: install
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

bench: install
	$(PY) -m bench

clean:
	rm -rf $(VENV) staticfiles build *.egg-info .pytest_cache .mypy_cache .ruff_cache .hypothesis
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
