"""Memory of one bot process on SQLite with many active matches, through the fake Discord.
Run from the repository root (Linux: it reads /proc):

    python benchmarks/bench_memory.py [--matches 320] [--games reversi,scrabble,patchwork]
                                      [--actions 2000] [--players 2000] [--trace]
                                      [--locales en-US,zh-TW,zh-CN,gu] [--names]

Matches of the games are opened in turn (each in its own channel, seated from `--players`
people, none with DMs closed, their Discord set to `--locales` in turn, their display names
in Chinese, Gujarati and Latin with `--names`) and then played one action at a time, round robin, with
`bench_load`'s moves. It prints the process's resident memory (RSS, and the peak so far) after
the first N matches of each game are open and while they are played, the time from each
interaction to its first reply (the callback reaching Discord) and to the bot being idle, and
the computer players' worker processes apart (none run unless a match seats a computer).

The fake Discord runs in this process too: it is kept light (attachment bytes, request
payloads and finished interactions are dropped after each action), and the benchmark chooses
its moves in a helper process (Scrabble's move generator would otherwise count), so the figure
is the bot's. At the end it prints the Pillow images and FreeType faces alive, the sizes of the renderers'
and engines' caches, and how much malloc_trim gives back; `--trace` adds tracemalloc
(slower): the Python heap by line.
"""

from __future__ import annotations

import argparse
import asyncio
import ctypes
import functools
import gc
import statistics
import sys
import tempfile
import time
import tracemalloc
from concurrent.futures import ProcessPoolExecutor
from collections import Counter
from pathlib import Path

from PIL import Image, ImageFont

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.bench_load import (  # noqa: E402
    Tables, command_for, parse_games, percentile)
from bot.matches.engines import engine_for  # noqa: E402
from tests.e2e_helpers import running_bot  # noqa: E402
from tests.fakediscord import FakeDiscord  # noqa: E402

MB = 1024 * 1024


def status(pid: int | str = "self") -> dict[str, int]:
    """VmRSS and VmHWM (peak RSS) of a process, in bytes."""
    out = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            out[key] = int(value.split()[0]) * 1024
    return out


def reset_peak() -> None:
    """Start VmHWM again from the current RSS (Linux: clear_refs 5)."""
    try:
        Path("/proc/self/clear_refs").write_text("5")
    except OSError:
        pass


def worker_pids(bot) -> list[int]:
    executor = getattr(bot.computers, "_executor", None)
    processes = getattr(executor, "_processes", None) or {}
    return list(processes)


def memory_line(label: str, bot) -> str:
    gc.collect()
    own = status()
    line = f"{label}: RSS {own['VmRSS'] / MB:.0f} MB (peak {own['VmHWM'] / MB:.0f} MB)"
    workers = [status(pid) for pid in worker_pids(bot)]
    if workers:
        line += (f"; {len(workers)} computer workers: RSS "
                 + ", ".join(f"{w['VmRSS'] / MB:.0f}" for w in workers) + " MB")
    if tracemalloc.is_tracing():
        current, peak = tracemalloc.get_traced_memory()
        line += f"; Python heap {current / MB:.0f} MB (peak {peak / MB:.0f} MB)"
    return line


class TimedDiscord(FakeDiscord):
    """The fake Discord, noting when each interaction got its first reply, and forgetting
    what the benchmark does not need (it shares the bot's process)."""

    def __init__(self) -> None:
        super().__init__()
        self.replied: dict[int, float] = {}

    async def _r_callback(self, request, payload, files, iid, token):
        self.replied.setdefault(int(iid), time.perf_counter())
        return await super()._r_callback(request, payload, files, iid, token)

    def lighten(self) -> None:
        for attachment in self._attachments.values():
            attachment.data = attachment.data[:24]  # the PNG header keeps its size
        for record in self.request_log:
            record.payload = None
        self._interactions.clear()
        self._interactions_by_token.clear()
        self._events.clear()


HAN, GUJARATI = "王李张刘陈杨黄赵吴周徐孙马朱胡林明华强伟芳娜静丽敏", "કખગચજટડતદનપબમરલવસહ"


def name_in_script(number: int) -> str:
    """A display name: a third Chinese, a third Gujarati, a third Latin, all different."""
    script = (HAN, GUJARATI, None)[number % 3]
    if script is None:
        return f"Player {number}"
    first, second = divmod(number // 3, len(script))
    return script[first % len(script)] + script[second] + script[(first + second) % len(script)]


def choose(game: str, state: dict, seat: int) -> tuple[str, dict]:
    """bench_load's move, in the helper process."""
    return command_for(game, engine_for(game).State.from_dict(state), seat)


async def act(fake: TimedDiscord, helper, tables: Tables, index: int,
              times: tuple[list[float], list[float]]) -> None:
    game, channel, users = tables.tables[index]
    match = await tables.bot.service.current(channel.id)
    if match is None or match.status != "active":
        await tables.open(index, channel)
        fake.lighten()
        return
    seat = match.current_seat()
    if seat is None:
        return
    loop = asyncio.get_running_loop()
    command, options = await loop.run_in_executor(helper, choose, game, match.row.state, seat)
    start = time.perf_counter()
    result = await fake.slash(users[match.player(seat).user_id], channel, command, **options)
    done = time.perf_counter()
    first = fake.replied.pop(result.interaction.id, done)
    times[0].append(first - start)
    times[1].append(done - start)
    fake.lighten()


def cache_sizes() -> list[tuple[str, int, int | None]]:
    """(function, entries, maxsize) of every lru_cache in render/, games/, bot/ and i18n/."""
    found = []
    for obj in gc.get_objects():
        if isinstance(obj, functools._lru_cache_wrapper):
            module = getattr(obj, "__module__", "") or ""
            if module.split(".")[0] in ("render", "games", "bot", "i18n"):
                info = obj.cache_info()
                found.append((f"{module}.{obj.__qualname__}", info.currsize, info.maxsize))
    return sorted(found, key=lambda row: -row[1])


def print_trace() -> None:
    snapshot = tracemalloc.take_snapshot().filter_traces(
        [tracemalloc.Filter(False, tracemalloc.__file__)])
    print("Python heap by line (top 25):")
    for stat in snapshot.statistics("lineno")[:25]:
        frame = stat.traceback[0]
        print(f"  {stat.size / MB:7.1f} MB {stat.count:8d}  {frame.filename}:{frame.lineno}")
    print("Python heap by file (top 15):")
    for stat in snapshot.statistics("filename")[:15]:
        print(f"  {stat.size / MB:7.1f} MB  {stat.traceback[0].filename}")


def print_holdings() -> None:
    """What lives outside the Python heap (Pillow pixels, FreeType faces) and the caches."""
    objects = gc.get_objects()
    images = [obj for obj in objects if isinstance(obj, Image.Image)]
    pixels = sum(image.width * image.height * (1 if image.mode in ("1", "L", "P") else 4)
                 for image in images)
    print(f"Pillow images alive: {len(images)}, {pixels / MB:.1f} MB of pixels")
    faces = Counter(str(obj.path) for obj in objects if isinstance(obj, ImageFont.FreeTypeFont))
    print(f"FreeType faces open: {sum(faces.values())} ("
          + ", ".join(f"{n}x {Path(path).name}" for path, n in faces.most_common()) + ")")
    print("caches (entries / max):")
    for name, size, maxsize in cache_sizes():
        if size:
            print(f"  {size:6d} / {maxsize}  {name}")
    del objects, images
    gc.collect()
    before = status()["VmRSS"]
    trimmed = trim()
    print(f"malloc_trim gave back {(before - status()['VmRSS']) / MB:.0f} MB "
          f"(freed memory the C heap kept{'' if trimmed else '; none'})")
    before = status()["VmRSS"]
    for wrapper in (obj for obj in gc.get_objects()
                    if isinstance(obj, functools._lru_cache_wrapper)):
        if (getattr(wrapper, "__module__", "") or "").split(".")[0] in ("render", "games"):
            wrapper.cache_clear()
    gc.collect()
    trim()
    print(f"emptying the renderers' and engines' caches gave back "
          f"{(before - status()['VmRSS']) / MB:.0f} MB")


def trim() -> int:
    return ctypes.CDLL("libc.so.6").malloc_trim(0) if sys.platform == "linux" else 0


async def main(args) -> None:
    if args.trace:
        tracemalloc.start()
    fake = TimedDiscord()
    await fake.start()
    helper = ProcessPoolExecutor(max_workers=1)
    times: tuple[list[float], list[float]] = ([], [])
    try:
        guild = fake.add_guild("Memory")
        with tempfile.TemporaryDirectory() as folder:
            async with running_bot(fake, Path(folder) / "memory.db", guild.id) as bot:
                print(memory_line("bot started", bot))
                tables = Tables(fake, guild, bot, args.players, 0.0, games=args.games)
                for number, user in enumerate(tables.people):
                    user.locale = args.locales[number % len(args.locales)]
                    if args.names:
                        user.global_name = name_in_script(number)
                per_game = len(args.games)
                marks = sorted({n for n in (1, 10, 100, args.matches // per_game)
                                if n * per_game <= args.matches})
                for index in range(args.matches):
                    await tables.open(index)
                    fake.lighten()
                    opened = index + 1
                    if opened % per_game == 0 and opened // per_game in marks:
                        print(memory_line(f"{opened // per_game} of each game open", bot))
                reset_peak()
                played = 0
                while played < args.actions:
                    for index in range(len(tables.tables)):
                        await act(fake, helper, tables, index, times)
                        played += 1
                        if played % args.every == 0 or played == args.actions:
                            print(memory_line(f"{played} actions played", bot))
                        if played >= args.actions:
                            break
                if args.trace:
                    print_trace()
                print_holdings()
    finally:
        helper.shutdown()
        await fake.stop()
    first, idle = ([t * 1000 for t in series] for series in times)
    print(f"{args.matches} matches ({', '.join(g for g, _ in args.games)}), "
          f"{len(first)} actions")
    print(f"interaction -> first reply: median {statistics.median(first):.1f} ms, "
          f"p99 {percentile(first, 0.99):.1f} ms, max {max(first):.1f} ms")
    print(f"interaction -> bot idle: median {statistics.median(idle):.1f} ms, "
          f"p99 {percentile(idle, 0.99):.1f} ms, max {max(idle):.1f} ms")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=320, help="matches open at once")
    parser.add_argument("--games", type=parse_games,
                        default=parse_games("reversi,scrabble,patchwork"),
                        help="the games opened in turn")
    parser.add_argument("--actions", type=int, default=2000)
    parser.add_argument("--every", type=int, default=500, help="actions between RSS lines")
    parser.add_argument("--players", type=int, default=2000, help="the people seated")
    parser.add_argument("--locales", type=lambda text: text.split(","), default=["en-US"],
                        help="the players' Discord languages, in turn (e.g. en-US,zh-TW,gu)")
    parser.add_argument("--names", action="store_true",
                        help="display names in Chinese, Gujarati and Latin, in turn")
    parser.add_argument("--trace", action="store_true", help="tracemalloc and cache sizes")
    asyncio.run(main(parser.parse_args()))
