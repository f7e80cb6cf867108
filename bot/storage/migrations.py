"""The numbered migrations: the schema, one script per version, the same SQL on SQLite and
PostgreSQL (bot/storage/database.py gives each script the types PostgreSQL needs and keeps
the version)."""

from __future__ import annotations

from bot.storage.database import Database

MIGRATIONS: tuple[str, ...] = (
    # 1: matches, seats, moves
    """
    CREATE TABLE matches (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        guild_id INTEGER,
        channel_id INTEGER NOT NULL,
        game TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('lobby', 'active', 'finished', 'cancelled')),
        options TEXT NOT NULL DEFAULT '{}',
        seed INTEGER NOT NULL,
        state TEXT,
        version INTEGER NOT NULL DEFAULT 0,
        creator_id INTEGER NOT NULL,
        invited_id INTEGER,
        lobby_message_id INTEGER,
        board_message_id INTEGER,
        result TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
    );
    CREATE UNIQUE INDEX one_open_match_per_channel
        ON matches (channel_id) WHERE status IN ('lobby', 'active');
    CREATE INDEX matches_by_status ON matches (status);
    CREATE TABLE seats (
        match_id INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        kind TEXT NOT NULL DEFAULT 'user' CHECK (kind IN ('user', 'computer')),
        user_id INTEGER,
        name TEXT NOT NULL,
        PRIMARY KEY (match_id, seat)
    );
    CREATE TABLE moves (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        match_id INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
        ply INTEGER NOT NULL,
        seat INTEGER,
        action TEXT NOT NULL,
        created_at TEXT NOT NULL,
        UNIQUE (match_id, ply)
    );
    CREATE TRIGGER moves_are_append_only_update BEFORE UPDATE ON moves
        BEGIN SELECT RAISE(ABORT, 'the move log is append-only'); END;
    CREATE TRIGGER moves_are_append_only_delete BEFORE DELETE ON moves
        BEGIN SELECT RAISE(ABORT, 'the move log is append-only'); END;
    """,
    # 2: which players were told in the channel that their DMs are closed (once per match)
    """
    CREATE TABLE dm_notices (
        match_id INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (match_id, seat)
    );
    """,
    # 3: each player's one live DM per match (hand or rack with its controls), edited in place
    """
    CREATE TABLE live_dms (
        match_id INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        channel_id INTEGER NOT NULL,
        message_id INTEGER NOT NULL,
        version INTEGER NOT NULL,
        prompt INTEGER NOT NULL DEFAULT 0,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (match_id, seat)
    );
    """,
    # 4: users who refused a DM (closed DMs), per user and across matches, with the time
    """
    CREATE TABLE dms_closed (
        user_id INTEGER PRIMARY KEY,
        refused_at TEXT NOT NULL
    );
    """,
    # 5: how many DMs in a row each closed-DM user refused (the retry wait doubles each time)
    """
    ALTER TABLE dms_closed ADD COLUMN refusals INTEGER NOT NULL DEFAULT 1;
    CREATE TABLE dm_retries (
        match_id INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (match_id, seat)
    );
    """,
    # 6: a computer seat's level (easy, normal, hard); NULL for a person
    """
    ALTER TABLE seats ADD COLUMN level TEXT;
    """,
    # 7: turn clocks. Times are seconds since the epoch from the bot's clock. `turn_since`:
    # when the match last changed (the seat to act has had the turn since); `human_at`: when
    # a person last acted; `reminded`: the version whose turn was reminded at half time. A
    # seat is `away` ('away': a computer plays its turns; 'once': this turn only). Servers'
    # defaults, people's reminder choice, and when the bot was last seen running.
    """
    ALTER TABLE matches ADD COLUMN turn_seconds INTEGER;
    ALTER TABLE matches ADD COLUMN on_timeout TEXT NOT NULL DEFAULT 'computer';
    ALTER TABLE matches ADD COLUMN lobby_seconds INTEGER;
    ALTER TABLE matches ADD COLUMN turn_since REAL;
    ALTER TABLE matches ADD COLUMN human_at REAL;
    ALTER TABLE matches ADD COLUMN reminded INTEGER;
    UPDATE matches SET turn_since = CAST(strftime('%s', 'now') AS REAL),
        human_at = CAST(strftime('%s', 'now') AS REAL) WHERE status IN ('lobby', 'active');
    ALTER TABLE seats ADD COLUMN away TEXT;
    CREATE TABLE guild_settings (
        guild_id INTEGER PRIMARY KEY,
        turn_time TEXT,
        on_timeout TEXT,
        lobby_time TEXT
    );
    CREATE TABLE user_settings (
        user_id INTEGER PRIMARY KEY,
        notify INTEGER NOT NULL DEFAULT 1
    );
    CREATE TABLE bot_state (
        key TEXT PRIMARY KEY,
        value REAL NOT NULL
    );
    """,
    # 8: languages. A server's default language, a person's own choice, and the language of
    # the Discord client they last used (to word their DMs when they are not asking).
    """
    ALTER TABLE guild_settings ADD COLUMN language TEXT;
    ALTER TABLE user_settings ADD COLUMN language TEXT;
    ALTER TABLE user_settings ADD COLUMN client_language TEXT;
    """,
    # 9: records. Who made each move (`person`, `computer`, or `clock` for a turn that timed
    # out; NULL before records were kept). `records`: one row per finished match in the order
    # they finished (`seq`), rated or not and why; `results`: each seat's place, score and
    # highlights; `ratings`: openskill's skill per server, game, season (`all` or `2026-Q4`)
    # and person; `rating_changes`: each rated match's all-time change, for the charts.
    """
    ALTER TABLE moves ADD COLUMN actor TEXT;
    CREATE TABLE records (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        match_id INTEGER NOT NULL UNIQUE REFERENCES matches (id) ON DELETE CASCADE,
        guild_id INTEGER,
        game TEXT NOT NULL,
        unrated TEXT,
        finished_at TEXT NOT NULL
    );
    CREATE INDEX records_by_guild ON records (guild_id, seq);
    CREATE TABLE results (
        match_id INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        seq INTEGER NOT NULL,
        guild_id INTEGER,
        game TEXT NOT NULL,
        user_id INTEGER,
        place INTEGER NOT NULL,
        score INTEGER NOT NULL,
        won INTEGER NOT NULL,
        rated INTEGER NOT NULL,
        turns INTEGER NOT NULL,
        seconds REAL NOT NULL,
        highlights TEXT NOT NULL,
        PRIMARY KEY (match_id, seat)
    );
    CREATE INDEX results_by_player ON results (guild_id, user_id, game, seq);
    CREATE TABLE ratings (
        guild_id INTEGER NOT NULL,
        game TEXT NOT NULL,
        season TEXT NOT NULL,
        user_id INTEGER NOT NULL,
        name TEXT NOT NULL,
        mu REAL NOT NULL,
        sigma REAL NOT NULL,
        display INTEGER NOT NULL,
        games INTEGER NOT NULL,
        wins INTEGER NOT NULL,
        PRIMARY KEY (guild_id, game, season, user_id)
    );
    CREATE INDEX ratings_board ON ratings (guild_id, game, season, display DESC, games DESC);
    CREATE TABLE rating_changes (
        match_id INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
        user_id INTEGER NOT NULL,
        seq INTEGER NOT NULL,
        guild_id INTEGER NOT NULL,
        game TEXT NOT NULL,
        before INTEGER NOT NULL,
        after INTEGER NOT NULL,
        PRIMARY KEY (match_id, user_id)
    );
    CREATE INDEX rating_changes_by_player ON rating_changes (guild_id, game, user_id, seq);
    """,
    # 10: leases. Work that one process does for all that share the database (the turn clocks
    # and the computers' turns: `timekeeper`) belongs to the `owner` of its lease until
    # `expires_at` (seconds since the epoch, the bot's clock); the owner renews it well before
    # then, and once it lapses (its owner died) another process takes it.
    """
    CREATE TABLE leases (
        name TEXT PRIMARY KEY,
        owner TEXT NOT NULL,
        expires_at REAL NOT NULL
    );
    """,
    # 11: the match version the board message (`board_message_id`) shows. Several processes
    # may post a match's boards: a board is recorded only over an older one, so a process can
    # tell that its board came too late (bot/commands/game.py).
    """
    ALTER TABLE matches ADD COLUMN board_version INTEGER;
    """,
    # 12: the server's and channel's names when the match was opened, for DMs worded by a
    # process that does not serve that server (bot/ui/dms.py).
    """
    ALTER TABLE matches ADD COLUMN server_name TEXT;
    ALTER TABLE matches ADD COLUMN channel_name TEXT;
    """,
    # 13: the version whose board is owed (`board_due`): that of the last change a board
    # shows (a start, a move). A match whose recorded board (`board_version`) is older had a
    # change saved but never shown, as when the process died in between: its board is posted
    # at start-up (bot/ui/turn_clocks.py). Changes no board shows (a seat away or back) leave
    # it as it was.
    """
    ALTER TABLE matches ADD COLUMN board_due INTEGER;
    """,
    # 14: game nights (bot/nights/). A night's row holds its plan and where it is (`status`,
    # `round`, the round's deadline `round_due`, seconds since the epoch), bumping `version`
    # on every change like a match; its players are who signed up (on the card or the Discord
    # event) and whether they checked in; its tables are every round's seating with the match
    # each one became and its result; its log keeps what hosts overrode. Seasons are a
    # server's own, else the calendar quarters.
    """
    CREATE TABLE nights (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        guild_id INTEGER NOT NULL,
        channel_id INTEGER NOT NULL,
        host_id INTEGER NOT NULL,
        game TEXT NOT NULL,
        format TEXT NOT NULL,
        options TEXT NOT NULL DEFAULT '{}',
        start_at REAL NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('scheduled', 'checkin', 'running', 'finished',
                                               'cancelled')),
        paused INTEGER NOT NULL DEFAULT 0,
        round INTEGER NOT NULL DEFAULT 0,
        round_due REAL,
        seed INTEGER NOT NULL,
        event_id INTEGER,
        card_message_id INTEGER,
        round_message_id INTEGER,
        version INTEGER NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
    );
    CREATE INDEX nights_by_guild ON nights (guild_id, status);
    CREATE TABLE night_players (
        night_id INTEGER NOT NULL REFERENCES nights (id) ON DELETE CASCADE,
        user_id INTEGER NOT NULL,
        name TEXT NOT NULL,
        signed_card INTEGER NOT NULL DEFAULT 0,
        signed_event INTEGER NOT NULL DEFAULT 0,
        opted_out INTEGER NOT NULL DEFAULT 0,
        checked_in INTEGER NOT NULL DEFAULT 0,
        pinged INTEGER NOT NULL DEFAULT 0,
        state TEXT NOT NULL DEFAULT 'signed',
        joined_round INTEGER,
        rating REAL,
        PRIMARY KEY (night_id, user_id)
    );
    CREATE TABLE night_tables (
        night_id INTEGER NOT NULL REFERENCES nights (id) ON DELETE CASCADE,
        round INTEGER NOT NULL,
        number INTEGER NOT NULL,
        players TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('pending', 'playing', 'done', 'bye', 'out')),
        thread_id INTEGER,
        match_id INTEGER,
        result TEXT,
        PRIMARY KEY (night_id, round, number)
    );
    CREATE INDEX night_tables_by_match ON night_tables (match_id);
    CREATE TABLE night_log (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        night_id INTEGER NOT NULL REFERENCES nights (id) ON DELETE CASCADE,
        at REAL NOT NULL,
        user_id INTEGER,
        action TEXT NOT NULL,
        detail TEXT NOT NULL DEFAULT '{}'
    );
    CREATE TABLE night_settings (
        guild_id INTEGER PRIMARY KEY,
        time_zone TEXT,
        host_role_id INTEGER,
        permission_told INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE seasons (
        guild_id INTEGER NOT NULL,
        number INTEGER NOT NULL,
        name TEXT NOT NULL,
        started_at REAL NOT NULL,
        ended_at REAL,
        PRIMARY KEY (guild_id, number)
    );
    """,
    # 15: the web pages' links (bot/web/): each match's unguessable token, made when its link
    # is first asked for. URLs carry the token, never a match or user id.
    """
    CREATE TABLE match_links (
        match_id INTEGER PRIMARY KEY REFERENCES matches (id) ON DELETE CASCADE,
        token TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL
    );
    """,
    # 16: the key each match's private seat links are signed with (bot/web/seat_links.py),
    # random, made when first asked for; in the database so that every process shares it.
    """
    ALTER TABLE match_links ADD COLUMN seat_key TEXT;
    """,
    # 17: a server's pages (bot/web/server_pages.py). `web_pages`: NULL as nobody chose (its
    # matches' pages shown, no server page), 1 on (a server page too), 0 off (no page at all).
    # `guild_links`: the server page's unguessable token while the pages are on (dropped when
    # they are turned off: turning them on again makes a new one). The page lists a server's
    # matches: an index by server.
    """
    ALTER TABLE guild_settings ADD COLUMN web_pages INTEGER;
    CREATE INDEX matches_by_guild ON matches (guild_id, status);
    CREATE TABLE guild_links (
        guild_id INTEGER PRIMARY KEY,
        token TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL
    );
    """,
    # 18: the coach (bot/matches/reviews.py). `match_reviews`: a finished match's review, each
    # turn judged (games/review.py's Judged as JSON), by the reviewer version `reviewer` (a
    # newer reviewer reviews again). `results.accuracy`: the seat's accuracy from it, 0-100
    # (NULL: not reviewed), for `/gamenight stats`. `match_hints`: each hint given (a match
    # with one is unrated).
    """
    CREATE TABLE match_reviews (
        match_id INTEGER PRIMARY KEY REFERENCES matches (id) ON DELETE CASCADE,
        reviewer INTEGER NOT NULL,
        turns TEXT NOT NULL,
        made_at TEXT NOT NULL
    );
    ALTER TABLE results ADD COLUMN accuracy INTEGER;
    CREATE TABLE match_hints (
        match_id INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
        version INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        move TEXT NOT NULL,
        at TEXT NOT NULL,
        PRIMARY KEY (match_id, version, seat)
    );
    """,
)


async def migrate(db: Database) -> None:
    """Bring the database up to date: apply, in order, the migrations it has not had."""
    await db.migrate(MIGRATIONS)
