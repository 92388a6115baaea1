"""How many examples the property tests and state machines draw (issue 28).

A test names the count it draws in CI and `make test` with `examples(n)`. `make test-long` loads
hypothesis' `long` profile (`--hypothesis-profile=long`), whose default of 1,000 examples
against the usual 100 makes every such count ten times larger: the same assertions, over many
more draws, for a run before a release or after a change to the engine or the ledger.

The `second-database` profile draws a quarter of the usual count: .ci/run runs the ledger's
state machine once more on SQLite (the embedded default `make run` serves), beside the whole
suite on PostgreSQL, for the queries and locks that differ between the two. Its three examples
reach every situation the machine's test requires (checked on 2026-12-02), at a quarter of the
core it kept busy; PostgreSQL draws all of them in the suite.

tests/conftest.py registers the profiles (`register_profiles`) before hypothesis' pytest plugin
reads its option.
"""

from __future__ import annotations

from hypothesis import settings

USUAL_EXAMPLES = 100  # hypothesis' default, and its `ci` profile's (CI=true loads that one)
LONG_EXAMPLES = 1000
SECOND_DATABASE_EXAMPLES = 25


def register_profiles() -> None:
    """The `long` profile: like the loaded one (`ci` on CI), with ten times the examples; the
    `second-database` profile, with a quarter."""
    settings.register_profile("long", max_examples=LONG_EXAMPLES)
    settings.register_profile("second-database", max_examples=SECOND_DATABASE_EXAMPLES)


def examples(usual: int) -> int:
    """`usual` examples under the default and `ci` profiles; scaled as the loaded profile's own
    default is to hypothesis' (ten times as many under `long`)."""
    return max(1, usual * settings().max_examples // USUAL_EXAMPLES)
