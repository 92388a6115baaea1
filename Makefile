# FloorDesk: `make run` for a local server, `make test` for lint and tests (`make test-fast`
# for the inner loop, `make test-long` before a release).

VENV ?= .venv
PY := $(VENV)/bin/python
PYTHON ?= $(shell command -v python3.11 2>/dev/null || command -v python3)
PYTEST_ARGS ?=

.PHONY: install lock run test suite test-fast test-long lint fmt bench bench-room clean

install: $(VENV)/.installed

# Installs exactly the versions in the lock, each checked against its hash, then the project
# itself; again whenever the lock changes. `uv pip check` fails when pyproject.toml asks for
# something the lock lacks: run `make lock`. pip installs uv, at the lock's version and hashes,
# and uv the rest: it fetches and unpacks in parallel (a fresh virtualenv in about 23 s,
# against 52 s with pip on the 2-core machine) and compiles the bytecode as pip did, since the
# machines and the image set PYTHONDONTWRITEBYTECODE and nothing is compiled at import.
UV_LOCK_LINE = awk '/^uv==/ { on = 1 } on { print } on && !/\\$$/ { exit }' requirements/lock.txt
$(VENV)/.installed: requirements/lock.txt pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(UV_LOCK_LINE) > $(VENV)/uv-lock.txt
	$(PY) -m pip install --quiet --require-hashes --no-deps -r $(VENV)/uv-lock.txt
	$(VENV)/bin/uv pip install --quiet --python $(PY) --require-hashes --compile-bytecode \
		-r requirements/lock.txt
	$(VENV)/bin/uv pip install --quiet --python $(PY) --no-deps --compile-bytecode -e .
	$(VENV)/bin/uv pip check --python $(PY)
	touch $@

# Pins every dependency in pyproject.toml with its hashes, for every platform: lock.txt with the
# dev extra (make, CI), prod.txt without it (the Dockerfile), held to the same versions as
# lock.txt, so that CI tests what the image runs. Bounds stay in pyproject.toml;
# `make lock UPGRADE=--upgrade` moves each pin to the newest version they allow.
UPGRADE ?=
LOCK_ARGS = --universal --python-version 3.11 --generate-hashes --quiet \
	--custom-compile-command "make lock" $(UPGRADE)
lock:
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	test -x $(VENV)/bin/uv || $(PY) -m pip install --quiet 'uv>=0.13,<0.14'
	$(VENV)/bin/uv pip compile pyproject.toml --extra dev $(LOCK_ARGS) -o requirements/lock.txt
	$(VENV)/bin/uv pip compile pyproject.toml $(LOCK_ARGS) -c requirements/lock.txt \
		-o requirements/prod.txt

# Migrates, loads the demo tournament, its logins (printed every time) and a demo cash table, serves.
# The development server, and the only place DEBUG is on (with the published development key).
run: export DEBUG = 1
run: install
	$(PY) manage.py migrate --noinput
	$(PY) manage.py load_demo
	$(PY) manage.py load_cash_demo
	$(PY) manage.py runserver 127.0.0.1:8000

# The suite runs in TEST_WORKERS processes at once (pytest-xdist; docs/operations.md, "Tests in
# parallel"): on the 2-core machine, one runs the browser tests one after another, which mostly
# wait on Chromium, while two keep the cores busy (the lanes: tests/workers.py). `make test
# TEST_WORKERS=0` runs it in this one process, serially.
TEST_WORKERS ?= 3
# Each run caches under its own prefix (config/settings.py): Redis outlives a run.
RUN_PREFIX = CACHE_KEY_PREFIX="$${CACHE_KEY_PREFIX:-floordesk-test-$$(date +%s)-$$$$}"
# `make test` is lint, then the suite; `make -j2 -O test` (.ci/run) runs the two side by side,
# each one's output shown whole once it ends. `make suite` is the suite without lint.
test: lint suite

suite: install
	$(RUN_PREFIX) $(VENV)/bin/pytest -n $(TEST_WORKERS) $(PYTEST_ARGS)

# The inner loop (docs/operations.md, "Tests in parallel"): the engine, the services, the API
# and the pages, without lint, browsers, production processes, the fuzzers or the two state
# machines, all of which `make test` and CI still run.
FAST_TESTS = tests/engine tests/common tests/tournaments tests/dealer tests/api tests/pages \
	tests/foundation
FAST_LEFT_OUT = --deselect tests/tournaments/test_ledger_machine.py \
	--deselect tests/dealer/test_cash_floor_machine.py
test-fast: install
	$(RUN_PREFIX) $(VENV)/bin/pytest -n $(TEST_WORKERS) $(FAST_LEFT_OUT) $(PYTEST_ARGS) $(FAST_TESTS)

# Everything `make test` runs and the tests marked slow, with ten times the examples in every
# property test and state machine (hypothesis' `long` profile, tests/examples.py).
test-long: lint
	$(RUN_PREFIX) $(VENV)/bin/pytest -n $(TEST_WORKERS) --hypothesis-profile=long \
		-m "slow or not slow" $(PYTEST_ARGS)

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

# A whole room's load with locust on the production processes, stepped up by room size in tables
# (docs/performance.md, "A whole room"); not part of `make bench`: it takes a minute a size.
SIZES ?= 5,10,20,30,40
ROOM_ARGS ?=
bench-room: install
	$(PY) -m bench.room $(SIZES) $(ROOM_ARGS)

clean:
	rm -rf $(VENV) staticfiles build *.egg-info .pytest_cache .mypy_cache .ruff_cache .hypothesis
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
