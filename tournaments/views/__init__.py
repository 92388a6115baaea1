"""Pages of the floor: the landing page, the director dashboard and the public pages.

One module per part of the floor. Every page reads the time from `config.request_time.now`, as
the API does, so a test can set it. Views parse the request, call one service (or selector) and
render; the services decide.
"""
