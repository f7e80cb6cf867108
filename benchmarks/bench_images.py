"""Every picture the bot draws, at its worst case (tests/render/samples.py): dimensions, bytes,
median render time, and how it looks on a 390-px-wide phone (render/phone.py): the scale
Discord shows it at and the smallest text once shown. Then the Patchwork full table render:
cold, the same view again, and a whole game's states in turn.

    python benchmarks/bench_images.py [--runs N] [--language zh-TW]

`--language` draws the same pictures with their labels in that language (en, zh-TW, zh-CN, gu).
"""

from __future__ import annotations

import argparse
import io
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from PIL import Image  # noqa: E402

from i18n import LANGUAGES, voice  # noqa: E402
from render.phone import MIN_TEXT, shown_scale  # noqa: E402
import games.patchwork as pw  # noqa: E402
from render.patchwork import render_game  # noqa: E402
from tests.render.samples import (  # noqa: E402
    LONG_NAMES,
    drawn,
    patchwork_late,
    patchwork_states,
    samples,
)


def median_ms(draw: Callable[[], bytes], runs: int) -> tuple[float, float]:
    """Median wall-clock and CPU milliseconds per call (CPU time is steadier on a shared box)."""
    draw()  # warm the font and layer caches
    wall, cpu = [], []
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), time.process_time()
        draw()
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return statistics.median(wall) * 1000, statistics.median(cpu) * 1000


def patchwork_figures(runs: int) -> None:
    """The Patchwork full table three ways: the first render in a fresh process (nothing cached),
    the same late view again and again, and every state of a seeded game in turn (what the bot
    does: one quilt or the circle changes, the rest is cached)."""
    code = ("import time, sys; sys.path.insert(0, '.');"
            "from tests.render.samples import *;"
            "v = pw.view(patchwork_late(patchwork_states()), 0);"
            "t = time.perf_counter(); render_game(v, LONG_NAMES);"
            "print((time.perf_counter() - t) * 1000)")
    root = Path(__file__).resolve().parent.parent
    cold = [float(subprocess.run([sys.executable, "-c", code], cwd=root, check=True,
                                 capture_output=True, text=True).stdout) for _ in range(5)]
    print(f"\nPatchwork full table, first render in a process: median {statistics.median(cold):.1f} ms"
          f" (5 processes)")
    states = patchwork_states()
    late = pw.view(patchwork_late(states), 0)
    wall, cpu = median_ms(partial(render_game, late, LONG_NAMES), runs)
    print(f"Patchwork full table, the same late view again: median {wall:.1f} ms "
          f"(cpu {cpu:.1f} ms) over {runs} runs")
    views = [pw.view(state, None) for state in states]
    wall_times, cpu_times = [], []
    for view in views:
        start, start_cpu = time.perf_counter(), time.process_time()
        render_game(view, LONG_NAMES)
        wall_times.append(time.perf_counter() - start)
        cpu_times.append(time.process_time() - start_cpu)
    print(f"Patchwork full table, each of a game's {len(views)} states in turn: median "
          f"{statistics.median(wall_times) * 1000:.1f} ms (cpu "
          f"{statistics.median(cpu_times) * 1000:.1f} ms), slowest {max(wall_times) * 1000:.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--language", default="en", choices=sorted(LANGUAGES))
    args = parser.parse_args()
    print(f"{'image':<44}{'size':>11}{'bytes':>9}{'wall':>10}{'cpu':>9}{'shown':>7}{'min text':>10}")
    for label, draw in samples(voice(args.language)):
        png, texts = drawn(draw)
        with Image.open(io.BytesIO(png)) as image:
            width, height = image.size
        scale = shown_scale(width, height)
        smallest = min((size for size, _ in texts), default=0) * scale
        flag = "" if smallest >= MIN_TEXT else "  < rule"
        wall, cpu = median_ms(draw, args.runs)
        print(f"{label:<44}{f'{width}x{height}':>11}{len(png):>9,}"
              f"{wall:>8.1f}ms{cpu:>7.1f}ms{scale:>7.2f}{smallest:>8.1f}px{flag}")
    patchwork_figures(max(args.runs, 40))


if __name__ == "__main__":
    main()
