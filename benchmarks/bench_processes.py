"""Bot processes under load: real `python -m bot` processes against one fake Discord, on SQLite
or PostgreSQL, optionally one of them killed with SIGKILL mid-load. Run from the repository
root (Linux: it reads /proc):

    python benchmarks/bench_processes.py [--processes 1] [--db sqlite] [--matches 1000]
                                         [--rate 50] [--seconds 60] [--computers 0.05]
    python benchmarks/bench_processes.py --processes 2 --db postgresql [--pg URL]
    python benchmarks/bench_processes.py --processes 2 --db postgresql --kill [--kill-at 20]
    python benchmarks/bench_processes.py --kill --kills 4 [--kill-every 15] [--rate 30]

The fake Discord runs in this process; each bot process runs one of `--processes` shards
(`GAMENIGHT_SHARDS`, `GAMENIGHT_SHARD_IDS`), and the servers are spread evenly over the shards.
`--matches` matches are opened in their own channels (Reversi, Scrabble and Patchwork in turn,
two people each; a share `--computers` of them Reversi against an easy computer). Then, for
`--seconds`, actions are sent at `--rate` a second whatever the answers, each the legal move of
the seat to act in a match not waiting for an answer, round robin. The people's moves are worked
out before the load from each match's seed (`bench_load`'s moves), so choosing them costs the
load nothing; against a computer the state is read from the database.

Latency is from sending the interaction to the bot's first callback (its answer or "thinking").
An action is acknowledged when its answer is public, refused when it is private (the reason is
counted). Afterwards every acknowledged action must be in the move log at its place with the
state it made, and every match must replay from its log to its stored state
(`MatchService.replay`): what is not is lost. With `--kill`, the process holding the timekeeper
lease (or the only one) gets SIGKILL at `--kill-at` seconds and is started again with the same
shards `--restart-after` seconds later, the load going on (`--kills` times, `--kill-every`
seconds apart): it prints how long its servers got no answer, how long until a live process
held the lease, and how many matches had a move saved but not shown at each kill, how many of
them show it after the restart, and how many boards were posted twice in a row.

It prints each bot process's RSS (now and peak, VmRSS and VmHWM) and CPU time, its computer
workers apart, this process's (the fake Discord) and PostgreSQL's CPU, and the bots' own
metrics (database write time, event loop lag).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter, deque
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import games.patchwork as patchwork  # noqa: E402
import games.reversi as reversi  # noqa: E402
import games.scrabble as scrabble  # noqa: E402
from benchmarks.bench_load import percentile  # noqa: E402
from bot.matches.engines import engine_for  # noqa: E402
from bot.matches.service import MatchService
from bot.storage.store import Store  # noqa: E402
from bot.matches.timekeeper import LEASE  # noqa: E402
from games.replay import first_state  # noqa: E402
from tests.fakediscord import FakeDiscord, FakeInteraction  # noqa: E402

MB = 1024 * 1024
TICK = os.sysconf("SC_CLK_TCK")
GAMES = ("reversi", "scrabble", "patchwork")
ANSWER_WAIT = 15.0  # seconds without a first answer: never answered
SETTLE_WAIT = 15.0  # seconds for a "thinking..." answer to become the real one


# -- moves ------------------------------------------------------------------------------------

def choose(game: str, state: Any, seat: int) -> tuple[str, dict, Any]:
    """The slash command, its options and the engine's move: `bench_load.command_for`'s choice
    (a middling Scrabble play keeps games long; Patchwork's first legal move)."""
    if game == "reversi":
        move = reversi.legal_moves(state, seat)[0]
        return "reversi move", {"square": str(move)}, move
    if game == "scrabble":
        plays = scrabble.scored_plays(state, seat)
        if (state.pending is not None and state.pending.final) or not plays:
            return "scrabble pass", {}, scrabble.Pass()
        play = plays[len(plays) // 2][1]
        return ("scrabble play", {"word": play.word, "square": play.square,
                                  "direction": play.direction}, play)
    move = patchwork.legal_moves(state, seat)[0]
    if isinstance(move, patchwork.Place):
        return "patchwork place", {"square": move.square}, move
    if isinstance(move, patchwork.Buy):
        return "patchwork buy", {"patch": move.choice, "square": move.square,
                                 "orientation": move.orientation}, move
    return "patchwork pass", {}, move


def digest(state: Any) -> str:
    return hashlib.sha1(json.dumps(state.to_dict(), sort_keys=True).encode()).hexdigest()


def plan_moves(game: str, players: int, seed: int, options: dict | None,
               count: int) -> list[tuple[int, str, dict, str]]:
    """The first `count` actions of a people's match: (seat, command, options, digest of the
    state after it). Run in a helper process, before the load."""
    engine = engine_for(game)
    state = first_state(engine, players, seed, options)
    planned = []
    while len(planned) < count and engine.outcome(state) is None:
        seat = engine.current_seat(state)
        command, chosen, move = choose(game, state, seat)
        state = engine.apply(state, seat, move)
        planned.append((seat, command, chosen, digest(state)))
    return planned


# -- the world --------------------------------------------------------------------------------

@dataclass(eq=False)
class Table:
    """One match in its channel, and what the load does with it."""

    index: int
    game: str
    guild: Any
    channel: Any
    users: list[Any]
    computer: bool
    shard: int
    match_id: int = 0
    by_user: dict[int, Any] = field(default_factory=dict)
    seat_users: dict[int, Any] = field(default_factory=dict)
    moves: list[tuple[int, str, dict, str]] = field(default_factory=list)
    next: int = 0  # the planned move to send next (= moves in the log, for people's matches)
    busy: bool = False


@dataclass(eq=False)
class Action:
    table: Table
    ply: int  # its place in the move log (1 = first)
    seat: int
    after: str  # digest of the state it makes
    sent: float
    interaction: FakeInteraction | None = None
    outcome: str = ""  # acknowledged | refused | unanswered | undelivered
    reason: str = ""


SNOWFLAKES = re.compile(r"\d{6,}")
TOKENS = re.compile(r"(?<=/interactions/\{id\}/)[^/]+|(?<=/webhooks/\{id\}/)[^/]+")


def route(method: str, path: str) -> str:
    """A request's route, ids and interaction tokens left out: `POST /webhooks/{id}/{token}`."""
    return f"{method} {TOKENS.sub('{token}', SNOWFLAKES.sub('{id}', path))}"


class LoadDiscord(FakeDiscord):
    """The fake Discord, kept light: attachment bytes, request payloads and old events are
    dropped as the load goes (the bots run elsewhere; this process only counts)."""

    def __init__(self) -> None:
        super().__init__()
        self.statuses: Counter[int] = Counter()
        self.routes: Counter[str] = Counter()  # "PATCH /channels/{id}/messages/{id}"
        self.requests_seen = 0

    def lighten(self) -> None:
        for attachment in self._attachments.values():
            attachment.data = attachment.data[:24]
        log, self.request_log = self.request_log, [r for r in self.request_log if r.status is None]
        for record in log:
            if record.status is not None:
                self.statuses[record.status] += 1
                self.routes[route(record.method, record.path)] += 1
                self.requests_seen += 1
        self._events.clear()


def guilds_on_shards(fake: FakeDiscord, shards: int, per_shard: int) -> list[list[Any]]:
    """`per_shard` servers on each shard (a server's shard is (id >> 22) % shards)."""
    found: list[list[Any]] = [[] for _ in range(shards)]
    while any(len(g) < per_shard for g in found):
        guild = fake.add_guild(f"Server {sum(map(len, found))}")
        shard = (guild.id >> 22) % shards
        if len(found[shard]) < per_shard:
            found[shard].append(guild)
        if shards > 1:
            fake._last_id += random.randint(1, 3) << 22  # the next id on another shard
    return found


def build_tables(fake: FakeDiscord, args) -> list[Table]:
    shards = args.processes
    per_shard = max(1, args.guilds // shards)
    guilds = guilds_on_shards(fake, shards, per_shard)
    every = round(1 / args.computers) if args.computers else 0
    tables = []
    for index in range(args.matches):
        shard = index % shards
        guild = guilds[shard][(index // shards) % per_shard]
        computer = bool(every) and index % every == every - 1
        game = "reversi" if computer else GAMES[index % len(GAMES)]
        channel = fake.add_channel(guild, f"{game}-{index}")
        users = []
        for seat in range(1 if computer else 2):
            user = fake.add_user(f"p{index}-{seat}")
            fake.add_member(guild, user)
            users.append(user)
        tables.append(Table(index, game, guild, channel, users, computer, shard,
                            by_user={u.id: u for u in users}))
    return tables


# -- the bot processes ------------------------------------------------------------------------

def proc_status(pid: int) -> dict[str, int]:
    """VmRSS and VmHWM in bytes; {} when the process is gone."""
    out = {}
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                out[key] = int(value.split()[0]) * 1024
    except OSError:
        pass
    return out


def cpu_seconds(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICK  # utime + stime


def descendants(pid: int) -> list[int]:
    """The process's children, theirs, and so on (the computer workers are the forkserver's)."""
    try:
        found = [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []
    return found + [d for child in found for d in descendants(child)]


def worker_kind(pid: int, bot_pid: int) -> str:
    """What a bot's child process does: the forkserver is the bot's own child, and of its
    children the computers think at a lower priority (bot/workers/computer_moves.py) than
    pictures are drawn."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return "gone"
    if int(stat[1]) == bot_pid:
        return "forkserver"
    return "computer" if int(stat[16]) > 0 else "pictures"


def postgres_cpu() -> float:
    """CPU seconds of every PostgreSQL server process on this machine."""
    total = 0.0
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                if (entry / "comm").read_text().strip() == "postgres":
                    total += cpu_seconds(int(entry.name))
    return total


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass(eq=False)
class BotProcess:
    """`python -m bot` on one shard; started again (a new incarnation) after a kill."""

    shard: int
    env: dict[str, str]
    logs: Path
    popen: subprocess.Popen | None = None
    port: int = 0
    incarnation: int = 0
    base_cpu: float = 0.0  # CPU seconds when the load began
    last: dict[str, float] = field(default_factory=dict)  # the last reading of a victim

    def start(self) -> None:
        self.incarnation += 1
        self.port = free_port()
        log = open(self.logs / f"bot{self.shard}.{self.incarnation}.log", "w")
        env = {**os.environ, **self.env, "GAMENIGHT_METRICS_PORT": str(self.port)}
        self.popen = subprocess.Popen([sys.executable, "-m", "bot"], cwd=ROOT, env=env,
                                      stdout=log, stderr=subprocess.STDOUT)
        log.close()

    @property
    def pid(self) -> int:
        assert self.popen is not None
        return self.popen.pid

    def reading(self) -> dict[str, float]:
        status = proc_status(self.pid)
        workers = descendants(self.pid)
        return {"rss": status.get("VmRSS", 0), "peak": status.get("VmHWM", 0),
                "cpu": cpu_seconds(self.pid),
                "workers_rss": sum(proc_status(w).get("VmRSS", 0) for w in workers),
                "workers_cpu": sum(cpu_seconds(w) for w in workers), "workers": len(workers),
                "each": ", ".join(f"{worker_kind(w, self.pid)} "
                                  f"{proc_status(w).get('VmRSS', 0) / MB:.0f} MB" for w in workers)}

    def kill(self) -> None:
        self.last = self.reading()
        self.popen.send_signal(signal.SIGKILL)
        self.popen.wait()

    def stop(self) -> None:
        if self.popen is not None and self.popen.poll() is None:
            self.popen.send_signal(signal.SIGINT)
            try:
                self.popen.wait(15)
            except subprocess.TimeoutExpired:
                self.popen.kill()
                self.popen.wait()

    def metrics(self) -> dict[str, float]:
        """The bot's Prometheus counters and sums (histogram buckets left out)."""
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/metrics", timeout=60) as r:
                text = r.read().decode()
        except OSError:
            return {}
        out: dict[str, float] = {}
        for line in text.splitlines():
            if line.startswith("#") or "_bucket" in line or not line.strip():
                continue
            name, _, value = line.rpartition(" ")
            base = name.split("{")[0]
            with contextlib.suppress(ValueError):
                out[base] = out.get(base, 0.0) + float(value)
        return out


# -- driving ----------------------------------------------------------------------------------

async def answered(it: FakeInteraction, wait: float = ANSWER_WAIT) -> bool:
    try:
        await asyncio.wait_for(it.answered.wait(), wait)
        return True
    except asyncio.TimeoutError:
        return False


async def settled(it: FakeInteraction) -> None:
    """Until a "thinking..." answer became the real one, or a private one followed it (polled:
    the fake cannot see another process's work)."""
    deadline = time.perf_counter() + SETTLE_WAIT
    while it.response_type == 5 and time.perf_counter() < deadline:
        original = it.original
        if it.followups or (original is not None and not original.loading
                            and not original.deleted):
            return
        await asyncio.sleep(0.02)


def privately(it: FakeInteraction) -> str | None:
    """The words of the private answer, if the bot refused the action: its answer was private,
    or its "thinking..." was removed for a private follow-up."""
    original = it.original
    if original is None or not (original.ephemeral or original.deleted):
        return None
    private = [m for m in (original, *it.followups) if m.ephemeral]
    return private[0].text()[:70] if private else "(answer removed)"


async def until_answered(fake, user, channel, command: str, **options) -> FakeInteraction:
    """A lobby command, sent again until some process answers it (start-up, restarts)."""
    for _ in range(60):
        with contextlib.suppress(RuntimeError, LookupError):  # no process there, no commands
            it = await fake.slash_nowait(user, channel, command, **options)
            if await answered(it):
                await settled(it)
                return it
        await asyncio.sleep(1)
    raise RuntimeError(f"nobody answered /{command} in {channel.name}")


async def wait_ready(fake: FakeDiscord, tables: list[Table], shards: int) -> float:
    """Until every shard answers a command; the seconds that took."""
    started = time.perf_counter()
    probes = {}
    for table in tables:
        probes.setdefault(table.shard, table)
    for table in probes.values():
        await until_answered(fake, table.users[0], table.channel, "match list")
    return time.perf_counter() - started


async def open_table(fake, table: Table, gate: asyncio.Semaphore) -> None:
    async with gate:
        options = {"players": 2} if table.game == "scrabble" else {}
        first = table.users[0]
        it = await until_answered(fake, first, table.channel, f"{table.game} new", **options)
        if privately(it):
            raise RuntimeError(f"{table.channel.name}: {privately(it)}")
        if table.computer:
            it = await until_answered(fake, first, table.channel, "match addbot", level="easy")
        else:
            it = await until_answered(fake, table.users[1], table.channel, "match join")
        if privately(it):
            raise RuntimeError(f"{table.channel.name}: {privately(it)}")


async def open_tables(fake, service: MatchService, tables: list[Table], horizon: int) -> None:
    gate = asyncio.Semaphore(12)
    await asyncio.gather(*(open_table(fake, t, gate) for t in tables))
    for table in tables:
        match = await service.current(table.channel.id)
        assert match is not None and match.status == "active", table.channel.name
        table.match_id = match.id
        table.seat_users = {s.seat: table.by_user[s.user_id] for s in match.seats
                            if s.kind == "user"}
    loop = asyncio.get_running_loop()
    with ProcessPoolExecutor(max_workers=2) as pool:
        jobs = []
        for table in tables:
            if table.computer:
                continue
            match = await service.get(table.match_id)
            jobs.append((table, loop.run_in_executor(
                pool, plan_moves, table.game, len(match.seats), match.row.seed,
                match.engine_options, horizon)))
        for table, job in jobs:
            table.moves = await job


class Load:
    """Sends actions at a fixed rate and keeps what became of each."""

    def __init__(self, fake: LoadDiscord, service: MatchService, tables: list[Table]) -> None:
        self.fake, self.service = fake, service
        self.ring = deque(tables)
        self.actions: list[Action] = []
        self.tasks: set[asyncio.Task] = set()
        self.behind = 0  # ticks with no match free to act in
        self.exhausted = 0  # people's matches past their planned moves

    async def run(self, rate: float, seconds: float, events: dict[float, Any]) -> float:
        loop = asyncio.get_running_loop()
        start = loop.time()
        due = dict(events)
        for tick in range(int(rate * seconds)):
            at = start + tick / rate
            for when in sorted(w for w in due if start + w <= loop.time()):
                due.pop(when)()
            delay = at - loop.time()
            if delay > 0:
                await asyncio.sleep(delay)
            table = self.free_table()
            if table is None:
                self.behind += 1
                continue
            table.busy = True
            task = loop.create_task(self.act(table))
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)
            if tick % 100 == 0:
                self.fake.lighten()
        elapsed = loop.time() - start
        while self.tasks:
            await asyncio.gather(*list(self.tasks))
        self.fake.lighten()
        return elapsed

    def free_table(self) -> Table | None:
        for _ in range(len(self.ring)):
            table = self.ring[0]
            self.ring.rotate(-1)
            if table.busy:
                continue
            if not table.computer and table.next >= len(table.moves):
                continue
            return table
        return None

    async def act(self, table: Table) -> None:
        try:
            if table.computer:
                planned = await self.computer_move(table)
            else:
                seat, command, options, after = table.moves[table.next]
                planned = Action(table, table.next + 1, seat, after, 0.0), command, options
            if planned is not None:
                await self.send(*planned)
        finally:
            table.busy = False

    async def computer_move(self, table: Table) -> tuple[Action, str, dict] | None:
        """The person's move against the computer, from the database (None: the computer's
        turn, or the match is over)."""
        match = await self.service.get(table.match_id)
        if match is None or match.status != "active":
            return None
        seat = match.current_seat()
        if seat is None or match.player(seat).kind != "user":
            return None
        plies = len(await self.service.store.moves(match.id))
        command, options, move = choose(table.game, match.state, seat)
        after = digest(match.engine.apply(match.state, seat, move))
        return Action(table, plies + 1, seat, after, 0.0), command, options

    async def send(self, action: Action, command: str, options: dict) -> None:
        table = action.table
        self.actions.append(action)
        action.sent = time.perf_counter()
        try:
            it = await self.fake.slash_nowait(table.seat_users[action.seat], table.channel,
                                              command, **options)
        except RuntimeError:  # no live process runs the server's shard
            action.outcome = "undelivered"
            return
        action.interaction = it
        if not await answered(it):
            action.outcome = "unanswered"
            await self.resync(table)
            return
        await settled(it)
        reason = privately(it)
        if reason is None:
            action.outcome = "acknowledged"
            if not table.computer:
                table.next += 1
        else:
            action.outcome, action.reason = "refused", reason
            await self.resync(table)

    async def resync(self, table: Table) -> None:
        """After no answer or a refusal: go on from what the move log holds."""
        if not table.computer:
            logged = len(await self.service.store.moves(table.match_id))
            table.next = min(logged, len(table.moves))


# -- checking ---------------------------------------------------------------------------------

async def check(service: MatchService, tables: list[Table], actions: list[Action]) -> dict:
    """Acknowledged actions missing from the move log (or making another state there), and
    matches whose log does not replay to their stored state."""
    logs: dict[int, list[str]] = {}
    seats: dict[int, list[int | None]] = {}
    unreplayable = []
    for table in tables:
        match = await service.get(table.match_id)
        steps = await service.steps(match)
        logs[table.match_id] = [digest(step.after) for step in steps]
        seats[table.match_id] = [step.seat for step in steps]
        replayed = await service.replay(table.match_id)
        if replayed.to_dict() != match.state.to_dict():
            unreplayable.append(table.match_id)
    lost = []
    applied_unanswered = 0
    for action in actions:
        log = logs[action.table.match_id]
        kept = (action.ply <= len(log) and log[action.ply - 1] == action.after
                and seats[action.table.match_id][action.ply - 1] == action.seat)
        if action.outcome == "acknowledged" and not kept:
            lost.append(action)
        elif action.outcome == "unanswered" and kept:
            applied_unanswered += 1
    return {"lost": lost, "unreplayable": unreplayable, "applied_unanswered": applied_unanswered,
            "moves": sum(map(len, logs.values()))}


# -- the run ----------------------------------------------------------------------------------

async def create_schema(url: str, schema: str, drop: bool = False) -> None:
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        await conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        if not drop:
            await conn.execute(f'CREATE SCHEMA "{schema}"')
    finally:
        await conn.close()


class LeaseWatch:
    """Who holds the timekeeper lease, read every half second (PostgreSQL)."""

    def __init__(self, store: Store, bots: list[BotProcess]) -> None:
        self.store, self.bots = store, bots
        self.killed_at: float | None = None
        self.victim_owner: str | None = None
        self.taken: tuple[float, str] | None = None
        self.task: asyncio.Task | None = None

    def holder(self, owner: str) -> BotProcess | None:
        pid = int(owner.split(":")[1])
        return next((b for b in self.bots if b.popen and b.popen.pid == pid), None)

    async def current(self) -> str | None:
        found = await self.store.lease(LEASE)
        return None if found is None or found[1] < time.time() else found[0]

    async def watch(self) -> None:
        while self.taken is None:
            await asyncio.sleep(0.5)
            owner = await self.current()
            if self.killed_at is not None and owner and owner != self.victim_owner:
                bot = self.holder(owner)
                self.taken = (time.perf_counter() - self.killed_at,
                              f"shard {bot.shard} process #{bot.incarnation}" if bot else owner)


def shard_outage(actions: list[Action], shard: int, killed_at: float) -> tuple[float, int]:
    """Seconds from the kill to the first answered action on `shard` sent after it, and the
    actions on it sent meanwhile that got no answer."""
    after = [a for a in actions if a.table.shard == shard and a.sent >= killed_at]
    missed = 0
    for action in sorted(after, key=lambda a: a.sent):
        if action.outcome in ("acknowledged", "refused"):
            return action.interaction.answered_at - killed_at, missed
        missed += 1
    return float("nan"), missed


CATEGORIES = (  # where a sample's time goes: the first of these that a frame of its stack is in
    ("drawing (render/, Pillow)", ("render/", "PIL/")),
    ("database (bot/storage/, aiosqlite, asyncpg)",
     ("bot/storage/", "aiosqlite", "asyncpg", "sqlite3")),
    ("engines (games/)", ("games/",)),
    ("Discord HTTP and gateway (discord.py, aiohttp)", ("discord/", "aiohttp/", "yarl/")),
    ("words (i18n/, Babel)", ("i18n/", "babel/")),
    ("the rest of bot/", ("bot/",)),
)


IDLE = ("select (selectors.py", "_connection_worker_thread (aiosqlite/core.py:59)",
        "_worker (concurrent/futures/thread.py:81)", "Condition.wait (threading.py")


def profile_summary(path: Path) -> list[str]:
    """py-spy's raw stacks as shares of the samples per category, leaving out threads waiting
    for work (py-spy records them when it does not pause the process)."""
    shares: Counter[str] = Counter()
    total = 0
    for line in path.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        if not count.isdigit() or any(mark in stack.rpartition(";")[2] for mark in IDLE):
            continue
        total += int(count)
        frames = stack.split(";")[::-1]
        shares[next((name for name, marks in CATEGORIES
                     if any(m in f for f in frames for m in marks)), "other (asyncio, Python)")
               ] += int(count)
    return [f"{100 * n / total:4.0f}% {name}" for name, n in shares.most_common()] if total else []


def windows(actions: list[Action], seconds: float) -> list[list[float]]:
    """First-reply times in ms, by `seconds` of sending (empty windows left out)."""
    start = min(a.sent for a in actions)
    found: dict[int, list[float]] = {}
    for a in actions:
        if a.interaction is not None and a.interaction.answered_at is not None:
            found.setdefault(int((a.sent - start) // seconds), []).append(
                (a.interaction.answered_at - a.sent) * 1000)
    return [found[k] for k in sorted(found)]


def report(args, load: Load, bots: list[BotProcess], readings: dict, checked: dict,
           elapsed: float, cpu: dict, kill: dict) -> None:
    actions = load.actions
    outcomes = Counter(a.outcome for a in actions)
    ms = [(a.interaction.answered_at - a.sent) * 1000 for a in actions
          if a.interaction is not None and a.interaction.answered_at is not None]
    print(f"\n{args.processes} bot process(es) on {args.db}, {len(load.ring)} matches "
          f"({args.computers:.0%} against a computer), {os.cpu_count()} CPU cores")
    print(f"sent {len(actions)} actions in {elapsed:.1f} s ({len(actions) / elapsed:.1f}/s; "
          f"target {args.rate}/s; {load.behind} ticks found no match free)")
    print("outcomes: " + ", ".join(f"{k} {v}" for k, v in outcomes.most_common()))
    for reason, count in Counter(a.reason for a in actions if a.reason).most_common(5):
        print(f"  refused {count}x: {reason!r}")
    if ms:
        print(f"interaction -> first reply: p50 {percentile(ms, .5):.0f} ms, "
              f"p95 {percentile(ms, .95):.0f} ms, p99 {percentile(ms, .99):.0f} ms, "
              f"max {max(ms):.0f} ms (goal p99 <= 250 ms)")
        print("  p50 / p99 by 10 s of the load: " + "  ".join(
            f"{percentile(w, .5):.0f}/{percentile(w, .99):.0f}" for w in windows(actions, 10)))
    print(f"lost (acknowledged, not in the move log as acknowledged): {len(checked['lost'])}; "
          f"matches not replaying to their state: {len(checked['unreplayable'])}; "
          f"unanswered but applied: {checked['applied_unanswered']}; "
          f"moves in the logs: {checked['moves']}")
    for action in checked["lost"][:5]:
        print(f"  lost: match {action.table.match_id} ply {action.ply} seat {action.seat}")
    print(f"Discord requests: {load.fake.requests_seen} "
          f"({load.fake.requests_seen / max(1, len(actions)):.1f} per action); statuses "
          + ", ".join(f"{s}: {n}" for s, n in sorted(load.fake.statuses.items())))
    print("  by route: " + ", ".join(f"{route} {n / max(1, len(actions)):.2f}"
                                     for route, n in load.fake.routes.most_common(6)))
    for bot in bots:
        r = readings[bot.shard]
        print(f"bot shard {bot.shard} (process #{bot.incarnation}): RSS {r['rss'] / MB:.0f} MB, "
              f"peak {r['peak'] / MB:.0f} MB (goal <= 300 MB); CPU {r['cpu_load']:.1f} s in the "
              f"load ({100 * r['cpu_load'] / elapsed:.0f}% of a core); {r['workers']} child "
              f"processes: RSS {r['workers_rss'] / MB:.0f} MB, CPU {r['workers_cpu']:.1f} s "
              f"({r['each']})")
        if bot.last:
            print(f"  killed process: RSS {bot.last['rss'] / MB:.0f} MB, peak "
                  f"{bot.last['peak'] / MB:.0f} MB, CPU {bot.last['cpu']:.1f} s when killed")
        if r.get("profile"):
            print("  where its CPU went (py-spy samples, all threads):")
            for line in r["profile"]:
                print("    " + line)
        m = r["metrics"]
        if m.get("gamenight_db_write_seconds_count"):
            write = m["gamenight_db_write_seconds_sum"] / m["gamenight_db_write_seconds_count"]
            reply = (m.get("gamenight_interaction_reply_seconds_sum", 0)
                     / max(1, m.get("gamenight_interaction_reply_seconds_count", 1)))
            print(f"  its metrics since it started: {m['gamenight_db_write_seconds_count']:.0f} "
                  f"match writes, {write * 1000:.1f} ms each on average; interaction received "
                  f"-> first response sent {reply * 1000:.0f} ms on average")
    print(f"this process (fake Discord, driver): CPU {cpu['self']:.1f} s "
          f"({100 * cpu['self'] / elapsed:.0f}% of a core)"
          + (f"; PostgreSQL: CPU {cpu['postgres']:.1f} s "
             f"({100 * cpu['postgres'] / elapsed:.0f}% of a core)" if args.db == "postgresql"
             else ""))
    if kill:
        print(f"kill -9 of shard {kill['shard']} at {args.kill_at:.0f} s "
              f"({'it held' if kill['held'] else 'it did not hold'} the timekeeper lease), "
              f"restarted {args.restart_after:.0f} s later:")
        print(f"  its servers got no answer for {kill['outage']:.1f} s "
              f"({kill['missed']} actions meanwhile without an answer)")
        if kill["held"]:
            taken = kill["taken"]
            print("  lease taken over " + (f"after {taken[0]:.1f} s by {taken[1]}" if taken
                                           else "not within the run"))


async def owed_now(store: Store) -> dict[int, int]:
    """The matches owing a board (a change saved, its board not shown), with their version."""
    owed = {}
    for match_id in await store.owed_boards():
        row = await store.get_match(match_id)
        if row is not None:
            owed[match_id] = row.version
    return owed


SETTLE = 60  # seconds to wait after the load for the boards owed at the last kill


async def shows(store: Store, match_id: int, version: int) -> bool:
    board = await store.board(match_id)
    return board.version is not None and board.version >= version


async def report_owed(store: Store, fake: LoadDiscord, tables: list[Table],
                      snapshots: list[asyncio.Task]) -> None:
    """Moves saved but not shown when a process was killed: how many got their board after
    its restart, and how many boards were posted twice (two identical posts in a row)."""
    owed_at = [await snapshot for snapshot in snapshots]
    last = owed_at[-1] if owed_at else {}
    for _ in range(SETTLE):  # the last restart's boards may still be on their way
        if all([await shows(store, match_id, version) for match_id, version in last.items()]):
            break
        await asyncio.sleep(1)
    total = shown = 0
    for n, owed in enumerate(owed_at, 1):
        caught = sum([await shows(store, match_id, version)
                      for match_id, version in owed.items()])
        total, shown = total + len(owed), shown + caught
        print(f"  kill {n}: {len(owed)} match(es) with a move saved but not shown; "
              f"{caught} of them show it (or a later one) now")
    twice = 0
    for table in tables:
        texts = [m.text() for m in fake.messages(table.channel) if m.author.bot]
        twice += sum(a == b for a, b in zip(texts, texts[1:]))
    print(f"moves saved but not shown at the kills: {total}; shown after the restarts: {shown}; "
          f"boards posted twice in a row: {twice}")


async def main(args) -> None:
    workdir = Path(tempfile.mkdtemp(prefix="bench_processes."))
    if args.db == "sqlite":
        location, schema = str(workdir / "load.db"), None
    else:
        schema = f"bench_processes_{os.getpid()}"
        await create_schema(args.pg, schema)
        location = f"{args.pg}{'&' if '?' in args.pg else '?'}search_path={schema}"
    fake = LoadDiscord()
    await fake.start()
    tables = build_tables(fake, args)
    bots = [BotProcess(shard, {
        "DISCORD_TOKEN": fake.token, "DISCORD_API_BASE": fake.api_base,
        "GAMENIGHT_DB": location, "GAMENIGHT_SHARDS": str(args.processes),
        "GAMENIGHT_SHARD_IDS": str(shard), "GAMENIGHT_COMPUTER_DELAY": "0",
        "GAMENIGHT_COMPUTER_WORKERS": str(args.workers), "LOG_LEVEL": args.log_level,
    }, workdir) for shard in range(args.processes)]
    print(f"logs and database in {workdir}")
    store = None
    try:
        for bot in bots:
            bot.start()
        print(f"bots ready after {await wait_ready(fake, tables, args.processes):.1f} s")
        store = await Store.open(location)
        service = MatchService(store)
        started = time.perf_counter()
        horizon = int(3 * args.rate * args.seconds / max(1, len(tables))) + 6
        await open_tables(fake, service, tables, horizon)
        fake.lighten()
        print(f"{len(tables)} matches open and their moves planned after "
              f"{time.perf_counter() - started:.0f} s")
        for bot in bots:
            bot.base_cpu = bot.reading()["cpu"]
        fake.statuses.clear()  # count the load's requests only
        fake.routes.clear()
        fake.requests_seen = 0
        load = Load(fake, service, tables)
        kill: dict = {}
        events = {}
        watch = LeaseWatch(store, bots)
        if args.kill:
            held = await watch.current()  # on SQLite nobody: the one process keeps time
            holder = watch.holder(held) if held else None
            victim = holder or bots[0]

            def kill_victim() -> None:
                first = not kill
                if first:
                    kill.update(shard=victim.shard, held=holder is victim)
                    watch.victim_owner = held
                pid = victim.pid
                victim.kill()
                if first:
                    watch.killed_at = kill["at"] = time.perf_counter()
                kill.setdefault("owed", []).append(  # saved, not shown when it died
                    asyncio.get_running_loop().create_task(owed_now(store)))
                print(f"killed shard {victim.shard} (pid {pid})")

            def restart() -> None:
                victim.start()
                print(f"restarted shard {victim.shard} as pid {victim.pid}")

            for n in range(args.kills):
                at = args.kill_at + n * args.kill_every
                events[at], events[at + args.restart_after] = kill_victim, restart
            if args.processes > 1:
                watch.task = asyncio.get_running_loop().create_task(watch.watch())
        spies = [subprocess.Popen(
            [str(Path(sys.executable).with_name("py-spy")), "record", "--pid", str(bot.pid), "--duration", str(int(args.seconds)),
             "--format", "raw", "--threads", "--rate", "50", "--nonblocking",
             "--output", str(workdir / f"profile{bot.shard}.txt"),
             *(["--gil"] if args.gil else [])],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for bot in bots
            if args.profile]
        self_cpu, pg_cpu = time.process_time(), postgres_cpu()
        elapsed = await load.run(args.rate, args.seconds, events)
        cpu = {"self": time.process_time() - self_cpu, "postgres": postgres_cpu() - pg_cpu}
        for spy in spies:
            spy.wait()
        if watch.task is not None:
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(watch.task, args.lease_wait)
            watch.task.cancel()
        readings = {}
        for bot in bots:
            reading = bot.reading()
            reading["cpu_load"] = reading["cpu"] - (0 if bot.last else bot.base_cpu)
            reading["metrics"] = bot.metrics()
            profile = workdir / f"profile{bot.shard}.txt"
            reading["profile"] = profile_summary(profile) if profile.exists() else []
            readings[bot.shard] = reading
        if kill:
            kill["outage"], kill["missed"] = shard_outage(load.actions, kill["shard"], kill["at"])
            kill["taken"] = watch.taken
        checked = await check(service, tables, load.actions)
        report(args, load, bots, readings, checked, elapsed, cpu, kill)
        if kill:
            await report_owed(store, fake, tables, kill["owed"])
    finally:
        for bot in bots:
            bot.stop()
        if store is not None:
            await store.close()
        await fake.stop()
        if schema is not None and not args.keep:
            await create_schema(args.pg, schema, drop=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--processes", type=int, default=1, help="bot processes, one shard each")
    parser.add_argument("--db", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--pg", default=os.environ.get(
        "GAMENIGHT_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test"),
        help="the PostgreSQL database (a schema of its own is made and dropped)")
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument("--guilds", type=int, default=20, help="servers, spread over the shards")
    parser.add_argument("--computers", type=float, default=0.05,
                        help="share of matches against an easy computer (Reversi)")
    parser.add_argument("--rate", type=float, default=50.0, help="actions a second")
    parser.add_argument("--seconds", type=float, default=60.0, help="how long the load lasts")
    parser.add_argument("--workers", type=int, default=1,
                        help="GAMENIGHT_COMPUTER_WORKERS of each process")
    parser.add_argument("--log-level", default="WARNING")
    parser.add_argument("--kill", action="store_true",
                        help="SIGKILL the lease holder mid-load and start it again")
    parser.add_argument("--kill-at", type=float, default=20.0)
    parser.add_argument("--restart-after", type=float, default=2.0)
    parser.add_argument("--kills", type=int, default=1, help="how many times to kill it")
    parser.add_argument("--kill-every", type=float, default=15.0,
                        help="seconds between the kills")
    parser.add_argument("--lease-wait", type=float, default=60.0,
                        help="seconds after the load to wait for the lease to be taken over")
    parser.add_argument("--profile", action="store_true",
                        help="sample each bot process with py-spy during the load (pip install "
                             "py-spy) and say where its CPU went")
    parser.add_argument("--gil", action="store_true",
                        help="with --profile, sample only the thread holding the interpreter "
                             "lock: the work a process cannot spread over its cores")
    parser.add_argument("--keep", action="store_true", help="keep the PostgreSQL schema")
    arguments = parser.parse_args()
    if arguments.processes > 1 and arguments.db == "sqlite":
        parser.error("several processes need --db postgresql")
    asyncio.run(main(arguments))
