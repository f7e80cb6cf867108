"""`/match replay`: frames, bytes and seconds of the animated GIF of whole matches played by
easy computers (a long Dou Dizhu series of four players included), as the worker process
draws it (bot/workers/replay_animation.py), against Discord's 10 MB upload limit.

    python benchmarks/bench_replays.py [--language zh-TW] [--rounds 10]
"""

from __future__ import annotations

import argparse
import io
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from PIL import Image  # noqa: E402

from bot.workers.replay_animation import animate  # noqa: E402
from i18n import LANGUAGES  # noqa: E402
from render.replay import MAX_BYTES, frame_ms  # noqa: E402
from tests.games.playouts import played  # noqa: E402

NAMES = ["Alice", "Bob", "Carol", "Dave"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--language", default="en", choices=list(LANGUAGES))
    parser.add_argument("--rounds", type=int, default=10, help="rounds of the long series")
    args = parser.parse_args()
    matches = [("reversi", 2, 1), ("scrabble", 2, 1), ("scrabble", 4, 1), ("patchwork", 2, 1),
               ("doudizhu", 3, 3), ("doudizhu", 4, args.rounds)]
    print(f"{'game':<14}{'moves':>6}{'frames':>7}{'size':>10}{'bytes':>11}{'ms/frame':>9}"
          f"{'seconds':>9}  limit")
    for game, players, rounds in matches:
        log = played(game, players, 7, rounds)
        started = time.perf_counter()
        gif = animate(game, players, 7, None, list(log), NAMES[:players], args.language)
        seconds = time.perf_counter() - started
        image = Image.open(io.BytesIO(gif))
        size = "x".join(map(str, image.size))
        share = f"{len(gif) / MAX_BYTES:.0%}"
        print(f"{game + ' ' + str(players):<14}{len(log):>6}{image.n_frames:>7}{size:>10}"
              f"{len(gif):>11,}{frame_ms(len(log)):>9}{seconds:>9.2f}  {share}")


if __name__ == "__main__":
    main()
