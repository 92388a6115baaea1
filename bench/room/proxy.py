"""A tiny TCP balancer for the two-replica run: `python -m bench.room.proxy PORT BACKEND...`.

Each client connection goes to the next backend in turn (round robin) and its bytes are copied
both ways until either side closes, as nginx's `stream` module or HAProxy in TCP mode would do
it; gevent (locust's own dependency) serves the connections from one thread. It stands for the
proxy of the documented scale-out (docs/operations.md: more web processes behind one proxy),
without TLS and without adding `X-Forwarded-For` (the bench's clients all come from 127.0.0.1
either way). It costs CPU of its own, counted apart by the runner.
"""

from __future__ import annotations

import contextlib
import itertools
import socket
import sys

import gevent  # type: ignore[import-untyped]  # locust's event loop: no type information
from gevent.server import StreamServer  # type: ignore[import-untyped]
from gevent.socket import create_connection  # type: ignore[import-untyped]


def _pipe(source: socket.socket, target: socket.socket) -> None:
    try:
        while data := source.recv(65536):
            target.sendall(data)
    except OSError:
        pass
    finally:
        for sock in (source, target):
            with contextlib.suppress(OSError):
                sock.shutdown(2)


def proxy_serve(port: int, backends: list[tuple[str, int]]) -> None:
    turn = itertools.cycle(backends)

    def handle(client: socket.socket, _address: tuple[str, int]) -> None:
        try:
            upstream = create_connection(next(turn))
        except OSError:
            client.close()
            return
        back = gevent.spawn(_pipe, upstream, client)
        _pipe(client, upstream)
        back.join()
        upstream.close()
        client.close()

    StreamServer(("127.0.0.1", port), handle, backlog=1024).serve_forever()


def main() -> None:
    port, *backends = sys.argv[1:]
    proxy_serve(int(port), [("127.0.0.1", int(backend)) for backend in backends])


if __name__ == "__main__":
    main()
