"""The floor's read models, one per concept, each returning plain data that the pages render and
the API serializes; nothing else queries for them:

- `standings`: standings, payouts, the results, the ICM deal on offer, seat lookup, tournaments;
- `prizes`: each paid place's prize and the deal on offer (ICM, chip chop);
- `bounties`: who eliminated whom, and the bounties it paid (derived, never stored);
- `books`: the chip ledger's books (the chips in play, the sums by kind, the check that they
  balance);
- `clock`: a tournament's levels and stored clock, what the clock shows, the one clock feed;
- `tables`: the table plan, who the next hand deals in, who moves after a hand, and
  hand-for-hand's progress;
- `seats`: who sits where and what is free (seats taken, held for a move, locked), per table;
- `desk`: the director's lists (entries, busts, count sheets, the audit log, levels, dealers);
- `versions`: answers named and cached by the tournament's version;
- `access`: sign-ins and devices (the live API tokens, the locked accounts and devices).

The read layer sits below the services: a service may read through these, a selector never
imports a service (`pyproject.toml`, import-linter), and a question a selector cannot answer is
refused with a `common.errors.FloorError`.
"""

from tournaments.selectors.access import (
    DeviceRow,
    Lockout,
    device_list,
    devices_locked,
    lockout_list,
    sign_in_rate_refusal,
    sign_in_refusal,
)
from tournaments.selectors.bounties import Bounties, tournament_bounties
from tournaments.selectors.clock import (
    ClockFeed,
    ClockTag,
    clock_etag,
    clock_feed,
    clock_seconds_shown,
    hand_for_hand_due,
    level_text,
)
from tournaments.selectors.desk import (
    LevelRow,
    audit_detail,
    audit_entry_names,
    audit_log,
    bust_choices,
    bust_rivals,
    count_sheet,
    dealer_choices,
    entry_list,
    level_list,
    recent_busts,
    seat_cards,
    seated_entries,
)
from tournaments.selectors.prizes import Payouts, Placed, deal_offer, payouts_get
from tournaments.selectors.standings import (
    StandingRow,
    Standings,
    results_rows,
    seat_lookup,
    tournament_list,
    tournament_payouts,
    tournament_standings,
)
from tournaments.selectors.tables import (
    HandForHandBoard,
    SeatView,
    TableView,
    hand_for_hand_board,
    moves_after_hand,
    seats_waiting,
    table_plan,
)
from tournaments.selectors.versions import (
    CACHE_SECONDS,
    cached,
    tournament_full,
    tournament_head,
    tournaments_seen,
    version_tag,
)

__all__ = [
    "CACHE_SECONDS",
    "Bounties",
    "ClockFeed",
    "ClockTag",
    "DeviceRow",
    "HandForHandBoard",
    "LevelRow",
    "Lockout",
    "Payouts",
    "Placed",
    "SeatView",
    "StandingRow",
    "Standings",
    "TableView",
    "audit_detail",
    "audit_entry_names",
    "audit_log",
    "bust_choices",
    "bust_rivals",
    "cached",
    "clock_etag",
    "clock_feed",
    "clock_seconds_shown",
    "count_sheet",
    "deal_offer",
    "dealer_choices",
    "device_list",
    "devices_locked",
    "entry_list",
    "hand_for_hand_board",
    "hand_for_hand_due",
    "level_list",
    "level_text",
    "lockout_list",
    "moves_after_hand",
    "payouts_get",
    "recent_busts",
    "results_rows",
    "seat_cards",
    "seat_lookup",
    "seated_entries",
    "seats_waiting",
    "sign_in_rate_refusal",
    "sign_in_refusal",
    "table_plan",
    "tournament_bounties",
    "tournament_full",
    "tournament_head",
    "tournament_list",
    "tournament_payouts",
    "tournament_standings",
    "tournaments_seen",
    "version_tag",
]
