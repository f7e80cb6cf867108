"""Every picture in every language: the median CPU time to draw it, and how it compares with
the English picture (text in Chinese or Gujarati is drawn in fallback fonts and shaped).

    python benchmarks/bench_languages.py [--runs N]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from i18n import LANGUAGES, voice  # noqa: E402
from tests.render.samples import samples  # noqa: E402


def cpu_ms(draw, runs: int) -> float:
    draw()  # warm the caches, as a running bot has them
    times = []
    for _ in range(runs):
        start = time.process_time()
        draw()
        times.append(time.process_time() - start)
    return statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=21)
    args = parser.parse_args()
    langs = list(LANGUAGES)
    table = {lang: {label: cpu_ms(draw, args.runs) for label, draw in samples(voice(lang))}
             for lang in langs}
    print(f"{'image (CPU ms, median)':<44}" + "".join(f"{lang:>16}" for lang in langs))
    for label, english in table["en"].items():
        cells = [f"{english:>16.2f}"] + [
            f"{table[lang][label]:>8.2f} ({table[lang][label] / english - 1:+4.0%})"
            for lang in langs[1:]]
        print(f"{label:<44}" + "".join(cells))


if __name__ == "__main__":
    main()
