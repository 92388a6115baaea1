"""Cash tables and their seats: opening a table, seating, sitting out, coming back, topping
up, leaving, moving with the whole stack, the floor's corrections, the button draw and what a
hand's end leaves at the seats (`services`); the read model every front door shows
(`selectors`); the next hand's plan (`plan`); the seats pages (`views`, `forms`) and their REST
twins (`api`, `serializers`), with their URLs (`urls`)."""
