"""A whole room's load with locust (issue 28, "Capacity"): `python -m bench.room`.

- `build.py` builds the room in a throwaway database through the services (a running event on
  N tables with a dealer, a token and a session per table, a second event the desk registers
  for, a cash game's waiting list) and writes what the clients need into one JSON file;
- `locustfile.py` holds the clients (dealers' tablets, the desk, phones, screens, waiting-list
  phones), paced as the real pages poll and as dealers tap;
- `run.py` starts the production processes as compose runs them (gunicorn with
  `config/gunicorn.conf.py`, a Celery worker, one beat) on PostgreSQL and Redis, one or two web
  replicas (`proxy.py` in front of two), runs locust headless for a fixed time per room size and
  steps the size up until taps miss their target or an error shows.

The figures and how to read them: docs/performance.md, "A whole room (issue 28)".
"""
