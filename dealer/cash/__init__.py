"""Cash tables in one place: what a cash table is and how it is run between hands.

- `plan`: the table's rules and stakes, its seats as the engine sees them, the next hand's plan
  and its signature (read only; the engine's `dealer.engine.cash` decides the plan);
- `services`: every write (open a table, seat, sit out, come back, top up, leave, the waiting
  list, the button draw, what a hand's end leaves at the seats);
- `selectors`: the read model every front door shows (the list, one table, the next hand);
- `views`, `forms`: the floor's seats pages; `api`, `serializers`: their REST twins;
  `urls`: both sets of URLs.

Since issue 25 the cash floor is an app of its own (label `cash`, `apps.CashConfig`): its models
(`models`: seats, games and their lists, time charges, the chip ledger `CashChips`) left
`tournaments.models` with their rows (`migrations/0001_moved.py`). `Table` (with its cash fields)
and `ButtonDraw` stay there, shared with the tournaments. Every change of a seat's chips goes
through `ledger`, the one writer; `books` proves the ledger (`manage.py check_chips`) and `cage`
reports from it. Hands themselves are started and ended by `dealer.services`, which reads `plan`
and calls `services.cash_hand_end` (and `services.cash_hand_reopen`).
"""
