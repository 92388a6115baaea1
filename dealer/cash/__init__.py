"""Cash tables in one place: what a cash table is and how it is run between hands.

- `plan`: the table's rules and stakes, its seats as the engine sees them, the next hand's plan
  and its signature (read only; the engine's `dealer.engine.cash` decides the plan);
- `services`: every write (open a table, seat, sit out, come back, top up, leave, the waiting
  list, the button draw, what a hand's end leaves at the seats);
- `selectors`: the read model every front door shows (the list, one table, the next hand);
- `views`, `forms`: the floor's seats pages; `api`, `serializers`: their REST twins;
  `urls`: both sets of URLs.

The models stay where Django registered them, in `tournaments.models` (`Table` with its cash
fields, `CashSeat`, `WaitingListEntry`, `ButtonDraw`): moving models between apps would move
their tables and migrations for no gain. Hands themselves are started and ended by
`dealer.services`, which reads `plan` and calls `services.cash_hand_end`.
"""
