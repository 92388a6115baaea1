"""What one box holds: a whole room's load, stepped up until the tablet's taps give way.

    python -m bench.room 10,20,30        # room sizes in tables, smallest first; 45 s each
    python -m bench.room 20 --replicas 2 # two web replicas behind one proxy (bench/room/proxy.py)

A throwaway database (`floordesk_bench_room`, next to `BENCH_DATABASE_URL`) is migrated as
compose's `migrate` service does, and the room for the largest size is built in it
(`bench/room/build.py`). Then the production processes start as compose starts them, with the
commands read from compose.yaml and the same kind of environment (DEBUG off, a real key,
PostgreSQL, and Redis at `BENCH_REDIS_URL`, a database of its own emptied first and last):
gunicorn with `config/gunicorn.conf.py` (its default workers: two per core), a Celery worker
and one beat.
With `--replicas 2`, two gunicorns on ports of their own and the proxy in front of both.

After a warm-up run (not counted: each worker's first requests import, connect and compile),
for each size, smallest first, locust runs headless against the front port with
one dealer's tablet per table, `--phones` phones per table (21: the WSOP starting day's 20,000
phones over its 950 tables), a screen per `--tables-per-screen` tables, a desk station per
`--tables-per-desk` tables (one at the least) and `--waiting` waiting-list phones per table.
The measure starts `--warmup` seconds (10) after every client has started (each has loaded its
page by then) and lasts `--seconds` (45). A size passes when the taps' p99 is under
`--tap-p99` ms (250) and no request failed; the steps stop at the first size that does not
(`--all`: every size). Printed per size: requests per second, the taps' p50/p99/max, failures,
the CPU each part of the stack used (in cores: gunicorn's workers, PostgreSQL's backends for the
bench database, the Celery worker and beat, Redis (the whole server: it may serve others), the
proxy, locust itself), PostgreSQL's connections to the bench database and the load average.
`--json PATH` keeps every figure. `--costs PATH` first measures what each kind of request costs
in-process (`bench/room/costs.py`), on the same room, before the servers start.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict
from urllib.parse import urlsplit, urlunsplit

from bench.bench_actions import _free_port

if TYPE_CHECKING:
    import redis

    # Types only: importing the locust file would start gevent's patching in this process.
    from bench.room.locustfile import RequestFigures, RoomSummary

ROOT = Path(__file__).resolve().parents[2]
BENCH_DB = "floordesk_bench_room"
BIN = Path(sys.executable).parent
TAP = "tablet tap"
STEPS = itertools.count()  # each locust run busts entries of its own (locustfile.py)


def _admin_url() -> str:
    return os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")


def _redis_url() -> str:
    return os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/14")


def _admin(sql: str) -> None:
    import psycopg

    url = _admin_url().replace("postgres://", "postgresql://", 1)
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(sql)


def _connections() -> int:
    import psycopg

    url = _admin_url().replace("postgres://", "postgresql://", 1)
    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = %s", [BENCH_DB]
        ).fetchone()
    return int(row[0]) if row else 0


def _redis() -> redis.Redis:
    import redis

    return redis.Redis.from_url(_redis_url())


def _environment(workdir: Path) -> dict[str, str]:
    """What compose's `.env` and its `x-app` block give every process, for this machine."""
    database = urlunsplit(urlsplit(_admin_url())._replace(path=f"/{BENCH_DB}"))
    env = os.environ | {
        "DATABASE_URL": database,
        "REDIS_URL": _redis_url(),
        "SECRET_KEY": secrets.token_urlsafe(50),
        "DEBUG": "0",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "LOG_FORMAT": "json",
        "LOG_LEVEL": os.environ.get("LOG_LEVEL", "INFO"),
        "CACHE_KEY_PREFIX": f"room-{os.getpid()}-{int(time.time())}",
        "PYTHONWARNINGS": "ignore:No directory at",  # whitenoise: no collectstatic here
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    }
    env["ROOM_FILE"] = str(workdir / "room.json")
    return env


@dataclass
class Stack:
    """The processes started, by role; each is a process group of its own."""

    processes: dict[str, subprocess.Popen[bytes]]
    front: int

    def stop(self) -> None:
        for process in self.processes.values():
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for process in self.processes.values():
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()


def compose_commands(workdir: Path) -> dict[str, list[str]]:
    """The migrate, web, worker and beat commands as compose.yaml writes them, run from this
    virtualenv; the beat's schedule file goes into `workdir` (two runs share no file)."""
    import yaml

    services = yaml.safe_load((ROOT / "compose.yaml").read_text())["services"]
    commands = {}
    for name in ("migrate", "web", "worker", "beat"):
        program, *rest = services[name]["command"]
        path = sys.executable if program == "python" else str(BIN / program)
        if "--schedule" in rest:
            rest[rest.index("--schedule") + 1] = str(workdir / "celerybeat-schedule")
        commands[name] = [path, *rest]
    return commands


def _start(
    name: str, command: list[str], env: dict[str, str], workdir: Path
) -> subprocess.Popen[bytes]:
    log = (workdir / f"{name}.log").open("wb")
    return subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)


def _wait_answering(port: int, stack: Stack) -> None:
    """Until the front port answers HTTP (any status: /healthz waits for the beat's first beat)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        for name, process in stack.processes.items():
            if process.poll() is not None:
                raise RuntimeError(f"{name} exited (its log is in the run's folder)")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=2) as sock:
                sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                if sock.recv(16).startswith(b"HTTP/1."):
                    return
        except OSError:
            pass
        time.sleep(0.5)
    raise RuntimeError("the web service did not answer within 60 s")


def stack_start(env: dict[str, str], workdir: Path, replicas: int) -> Stack:
    """gunicorn (one per replica), the Celery worker and the beat as compose runs them, and with
    two replicas the proxy in front."""
    processes = {}
    commands = compose_commands(workdir)
    ports = [_free_port() for _ in range(replicas)]
    for index, port in enumerate(ports):
        name = f"web{index + 1}"
        processes[name] = _start(name, commands["web"], env | {"PORT": str(port)}, workdir)
    for name in ("worker", "beat"):
        processes[name] = _start(name, commands[name], env, workdir)
    front = ports[0]
    if replicas > 1:
        front = _free_port()
        proxy = [sys.executable, "-m", "bench.room.proxy", str(front), *map(str, ports)]
        processes["proxy"] = _start("proxy", proxy, env, workdir)
    stack = Stack(processes, front)
    try:
        _wait_answering(front, stack)
    except BaseException:
        stack.stop()
        raise
    return stack


# --- CPU, from /proc ---------------------------------------------------------------------------


def _stats() -> list[tuple[int, int, float, bytes]]:
    """(pid, ppid, CPU seconds, command line) of every process."""
    rows = []
    tick = os.sysconf("SC_CLK_TCK")
    for process in Path("/proc").glob("[0-9]*"):
        try:
            fields = (process / "stat").read_text().rsplit(")", 1)[1].split()
            line = (process / "cmdline").read_bytes()
        except OSError:
            continue
        rows.append(
            (int(process.name), int(fields[1]), (int(fields[11]) + int(fields[12])) / tick, line)
        )
    return rows


class BackendMeter:
    """CPU used by PostgreSQL's backends for the bench database, from /proc every half second:
    a web process's connection ends and another begins (CONN_MAX_AGE), and an ended backend's
    time is no longer in /proc, so each backend's last figure seen is kept."""

    def __init__(self) -> None:
        self.seen: dict[int, list[float]] = {}  # pid: [CPU at the start, CPU last seen]
        self.lock = threading.Lock()
        threading.Thread(target=self._watch, daemon=True).start()

    def _backends(self) -> dict[int, float]:
        marker = f" {BENCH_DB} ".encode()
        return {
            pid: cpu
            for pid, _, cpu, line in _stats()
            if line.startswith(b"postgres: ") and marker in line
        }

    def _watch(self) -> None:
        while True:
            now = self._backends()
            with self.lock:
                for pid, cpu in now.items():
                    self.seen.setdefault(pid, [0.0, cpu])[1] = cpu
            time.sleep(0.5)

    def total(self) -> float:
        with self.lock:
            return sum(last - first for first, last in self.seen.values())

    def restart(self) -> None:
        """From now on: the backends alive count from their present figure."""
        now = self._backends()
        with self.lock:
            self.seen = {pid: [cpu, cpu] for pid, cpu in now.items()}


BACKENDS: BackendMeter | None = None


def cpu_sample(stack: Stack, locust: int) -> dict[str, float]:
    """CPU seconds used so far, by part: each started process with its children, PostgreSQL's
    backends for the bench database, Redis (the server's own count), locust."""
    rows = _stats()
    roots = {name: process.pid for name, process in stack.processes.items()}
    roots["locust"] = locust
    out: dict[str, float] = {}
    for name, pid in roots.items():
        part = "web" if name.startswith("web") else name
        out[part] = out.get(part, 0.0) + sum(c for p, pp, c, _ in rows if pid in (p, pp))
    assert BACKENDS is not None
    out["postgres"] = BACKENDS.total()
    info = _redis().info("cpu")
    out["redis"] = float(info["used_cpu_user"]) + float(info["used_cpu_sys"])
    return out


# --- one size ------------------------------------------------------------------------------------


def clients(tables: int, args: argparse.Namespace) -> dict[str, int]:
    return {
        "ROOM_TABLES": tables,
        "ROOM_PHONES": round(tables * args.phones),
        "ROOM_SCREENS": max(1, round(tables / args.tables_per_screen)),
        "ROOM_DESKS": max(1, round(tables / args.tables_per_desk)),
        "ROOM_WAITING": round(tables * args.waiting),
    }


class TapFigures(TypedDict):
    count: int
    p50_ms: float
    p99_ms: float
    max_ms: float


class Step(TypedDict):
    """One size's run: its clients, the rates, the taps' times, the failures and the cores."""

    tables: int
    clients: dict[str, int]
    seconds: float
    requests_per_second: float
    tap: TapFigures
    failures: dict[str, int]
    examples: dict[str, list[str]]
    cores: dict[str, float]
    redis_commands_per_second: float
    postgres_connections: int
    load_average: list[float]
    by_name: dict[str, RequestFigures]
    passed: bool


def room_step(
    tables: int, args: argparse.Namespace, stack: Stack, env: dict[str, str], workdir: Path
) -> Step:
    """Locust at this size: every client started, `args.warmup` s more, then `args.seconds`
    measured (CPU sampled over the same stretch)."""
    counts = clients(tables, args)
    users = sum(counts.values())
    ramp = max(3.0, users / 100)  # 100 clients a second: each loads its page first
    result_file = workdir / f"result-{tables}.json"
    run_time = round(ramp + args.warmup + args.seconds + 1)
    command = [
        str(BIN / "locust"), "-f", str(ROOT / "bench/room/locustfile.py"), "--headless",
        "--users", str(users), "--spawn-rate", str(users / ramp),
        "--run-time", f"{run_time}s", "--host", f"http://127.0.0.1:{stack.front}",
        "--only-summary", "--loglevel", "WARNING", "--stop-timeout", "5",
    ]  # fmt: skip
    step_env = env | {k: str(v) for k, v in counts.items()}
    step_env |= {"ROOM_RESULT": str(result_file), "ROOM_WARMUP": str(args.warmup)}
    step_env["ROOM_STEP"] = str(next(STEPS))
    load_before = os.getloadavg()[0]
    log = (workdir / f"locust-{tables}.log").open("wb")
    locust = subprocess.Popen(command, cwd=ROOT, env=step_env, stdout=log, stderr=subprocess.STDOUT)
    time.sleep(ramp + args.warmup + 0.5)
    assert BACKENDS is not None
    BACKENDS.restart()
    before, started = cpu_sample(stack, locust.pid), time.monotonic()
    redis_before = _redis().info("stats")["total_commands_processed"]
    time.sleep(args.seconds / 2)
    connections = _connections()
    time.sleep(max(0.5, args.seconds - (time.monotonic() - started)))
    after, elapsed = cpu_sample(stack, locust.pid), time.monotonic() - started
    redis_after = _redis().info("stats")["total_commands_processed"]
    locust.wait(timeout=run_time + 60)
    summary: RoomSummary = json.loads(result_file.read_text())
    requests = summary["requests"]
    none: TapFigures = {"count": 0, "p50_ms": 0, "p99_ms": float("inf"), "max_ms": 0}
    tap = requests.get(TAP, none)
    failures = {name: r["failures"] for name, r in requests.items() if r["failures"]}
    window = summary["seconds"] or 1.0
    return {
        "tables": tables,
        "clients": counts,
        "seconds": window,
        "requests_per_second": sum(r["count"] for r in requests.values()) / window,
        "tap": {
            "count": tap["count"],
            "p50_ms": tap["p50_ms"],
            "p99_ms": tap["p99_ms"],
            "max_ms": tap["max_ms"],
        },
        "failures": failures,
        "examples": {name: requests[name]["examples"] for name in failures},
        "cores": {part: (after[part] - before[part]) / elapsed for part in after},
        "redis_commands_per_second": (redis_after - redis_before) / elapsed,
        "postgres_connections": connections,
        "load_average": [load_before, os.getloadavg()[0]],
        "by_name": requests,
        "passed": tap["p99_ms"] < args.tap_p99 and not failures,
    }


def _print(step: Step, verbose: bool) -> None:
    tap, cores = step["tap"], step["cores"]
    counts = step["clients"]
    print(
        f"{step['tables']:4} tables ({counts['ROOM_PHONES']} phones, {counts['ROOM_SCREENS']} "
        f"screens, {counts['ROOM_DESKS']} desks, {counts['ROOM_WAITING']} list phones): "
        f"{step['requests_per_second']:6.1f} req/s; taps {tap['count']} p50 {tap['p50_ms']:.0f} ms "
        f"p99 {tap['p99_ms']:.0f} ms max {tap['max_ms']:.0f} ms; failures "
        f"{sum(step['failures'].values())}; {'PASS' if step['passed'] else 'FAIL'}"
    )
    print(
        "      cores: " + ", ".join(f"{part} {value:.2f}" for part, value in cores.items())
        + f"; Redis {step['redis_commands_per_second']:.0f} commands/s; PostgreSQL "
        f"{step['postgres_connections']} connections; load average "
        f"{step['load_average'][0]:.1f} -> {step['load_average'][1]:.1f}"
    )  # fmt: skip
    for name, examples in step["examples"].items():
        print(f"      failed: {name}: {step['failures'][name]}, e.g. {examples[:2]}")
    if verbose:
        for name, r in sorted(step["by_name"].items()):
            statuses = ", ".join(f"{s}: {n}" for s, n in sorted(r["statuses"].items()))
            print(
                f"      {name:58} {r['count']:6} p50 {r['p50_ms']:6.1f} p99 {r['p99_ms']:7.1f} "
                f"max {r['max_ms']:7.1f} ms  ({statuses})"
            )


def _costs(env: dict[str, str], workdir: Path, keep: Path) -> None:
    """Each request's CPU in-process (bench/room/costs.py), printed and kept in `keep`."""
    command = [sys.executable, "-m", "bench.room.costs", env["ROOM_FILE"], str(keep)]
    with (workdir / "costs.log").open("wb") as log:  # the access log of its requests
        subprocess.run(command, cwd=ROOT, env=env, check=True, stdout=log, stderr=log)
    print("CPU per request in one web process, in-process (bench/room/costs.py):")
    for name, (cpu, statements) in json.loads(keep.read_text()).items():
        print(f"  {name:58} {cpu:6.2f} ms CPU  {statements:4.0f} SQL statements")


def _drain(stack: Stack) -> None:
    """Until the web workers idle (at most 30 s): requests of the last run still queued at the
    server would otherwise be answered during the next, and a tablet's first read be stale."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        before = cpu_sample(stack, 0)["web"]
        time.sleep(1)
        if cpu_sample(stack, 0)["web"] - before < 0.05:
            return


def room_run(sizes: list[int], args: argparse.Namespace) -> list[Step]:
    """Builds the room for the largest size, starts the stack, steps through the sizes."""
    with tempfile.TemporaryDirectory(prefix="room-") as folder:
        workdir = Path(folder)
        env = _environment(workdir)
        _admin(f"DROP DATABASE IF EXISTS {BENCH_DB} WITH (FORCE)")
        _admin(f"CREATE DATABASE {BENCH_DB}")
        _redis().flushdb()
        stack = None
        try:
            migrate = compose_commands(workdir)["migrate"]
            subprocess.run(migrate, cwd=ROOT, env=env, check=True, stdout=subprocess.DEVNULL)
            waiting = max(2, round(max(sizes) * args.waiting))
            build = [sys.executable, "-m", "bench.room.build", "--tables", str(max(sizes))]
            build += ["--waiting", str(waiting), "--out", env["ROOM_FILE"]]
            subprocess.run(build, cwd=ROOT, env=env, check=True)
            if args.costs:
                _costs(env, workdir, args.costs)
            stack = stack_start(env, workdir, args.replicas)
            global BACKENDS
            BACKENDS = BackendMeter()
            # Every worker imports, connects and compiles its templates on its first requests
            # (seconds each on a busy machine): a first run at the smallest size, not counted.
            warm = argparse.Namespace(**{**vars(args), "seconds": args.warmup})
            print("warm-up (not counted): ", end="")
            _print(room_step(sizes[0], warm, stack, env, workdir), verbose=False)
            steps = []
            for tables in sizes:
                _drain(stack)
                step = room_step(tables, args, stack, env, workdir)
                _print(step, args.verbose)
                steps.append(step)
                if not step["passed"] and not args.all:
                    break
            return steps
        finally:
            if stack is not None:
                stack.stop()
                if args.keep_logs:
                    for log in workdir.glob("*.log"):
                        (args.keep_logs / log.name).write_bytes(log.read_bytes())
            _admin(f"DROP DATABASE IF EXISTS {BENCH_DB} WITH (FORCE)")
            _redis().flushdb()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sizes", help="room sizes in tables, comma-separated, smallest first")
    parser.add_argument("--seconds", type=int, default=45, help="measured seconds a size")
    parser.add_argument(
        "--warmup", type=int, default=10, help="seconds after the clients started, not measured"
    )
    parser.add_argument("--replicas", type=int, choices=(1, 2), default=1)
    parser.add_argument("--phones", type=float, default=21.0, help="phones per table")
    parser.add_argument("--tables-per-screen", type=float, default=10.0)
    parser.add_argument("--tables-per-desk", type=float, default=50.0)
    parser.add_argument("--waiting", type=float, default=0.5, help="list phones per table")
    parser.add_argument("--tap-p99", type=float, default=250.0, help="the taps' p99 target, ms")
    parser.add_argument("--all", action="store_true", help="every size, past a failing one")
    parser.add_argument("--verbose", action="store_true", help="every request name's figures")
    parser.add_argument("--json", type=Path, help="write every figure here")
    parser.add_argument("--keep-logs", type=Path, help="copy the processes' logs here")
    parser.add_argument(
        "--costs",
        type=Path,
        help="first measure each request's CPU in-process (bench/room/costs.py), kept here",
    )
    args = parser.parse_args(argv)
    sizes = sorted(int(size) for size in args.sizes.split(","))
    print(
        f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}; {args.replicas} web "
        f"replica(s); {args.seconds} s a size; target: taps' p99 < {args.tap_p99:.0f} ms and "
        "no failure"
    )
    steps = room_run(sizes, args)
    passed = [step["tables"] for step in steps if step["passed"]]
    print(f"largest passing room: {max(passed) if passed else 'none'} tables")
    if args.json:
        args.json.write_text(json.dumps(steps, indent=1))


if __name__ == "__main__":
    main()
