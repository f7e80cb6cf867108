"""Live pages under load: 1,000 open viewers of 100 live matches on one bot process. Run from
the repository root (Linux: it reads /proc):

    python benchmarks/bench_web_viewers.py [--matches 100] [--viewers 10] [--rate 20]
                                           [--seconds 45] [--languages en] [--profile]
                                           [--tracemalloc]

Three processes, so that each one's CPU is its own: the bot (`python -m bot` on SQLite with
GAMENIGHT_WEB_PORT, started through this file to stamp each commit), the fake Discord and the
driver (this process), and the viewers (a child process of this one, aiohttp clients).

`--matches` Reversi matches are opened by slash commands, their people's moves worked out from
each match's seed (`bench_processes`'s plan). Then the moves are sent at `--rate` a second
for `--seconds` without viewers (the baseline), the viewers connect (`--viewers` a match, each
as a browser does: the page, its picture, then the event stream, each viewer from an address of
its own behind a local reverse proxy, X-Forwarded-For, and in one of `--languages` in turn),
and the same load runs again with them connected. On each event a viewer does what the page's
script does: it fetches the changed part (/live), then the picture that part names.

Commits are stamped in the bot (when the match service's `on_commit` would be called, right
after the write) on the machine's monotonic clock, which the viewers read too. For every commit
of the loaded run and every viewer of its match it prints the time until that viewer received
an event of that version or a later one, until it had fetched the part showing it, and until it
had its picture: p50, p95, p99 and max (goal: the event p99 <= 250 ms). It prints the bot's
RSS before the viewers connect, with all of them connected, and after the moves (goal: growth
<= 60 MB), its picture worker's apart, each process's CPU, and the interaction -> first reply
latency of the moves without and with the viewers (the scale-out figures, README: one process
on SQLite answers 50 actions/s with a p99 of 57-176 ms). A report, never a test threshold.
`--tracemalloc` has the bot trace its Python allocations (slowly) and prints the sites that grew
while the viewers connected and while the moves were viewed.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.bench_load import percentile  # noqa: E402
from benchmarks.bench_processes import (  # noqa: E402
    MB, BotProcess, Load, LoadDiscord, Table, cpu_seconds, free_port, open_tables,
    profile_summary, wait_ready)

LANGUAGE_HEADERS = {"en": "en", "gu": "gu", "zh_CN": "zh-CN", "zh_TW": "zh-TW"}
SETTLE = 5.0  # seconds after the load for the last events to arrive
VERSION = re.compile(rb'class="match" data-version="(\d+)"')
PICTURE = re.compile(rb'<img src="\.\./(m/[^"]+/board\.png\?[^"]+)"')


def now() -> float:
    """The machine's monotonic clock: the same in every process."""
    return time.clock_gettime(time.CLOCK_MONOTONIC)


# -- the bot process, its commits stamped -----------------------------------------------------

def run_stamping_bot(stamps: str) -> int:
    """`python -m bot`, each commit written to `stamps` as "match version time"."""
    from bot.app.main import main
    from bot.matches.core import ServiceCore

    out = open(stamps, "a", buffering=1)
    if os.environ.get("BENCH_TRACEMALLOC"):
        trace_on_signal(os.environ["BENCH_TRACEMALLOC"])
    committed = ServiceCore._committed

    async def stamped(self: ServiceCore, match_id: int) -> Any:
        at = now()  # the write is done: committed
        match = await committed(self, match_id)  # read again, then `on_commit` tells the pages
        out.write(f"{match.id} {match.row.version} {at:.6f} {now():.6f}\n")
        return match

    ServiceCore._committed = stamped  # type: ignore[method-assign]
    return main([])


def trace_on_signal(prefix: str) -> None:
    """--tracemalloc: the bot traces its allocations and writes a snapshot at each SIGUSR1."""
    import tracemalloc

    tracemalloc.start(8)
    taken = [0]

    def dump(*_args: Any) -> None:
        taken[0] += 1
        tracemalloc.take_snapshot().dump(f"{prefix}.{taken[0]}")

    signal.signal(signal.SIGUSR1, dump)


def traced_growth(prefix: str, first: int, second: int, top: int = 25) -> list[str]:
    """The allocation sites that grew most between two snapshots."""
    import tracemalloc

    old = tracemalloc.Snapshot.load(f"{prefix}.{first}")
    new = tracemalloc.Snapshot.load(f"{prefix}.{second}")
    total = sum(s.size for s in new.statistics("filename")) - sum(
        s.size for s in old.statistics("filename"))
    lines = [f"traced Python memory +{total / MB:.1f} MB; the sites that grew most:"]
    for stat in new.compare_to(old, "traceback")[:top]:
        frames = " <- ".join(f"{Path(f.filename).name}:{f.lineno}"
                             for f in list(stat.traceback)[::-1][:5])
        lines.append(f"  {stat.size_diff / MB:+.1f} MB ({stat.count_diff:+d}) {frames}")
    return lines


@dataclass(eq=False)
class StampingBot(BotProcess):
    stamps: str = ""
    web_port: int = 0

    def start(self) -> None:
        self.incarnation += 1
        self.port = free_port()
        log = open(self.logs / f"bot{self.shard}.{self.incarnation}.log", "w")
        env = {**os.environ, **self.env, "GAMENIGHT_METRICS_PORT": str(self.port),
               "GAMENIGHT_WEB_PORT": str(self.web_port),
               "GAMENIGHT_PUBLIC_URL": f"http://127.0.0.1:{self.web_port}"}
        self.popen = subprocess.Popen([sys.executable, __file__, "--as-bot", self.stamps],
                                      cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
        log.close()


def read_stamps(path: str) -> tuple[dict[tuple[int, int], float], list[float]]:
    """Each commit's time, and the ms from it to the pages being told (the service reads the
    match again first)."""
    found, told = {}, []
    for line in Path(path).read_text().splitlines():
        match_id, version, at, then = line.split()
        found[(int(match_id), int(version))] = float(at)
        told.append((float(then) - float(at)) * 1000)
    return found, told


# -- the viewers (a child process) ------------------------------------------------------------

@dataclass(eq=False)
class Viewer:
    token: str
    match_id: int
    language: str
    address: str
    shown: int = -1  # the version its page shows
    events: list[tuple[int, float]] = field(default_factory=list)  # (version, received)
    parts: list[tuple[int, float]] = field(default_factory=list)  # (version shown, fetched)
    pictures: list[tuple[int, float]] = field(default_factory=list)
    failures: Counter = field(default_factory=Counter)


async def fetch(session: Any, url: str, viewer: Viewer) -> bytes | None:
    async with session.get(url) as answer:
        if answer.status != 200:
            viewer.failures[f"{answer.status} {url.rsplit('/', 1)[-1].split('?')[0]}"] += 1
            return None
        return await answer.read()


async def refresh(session: Any, base: str, viewer: Viewer, version: int,
                  lock: asyncio.Lock) -> None:
    """As live.js does: fetch the part if the event is newer than the page (one at a time),
    then the picture it names, as the browser does for the new <img>."""
    if version <= viewer.shown:
        return
    async with lock:
        if version <= viewer.shown:
            return
        html = await fetch(session, f"{base}/m/{viewer.token}/live", viewer)
        found = None if html is None else VERSION.search(html)
        if found is None or int(found[1]) <= viewer.shown:
            return
        viewer.shown = int(found[1])
        viewer.parts.append((viewer.shown, now()))
        picture = PICTURE.search(html)
        if picture is not None:
            png = await fetch(session, f"{base}/{picture[1].decode().replace('&amp;', '&')}",
                              viewer)
            if png is not None:
                viewer.pictures.append((viewer.shown, now()))


async def watch(base: str, viewer: Viewer, opened: asyncio.Semaphore,
                connected: list[int], done: asyncio.Event) -> None:
    import aiohttp

    headers = {"X-Forwarded-For": viewer.address,
               "Accept-Language": LANGUAGE_HEADERS[viewer.language]}
    timeout = aiohttp.ClientTimeout(total=None, sock_read=None, sock_connect=30)
    lock = asyncio.Lock()
    tasks: set[asyncio.Task] = set()
    async with aiohttp.ClientSession(headers=headers, timeout=timeout) as session:
        try:
            async with opened:  # the page, its picture, then the stream, a few at a time
                page = await fetch(session, f"{base}/m/{viewer.token}", viewer)
                found = None if page is None else VERSION.search(page)
                viewer.shown = -1 if found is None else int(found[1])
                picture = None if page is None else PICTURE.search(page)
                if picture is not None:
                    await fetch(session, f"{base}/{picture[1].decode().replace('&amp;', '&')}",
                                viewer)
                stream = await session.get(f"{base}/m/{viewer.token}/events",
                                           headers={"Accept": "text/event-stream"})
            if stream.status != 200:
                viewer.failures[f"{stream.status} events"] += 1
                return
            connected[0] += 1
            reading = asyncio.ensure_future(read_events(stream, base, session, viewer, lock,
                                                        tasks))
            await done.wait()
            reading.cancel()
            stream.close()
            for task in list(tasks):
                task.cancel()
        except (aiohttp.ClientError, OSError, asyncio.TimeoutError) as err:
            viewer.failures[type(err).__name__] += 1


async def read_events(stream: Any, base: str, session: Any, viewer: Viewer,
                      lock: asyncio.Lock, tasks: set[asyncio.Task]) -> None:
    kind, data = "message", ""
    async for raw in stream.content:
        line = raw.decode().rstrip("\r\n")
        if line.startswith("event:"):
            kind = line[6:].strip()
        elif line.startswith("data:"):
            data = line[5:].strip()
        elif not line:
            if kind == "version" and data.isdigit():
                version = int(data)
                viewer.events.append((version, now()))
                task = asyncio.ensure_future(refresh(session, base, viewer, version, lock))
                tasks.add(task)
                task.add_done_callback(tasks.discard)
            kind, data = "message", ""


def viewers_main(base: str, viewers: list[Viewer], pipe: Any) -> None:
    """The child process: connect every viewer, say so, watch until told to stop, hand back
    what each received and when."""
    async def run() -> None:
        loop = asyncio.get_running_loop()
        opened, connected, done = asyncio.Semaphore(40), [0], asyncio.Event()
        started = now()
        tasks = [loop.create_task(watch(base, v, opened, connected, done)) for v in viewers]
        while connected[0] + sum(bool(v.failures) for v in viewers) < len(viewers):
            await asyncio.sleep(0.1)
            if now() - started > 300:
                break
        pipe.send(("connected", connected[0], now() - started))
        await loop.run_in_executor(None, pipe.recv)  # "stop"
        done.set()
        await asyncio.gather(*tasks, return_exceptions=True)

    asyncio.run(run())
    pipe.send(("records", [(v.match_id, v.events, v.parts, v.pictures, dict(v.failures))
                           for v in viewers], time.process_time()))


# -- figures ----------------------------------------------------------------------------------

def first_at(records: list[tuple[int, float]], version: int) -> float | None:
    """When a record of `version` or a later one first came (records in the order they came)."""
    for seen, at in records:
        if seen >= version:
            return at
    return None


def delays(stamps: dict[tuple[int, int], float], records: list, start: float,
           end: float) -> dict[str, Any]:
    """Per commit in [start, end] and viewer of its match: ms to the event, the part, the
    picture; and how many never came."""
    commits: dict[int, list[tuple[int, float]]] = {}
    for (match_id, version), at in stamps.items():
        if start <= at <= end:
            commits.setdefault(match_id, []).append((version, at))
    out: dict[str, Any] = {"event": [], "part": [], "picture": [], "missed": Counter(),
                           "commits": sum(map(len, commits.values()))}
    for match_id, events, parts, pictures, _failures in records:
        for version, at in commits.get(match_id, ()):
            for name, got in (("event", events), ("part", parts), ("picture", pictures)):
                came = first_at(got, version)
                if came is None:
                    out["missed"][name] += 1
                else:
                    out[name].append((came - at) * 1000)
    return out


def spread(ms: list[float]) -> str:
    if not ms:
        return "none"
    return (f"p50 {percentile(ms, .5):.0f} ms, p95 {percentile(ms, .95):.0f} ms, "
            f"p99 {percentile(ms, .99):.0f} ms, max {max(ms):.0f} ms (n={len(ms)})")


def replies(load: Load) -> list[float]:
    return [(a.interaction.answered_at - a.sent) * 1000 for a in load.actions
            if a.interaction is not None and a.interaction.answered_at is not None]


def rss(bot: BotProcess) -> str:
    r = bot.reading()
    return (f"{r['rss'] / MB:.0f} MB (peak {r['peak'] / MB:.0f} MB; its {r['workers']} worker "
            f"process(es) {r['workers_rss'] / MB:.0f} MB)")


def snapshot(bot: BotProcess, args) -> None:
    """--tracemalloc: have the bot write a snapshot of its traced allocations."""
    if args.tracemalloc:
        os.kill(bot.pid, signal.SIGUSR1)


async def sample_lag(bot: BotProcess, lags: list[float]) -> None:
    """The bot's own event loop lag metric, every 2 s."""
    loop = asyncio.get_running_loop()
    while True:
        metrics = await loop.run_in_executor(None, bot.metrics)
        lags.append(metrics.get("gamenight_event_loop_lag_seconds", 0.0))
        await asyncio.sleep(2)


# -- the run ----------------------------------------------------------------------------------

async def run_load(fake: LoadDiscord, service: Any, tables: list[Table], args) -> Load:
    load = Load(fake, service, tables)
    await load.run(args.rate, args.seconds, {})
    return load


async def main(args) -> None:
    from bot.matches.service import MatchService
    from bot.storage.store import Store

    workdir = Path(tempfile.mkdtemp(prefix="bench_web_viewers."))
    location, stamps = str(workdir / "load.db"), str(workdir / "stamps.txt")
    fake = LoadDiscord()
    await fake.start()
    guild = fake.add_guild("Viewers")
    tables = []
    for index in range(args.matches):
        users = [fake.add_user(f"p{index}-{seat}") for seat in range(2)]
        for user in users:
            fake.add_member(guild, user)
        tables.append(Table(index, "reversi", guild, fake.add_channel(guild, f"reversi-{index}"),
                            users, False, 0, by_user={u.id: u for u in users}))
    bot = StampingBot(0, {
        "DISCORD_TOKEN": fake.token, "DISCORD_API_BASE": fake.api_base,
        "GAMENIGHT_DB": location, "GAMENIGHT_COMPUTER_DELAY": "0", "LOG_LEVEL": "WARNING",
        **({"BENCH_TRACEMALLOC": str(workdir / "traced")} if args.tracemalloc else {}),
    }, workdir, stamps=stamps, web_port=free_port())
    print(f"logs and database in {workdir}")
    store = child = spy = None
    try:
        bot.start()
        print(f"bot ready after {await wait_ready(fake, tables, 1):.1f} s")
        store = await Store.open(location)
        service = MatchService(store)
        horizon = int(2 * args.rate * args.seconds / len(tables)) + 6
        await open_tables(fake, service, tables, horizon)
        fake.lighten()
        print(f"{len(tables)} Reversi matches open, {horizon} moves planned in each")

        cpu, worker = cpu_seconds(bot.pid), bot.reading()["workers_cpu"]
        quiet = await run_load(fake, service, tables, args)
        quiet_cpu = cpu_seconds(bot.pid) - cpu
        workers_cpu = [bot.reading()["workers_cpu"] - worker]
        await asyncio.sleep(2)
        before = bot.reading()
        snapshot(bot, args)
        print(f"moves without viewers done; bot RSS {rss(bot)}")

        languages = args.languages.split(",")
        viewers = [Viewer(await store.match_token(t.match_id), t.match_id,
                          languages[n % len(languages)], f"10.{n // 65536 % 256}.{n // 256 % 256}."
                          f"{n % 256}")
                   for n, t in enumerate(t for t in tables for _ in range(args.viewers))]
        base = f"http://127.0.0.1:{bot.web_port}"
        ctx = multiprocessing.get_context("spawn")
        ours, theirs = ctx.Pipe()
        child = ctx.Process(target=viewers_main, args=(base, viewers, theirs), daemon=True)
        cpu = cpu_seconds(bot.pid)
        child.start()
        _, connected, took = await asyncio.get_running_loop().run_in_executor(None, ours.recv)
        connect_cpu = cpu_seconds(bot.pid) - cpu
        await asyncio.sleep(2)
        joined = bot.reading()
        snapshot(bot, args)
        print(f"{connected} of {len(viewers)} viewers connected in {took:.1f} s "
              f"(bot CPU {connect_cpu:.1f} s); bot RSS {rss(bot)}")

        if args.profile:
            spy = subprocess.Popen(
                [str(Path(sys.executable).with_name("py-spy")), "record", "--pid", str(bot.pid),
                 "--duration", str(int(args.seconds)), "--format", "raw", "--threads",
                 "--rate", "50", "--nonblocking", "--output", str(workdir / "profile.txt")],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        cpu, worker = cpu_seconds(bot.pid), bot.reading()["workers_cpu"]
        lags: list[float] = []
        sampling = asyncio.get_running_loop().create_task(sample_lag(bot, lags))
        started = now()
        loaded = await run_load(fake, service, tables, args)
        ended = now()
        sampling.cancel()
        loaded_cpu = cpu_seconds(bot.pid) - cpu
        workers_cpu.append(bot.reading()["workers_cpu"] - worker)
        await asyncio.sleep(SETTLE)
        after = bot.reading()
        snapshot(bot, args)
        ours.send("stop")
        _, records, viewers_cpu = await asyncio.get_running_loop().run_in_executor(
            None, ours.recv)
        child.join(30)
        if spy is not None:
            spy.wait()

        commits, told = read_stamps(stamps)
        found = delays(commits, records, started, ended)
        failures: Counter = Counter()
        for *_, failed in records:
            failures.update(failed)
        print(f"\n1 bot process on SQLite, {len(tables)} Reversi matches, {connected} viewers "
              f"({args.viewers} a match, languages {args.languages}), {os.cpu_count()} CPU cores; "
              f"moves at {args.rate}/s for {args.seconds:.0f} s")
        print(f"commits while viewed: {found['commits']}, each to {args.viewers} viewers")
        print(f"commit -> the pages told (in the bot): {spread(told)}")
        print(f"commit -> event at the viewer: {spread(found['event'])} (goal p99 <= 250 ms)")
        print(f"commit -> changed part fetched: {spread(found['part'])}")
        print(f"commit -> its picture fetched:  {spread(found['picture'])}")
        missed = ", ".join(f"{k} {v}" for k, v in found["missed"].items()) or "none"
        print(f"never came: {missed}; viewers' failed requests: "
              + (", ".join(f"{k} {v}" for k, v in failures.most_common(5)) or "none"))
        print(f"bot RSS: {before['rss'] / MB:.0f} MB before the viewers, "
              f"{joined['rss'] / MB:.0f} MB with them connected, {after['rss'] / MB:.0f} MB after "
              f"the moves: +{(after['rss'] - before['rss']) / MB:.0f} MB (goal <= 60 MB); its "
              f"worker processes {before['workers_rss'] / MB:.0f} -> "
              f"{after['workers_rss'] / MB:.0f} MB")
        print(f"bot's picture worker CPU: {workers_cpu[0]:.1f} s without viewers, "
              f"{workers_cpu[1]:.1f} s with them; event loop lag (its metric, every 2 s) at most "
              f"{max(lags, default=0) * 1000:.0f} ms with them; load average "
              f"{os.getloadavg()[0]:.1f} (other work on the machine)")
        for label, load, spent in (("without viewers", quiet, quiet_cpu),
                                   ("with the viewers", loaded, loaded_cpu)):
            ms = replies(load)
            print(f"interaction -> first reply {label}: {spread(ms)}; "
                  f"{len(load.actions) / args.seconds:.1f} actions/s, bot CPU {spent:.1f} s "
                  f"({100 * spent / args.seconds:.0f}% of a core)")
        print("  (scale-out figures, README: one process on SQLite, 50 actions/s, p99 57-176 ms)")
        print(f"viewers' process CPU: {viewers_cpu:.1f} s")
        if args.tracemalloc:
            await asyncio.sleep(5)  # the snapshots written
            for first, second, label in ((1, 2, "connecting"), (2, 3, "the moves viewed")):
                print(f"{label}: " + "\n".join(traced_growth(str(workdir / "traced"), first,
                                                            second)))
        profile = workdir / "profile.txt"
        if profile.exists():
            print("where the bot's CPU went with the viewers (py-spy samples, all threads):")
            for line in profile_summary(profile):
                print("  " + line)
    finally:
        if child is not None and child.is_alive():
            child.kill()
        bot.stop()
        if store is not None:
            await store.close()
        await fake.stop()


if __name__ == "__main__":
    if sys.argv[1:2] == ["--as-bot"]:
        sys.exit(run_stamping_bot(sys.argv[2]))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--viewers", type=int, default=10, help="viewers of each match")
    parser.add_argument("--rate", type=float, default=20.0, help="moves a second, all matches")
    parser.add_argument("--seconds", type=float, default=45.0, help="each run's length")
    parser.add_argument("--languages", default="en",
                        help="the viewers' languages, in turn (en,gu,zh_CN,zh_TW)")
    parser.add_argument("--tracemalloc", action="store_true",
                        help="trace the bot's allocations; print where its memory grew")
    parser.add_argument("--profile", action="store_true",
                        help="sample the bot with py-spy while viewed (pip install py-spy)")
    asyncio.run(main(parser.parse_args()))
