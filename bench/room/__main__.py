"""`python -m bench.room SIZES`: the whole room's load (bench/room/run.py)."""

from bench.room.run import main

main()
