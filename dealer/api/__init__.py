"""The dealer's REST API (DRF): hands, actions, undo, procedures and their log.

Every write carries the client's id and the hand version it was made against (DESIGN.md
"Idempotent writes from tablets"); the services in `dealer.services` do the work.
"""
