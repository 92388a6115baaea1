"""The dealer's pages: the tables a dealer deals (`/deal/`) and the tablet of one table
(`/deal/table/<id>/`), with its htmx writes and the polled state partial."""
