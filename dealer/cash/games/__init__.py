"""Cash games and their lists: a game dealt at one or more tables, its one waiting list and
seat-change list, calls and held seats, must-move tables, breaking a game and closing a table
(`services`, `waitlist`); the read model (`selectors`); a place looked up by its code from a
phone (`lookups`); the game pages (`views`, `forms`) and their REST twins (`api`,
`serializers`), with their URLs (`urls`)."""
