"""Every picture the bot draws, at its worst case (tests/render_samples.py): dimensions, bytes,
median render time, and how it looks on a 390-px-wide phone (render/phone.py): the scale
Discord shows it at and the smallest text once shown. Then the Patchwork full table render on
its own, with more runs.

    python benchmarks/bench_images.py [--runs N]
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from PIL import Image  # noqa: E402

from render.phone import MIN_TEXT, shown_scale  # noqa: E402
from tests.render_samples import drawn, samples  # noqa: E402


def median_ms(draw: Callable[[], bytes], runs: int) -> float:
    draw()  # warm the font and layer caches
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        draw()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    print(f"{'image':<44}{'size':>11}{'bytes':>9}{'median':>10}{'shown':>7}{'min text':>10}")
    table = None
    for label, draw in samples():
        png, texts = drawn(draw)
        with Image.open(io.BytesIO(png)) as image:
            width, height = image.size
        scale = shown_scale(width, height)
        smallest = min((size for size, _ in texts), default=0) * scale
        flag = "" if smallest >= MIN_TEXT else "  < rule"
        print(f"{label:<44}{f'{width}x{height}':>11}{len(png):>9,}"
              f"{median_ms(draw, args.runs):>8.1f}ms{scale:>7.2f}{smallest:>8.1f}px{flag}")
        if label.startswith("patchwork table, late"):
            table = draw
    if table is not None:
        runs = max(args.runs, 40)
        print(f"\nPatchwork full table render (late game): median {median_ms(table, runs):.1f} ms "
              f"over {runs} runs")


if __name__ == "__main__":
    main()
