"""The house's takings and the cage: time collected by seat or by table and the dealer who
dealt each hand (`services`), the cage report and the float read from the chip ledger (`cage`),
their page (`views`) and REST twins (`api`), with their URLs (`urls`)."""
