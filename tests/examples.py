"""How many examples the property tests and state machines draw (issue 28).

A test names the count it draws in CI and `make test` with `examples(n)`. `make test-long` loads
hypothesis' `long` profile (`--hypothesis-profile=long`), whose default of 1,000 examples
against the usual 100 makes every such count ten times larger: the same assertions, over many
more draws, for a run before a release or after a change to the engine or the ledger.

tests/conftest.py registers the profile (`register_profiles`) before hypothesis' pytest plugin
reads its option.
"""

from __future__ import annotations

from hypothesis import settings

USUAL_EXAMPLES = 100  # hypothesis' default, and its `ci` profile's (CI=true loads that one)
LONG_EXAMPLES = 1000


def register_profiles() -> None:
    """The `long` profile: like the loaded one (`ci` on CI), with ten times the examples."""
    settings.register_profile("long", max_examples=LONG_EXAMPLES)


def examples(usual: int) -> int:
    """`usual` examples under the default and `ci` profiles; scaled as the loaded profile's own
    default is to hypothesis' (ten times as many under `long`)."""
    return max(1, usual * settings().max_examples // USUAL_EXAMPLES)
