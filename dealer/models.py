"""Hand storage: Hand, HandEvent (append-only), ProcedureLog.

None yet: they come with the hand-storage issue. Only ``dealer.services`` will write them.
"""
