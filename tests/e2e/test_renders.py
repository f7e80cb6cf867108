"""Pictures drawn in worker processes: the same bytes as drawn in the bot's process, in the
reader's language, and a worker that dies is replaced."""

from __future__ import annotations

import asyncio
import os
import pickle
import signal

import pytest

import games.reversi as reversi
from bot.workers.pools import process_pool
from bot.workers.pictures import Renders
from i18n import PSEUDO, voice
from render.reversi import render_board
from tests.e2e_helpers import board_message, fake_world, png_size, running_bot


def test_a_voice_goes_to_another_process_by_its_language():
    for lang in ("en", "zh-TW", "gu", PSEUDO):
        assert pickle.loads(pickle.dumps(voice(lang))) is voice(lang)


async def test_a_picture_drawn_in_a_worker_is_the_one_drawn_here_and_a_dead_worker_is_replaced(
        monkeypatch):
    import bot.workers.pictures

    pools = []

    def counted(workers, initializer):
        pools.append(process_pool(workers, initializer))
        return pools[-1]

    monkeypatch.setattr(bot.workers.pictures, "process_pool", counted)
    view = reversi.view(reversi.new_game(2, seed=3))
    renders = Renders()
    renders.use(1)
    try:
        await renders.start()
        worker = await renders.draw(os.getpid)
        assert worker != os.getpid()
        chinese = voice("zh-TW")
        assert await renders.draw(render_board, view, chinese) == render_board(view, chinese)

        os.kill(worker, signal.SIGKILL)  # killed (out of memory, say): the pictures still come
        drawn = await asyncio.gather(*(renders.draw(render_board, view, chinese)
                                       for _ in range(4)))
        assert drawn == [render_board(view, chinese)] * 4
        assert await renders.draw(os.getpid) not in (worker, os.getpid())
        assert len(pools) == 2  # one fresh pool, however many pictures found the worker dead
    finally:
        renders.close()


@pytest.mark.e2e
async def test_the_bot_posts_boards_drawn_by_its_workers(tmp_path, monkeypatch):
    import bot.workers.pictures

    pools = []

    def recorded(workers, initializer):
        pools.append(workers)
        return process_pool(workers, initializer)

    monkeypatch.setattr(bot.workers.pictures, "process_pool", recorded)
    async with fake_world("reversi", ("alice", "bob")) as (fake, guild, channel, users):
        async with running_bot(fake, tmp_path / "g.db", guild.id, render_workers="2"):
            lobby = await fake.slash(users["alice"], channel, "reversi new")
            joined = await fake.click(users["bob"], lobby.message, label="Join")
            board = board_message(joined)
            assert png_size(board.attachments[0].data)[0] in range(600, 801)
    assert pools == [2]
    assert bot.workers.pictures.RENDERS.workers == 0  # the bot closed: its workers stopped
