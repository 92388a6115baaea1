"""Dealer assist: the rules engine (``dealer.engine``), hands as event logs, the dealer tablet.

Keep this file free of imports: ``dealer.engine`` is pure Python and is imported through it.
"""
