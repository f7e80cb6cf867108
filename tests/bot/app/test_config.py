"""Configuration from the environment and .env, and how the command line fails without a token."""

import os
import re
import subprocess
import sys

import pytest

from bot.app.logs import RedactToken
from bot.app.config import DEFAULT_API_BASE, ConfigError, Settings


def test_defaults_and_values():
    settings = Settings.from_mapping({"DISCORD_TOKEN": "abc.def"})
    assert settings.token.reveal() == "abc.def"
    assert str(settings.db_path) == "gamenight.db"
    assert settings.api_base == DEFAULT_API_BASE
    assert settings.guild_id is None and settings.log_level == "INFO"
    custom = Settings.from_mapping({
        "DISCORD_TOKEN": "t", "GAMENIGHT_DB": "/data/x.db", "GAMENIGHT_GUILD": "1234",
        "DISCORD_API_BASE": "http://127.0.0.1:9/api/v10/", "LOG_LEVEL": "debug",
    })
    assert (str(custom.db_path), custom.guild_id, custom.api_base, custom.log_level) == (
        "/data/x.db", 1234, "http://127.0.0.1:9/api/v10", "DEBUG")


def test_env_file_fills_in_and_the_environment_wins(tmp_path):
    env = tmp_path / ".env"
    env.write_text('DISCORD_TOKEN="from-file"\n# a comment\nGAMENIGHT_DB=file.db\n')
    settings = Settings.load({"GAMENIGHT_DB": "env.db"}, env_file=env)
    assert settings.token.reveal() == "from-file"
    assert str(settings.db_path) == "env.db"


@pytest.mark.parametrize("values, message", [
    ({}, "DISCORD_TOKEN is not set"),
    ({"DISCORD_TOKEN": "t", "GAMENIGHT_GUILD": "my server"}, "GAMENIGHT_GUILD must be"),
    ({"DISCORD_TOKEN": "t", "LOG_LEVEL": "loud"}, "LOG_LEVEL must be"),
    ({"DISCORD_TOKEN": "t", "GAMENIGHT_DB": "mysql://bot@db/gamenight"},
     "GAMENIGHT_DB is a mysql:// URL"),
    ({"DISCORD_TOKEN": "t", "GAMENIGHT_DB": "sqlite+aiosqlite:///x.db"}, "is a sqlite"),
])
def test_bad_configuration_says_what_to_do(values, message):
    with pytest.raises(ConfigError, match=message):
        Settings.from_mapping(values)


def test_the_token_never_shows_in_reprs_or_logs():
    settings = Settings.from_mapping({"DISCORD_TOKEN": "sekrit-token"})
    assert "sekrit" not in repr(settings) and "sekrit" not in f"{settings.token}"
    import logging

    record = logging.LogRecord("x", logging.INFO, __file__, 1, "sent %s", ("sekrit-token",), None)
    RedactToken("sekrit-token").filter(record)
    assert record.getMessage() == "sent [token]"


@pytest.mark.parametrize("command", [["-m", "bot"], None])
def test_missing_token_exits_2_with_one_line(tmp_path, command):
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    if command is None:
        argv = [os.path.join(os.path.dirname(sys.executable), "gamenight")]
    else:
        argv = [sys.executable, *command]
    done = subprocess.run(argv, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.strip().count("\n") == 0
    assert "DISCORD_TOKEN is not set" in done.stderr and "Traceback" not in done.stderr


def test_a_postgresql_url_is_a_database_and_an_unreachable_one_stops_the_bot(tmp_path):
    assert Settings.from_mapping({"DISCORD_TOKEN": "t", "GAMENIGHT_DB": " postgresql://b@h/d "}
                                 ).db_path == "postgresql://b@h/d"
    env = {**os.environ, "DISCORD_TOKEN": "t",
           "GAMENIGHT_DB": "postgresql://bot:sekrit@127.0.0.1:9/db"}  # nothing listens there
    argv = [sys.executable, "-m", "bot"]
    done = subprocess.run(argv, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.strip().count("\n") == 0 and "GAMENIGHT_DB" in done.stderr
    assert "cannot reach the PostgreSQL database postgresql://bot:***@127.0.0.1:9/db" in \
        done.stderr and "sekrit" not in done.stderr
    assert not list(tmp_path.iterdir())  # no file named after the URL


def test_computer_settings():
    settings = Settings.from_mapping({"DISCORD_TOKEN": "t"})
    assert settings.computer_delay == 1.5 and settings.computer_workers == (os.cpu_count() or 1)
    custom = Settings.from_mapping({"DISCORD_TOKEN": "t", "GAMENIGHT_COMPUTER_DELAY": " 0 ",
                                    "GAMENIGHT_COMPUTER_WORKERS": "3"})
    assert (custom.computer_delay, custom.computer_workers) == (0.0, 3)
    for bad in ("soon", "-1", "nan", "inf", "61"):
        with pytest.raises(ConfigError, match="GAMENIGHT_COMPUTER_DELAY must be a number"):
            Settings.from_mapping({"DISCORD_TOKEN": "t", "GAMENIGHT_COMPUTER_DELAY": bad})
    for bad in ("0", "two", "1.5", "-2"):
        with pytest.raises(ConfigError, match="GAMENIGHT_COMPUTER_WORKERS must be a whole"):
            Settings.from_mapping({"DISCORD_TOKEN": "t", "GAMENIGHT_COMPUTER_WORKERS": bad})


def test_render_workers():
    assert Settings.from_mapping({"DISCORD_TOKEN": "t"}).render_workers == 1
    for given, workers in ((" 0 ", 0), ("5", 5)):
        settings = Settings.from_mapping({"DISCORD_TOKEN": "t", "GAMENIGHT_RENDER_WORKERS": given})
        assert settings.render_workers == workers
    for bad in ("-1", "two", "1.5", "65"):
        with pytest.raises(ConfigError, match="GAMENIGHT_RENDER_WORKERS must be a whole number"):
            Settings.from_mapping({"DISCORD_TOKEN": "t", "GAMENIGHT_RENDER_WORKERS": bad})


def test_a_bad_computer_delay_stops_the_bot_with_one_line(tmp_path):
    env = {**os.environ, "DISCORD_TOKEN": "t", "GAMENIGHT_COMPUTER_DELAY": "a while"}
    done = subprocess.run([sys.executable, "-m", "bot"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.strip().count("\n") == 0 and "Traceback" not in done.stderr
    assert "GAMENIGHT_COMPUTER_DELAY must be a number" in done.stderr


PG = "postgresql://bot@db/gamenight"


def test_shards():
    plain = Settings.from_mapping({"DISCORD_TOKEN": "t"})
    assert (plain.shard_count, plain.shard_ids) == (None, None)  # Discord's advice, every shard
    counted = Settings.from_mapping({"DISCORD_TOKEN": "t", "GAMENIGHT_SHARDS": "4"})
    assert (counted.shard_count, counted.shard_ids) == (4, None)
    some = Settings.from_mapping({"DISCORD_TOKEN": "t", "GAMENIGHT_SHARDS": "8",
                                  "GAMENIGHT_SHARD_IDS": " 0,2, 5-7 ", "GAMENIGHT_DB": PG})
    assert (some.shard_count, some.shard_ids) == (8, (0, 2, 5, 6, 7))
    every = Settings.from_mapping({"DISCORD_TOKEN": "t", "GAMENIGHT_SHARDS": "4",
                                   "GAMENIGHT_SHARD_IDS": "0-3"})  # all of them: SQLite will do
    assert every.shard_ids == (0, 1, 2, 3)


@pytest.mark.parametrize("values, message", [
    ({"GAMENIGHT_SHARDS": "0"}, "GAMENIGHT_SHARDS must be the number"),
    ({"GAMENIGHT_SHARDS": "many"}, "GAMENIGHT_SHARDS must be the number"),
    ({"GAMENIGHT_SHARD_IDS": "0-3", "GAMENIGHT_DB": PG}, "GAMENIGHT_SHARDS is not"),
    ({"GAMENIGHT_SHARDS": "4", "GAMENIGHT_SHARD_IDS": "2-5", "GAMENIGHT_DB": PG},
     "names shard 5, but with GAMENIGHT_SHARDS=4 the shards are 0 to 3"),
    ({"GAMENIGHT_SHARDS": "4", "GAMENIGHT_SHARD_IDS": "3-1", "GAMENIGHT_DB": PG}, "backwards"),
    ({"GAMENIGHT_SHARDS": "4", "GAMENIGHT_SHARD_IDS": "0;1", "GAMENIGHT_DB": PG},
     "must list shard ids and ranges"),
    ({"GAMENIGHT_SHARDS": "4", "GAMENIGHT_SHARD_IDS": "0-1"},
     "several processes need one PostgreSQL database"),
])
def test_shard_settings_the_bot_cannot_use_say_why(values, message):
    with pytest.raises(ConfigError, match=message):
        Settings.from_mapping({"DISCORD_TOKEN": "t", **values})


def test_shard_settings_reach_the_bot():
    from bot.app.client import GamenightBot

    settings = Settings.from_mapping({"DISCORD_TOKEN": "t", "GAMENIGHT_SHARDS": "4",
                                      "GAMENIGHT_SHARD_IDS": "1,3", "GAMENIGHT_DB": PG})
    bot = GamenightBot(settings)
    assert (bot.shard_count, bot.shard_ids) == (4, [1, 3])


def test_backup_settings():
    none = Settings.from_mapping({"DISCORD_TOKEN": "t"})
    assert none.backup_dir is None
    settings = Settings.from_mapping({"DISCORD_TOKEN": "t", "GAMENIGHT_BACKUP_DIR": "/b",
                                      "GAMENIGHT_BACKUP_EVERY": "1h30m",
                                      "GAMENIGHT_BACKUP_KEEP": "0"})
    assert (str(settings.backup_dir), settings.backup_every, settings.backup_keep) == (
        "/b", 5400.0, None)
    default = Settings.from_mapping({"DISCORD_TOKEN": "t", "GAMENIGHT_BACKUP_DIR": "/b"})
    assert (default.backup_every, default.backup_keep) == (86400.0, 14)


@pytest.mark.parametrize("values, message", [
    ({"GAMENIGHT_BACKUP_DIR": "/b", "GAMENIGHT_BACKUP_EVERY": "6 hours"},
     "GAMENIGHT_BACKUP_EVERY must be how often"),
    ({"GAMENIGHT_BACKUP_DIR": "/b", "GAMENIGHT_BACKUP_EVERY": "10s"},
     "GAMENIGHT_BACKUP_EVERY must be how often"),
    ({"GAMENIGHT_BACKUP_DIR": "/b", "GAMENIGHT_BACKUP_KEEP": "-1"},
     "GAMENIGHT_BACKUP_KEEP must be"),
    ({"GAMENIGHT_BACKUP_EVERY": "6h"}, "GAMENIGHT_BACKUP_DIR is not"),
])
def test_backup_settings_the_bot_cannot_use_say_why(values, message):
    with pytest.raises(ConfigError, match=message):
        Settings.from_mapping({"DISCORD_TOKEN": "t", **values})


def test_a_bad_backup_period_stops_the_bot_with_one_line(tmp_path):
    env = {"PATH": os.environ["PATH"], "DISCORD_TOKEN": "t", "GAMENIGHT_BACKUP_DIR": "b",
           "GAMENIGHT_BACKUP_EVERY": "daily"}
    done = subprocess.run([sys.executable, "-m", "bot"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "GAMENIGHT_BACKUP_EVERY must be" in done.stderr


def test_web_settings():
    plain = Settings.from_mapping({"DISCORD_TOKEN": "t"})
    assert (plain.web_port, plain.public_url) == (None, None)  # no pages: nothing changes
    on = Settings.from_mapping({"DISCORD_TOKEN": "t", "GAMENIGHT_WEB_PORT": "8080",
                                "GAMENIGHT_PUBLIC_URL": "https://games.example.org/night/"})
    assert (on.web_port, on.web_host, on.public_url) == (
        8080, "127.0.0.1", "https://games.example.org/night")


def test_the_trusted_proxies_of_the_pages():
    on = {"DISCORD_TOKEN": "t", "GAMENIGHT_WEB_PORT": "8080",
          "GAMENIGHT_PUBLIC_URL": "https://x.org"}
    default = Settings.from_mapping(on).web_trusted_proxies
    assert [str(n) for n in default] == ["127.0.0.0/8", "::1/128"]  # a proxy on this machine
    docker = Settings.from_mapping({**on, "GAMENIGHT_WEB_TRUSTED_PROXIES": "172.17.0.1, fd00::/8"})
    assert [str(n) for n in docker.web_trusted_proxies] == ["172.17.0.1/32", "fd00::/8"]


@pytest.mark.parametrize("values, message", [
    ({"GAMENIGHT_WEB_PORT": "web"}, "GAMENIGHT_WEB_PORT must be a TCP port"),
    ({"GAMENIGHT_WEB_PORT": "8080", "GAMENIGHT_PUBLIC_URL": "https://x.org",
      "GAMENIGHT_WEB_TRUSTED_PROXIES": "172.17.0.1,docker"},
     "GAMENIGHT_WEB_TRUSTED_PROXIES must be IP addresses or networks separated by commas "
     "(e.g. 172.17.0.1 or 172.16.0.0/12,::1), not 'docker'"),
    ({"GAMENIGHT_WEB_TRUSTED_PROXIES": "172.17.0.1"}, "GAMENIGHT_WEB_PORT is not"),
    ({"GAMENIGHT_WEB_PORT": "8080"}, "GAMENIGHT_PUBLIC_URL is not"),
    ({"GAMENIGHT_WEB_PORT": "8080", "GAMENIGHT_PUBLIC_URL": "games.example.org"},
     "GAMENIGHT_PUBLIC_URL must be an http:// or https:// address"),
    ({"GAMENIGHT_WEB_PORT": "8080", "GAMENIGHT_PUBLIC_URL": "https://x.org/?a=1"},
     "no query"),
    ({"GAMENIGHT_WEB_PORT": "8080", "GAMENIGHT_PUBLIC_URL": "https://x.org",
      "GAMENIGHT_WEB_HOST": "everywhere"}, "GAMENIGHT_WEB_HOST must be an IP address"),
    ({"GAMENIGHT_PUBLIC_URL": "https://x.org"}, "GAMENIGHT_WEB_PORT is not"),
])
def test_web_settings_the_bot_cannot_use_say_why(values, message):
    with pytest.raises(ConfigError, match=re.escape(message)):
        Settings.from_mapping({"DISCORD_TOKEN": "t", **values})


def test_a_password_in_the_public_url_never_shows():
    with pytest.raises(ConfigError) as error:
        Settings.from_mapping({"DISCORD_TOKEN": "t", "GAMENIGHT_WEB_PORT": "8080",
                               "GAMENIGHT_PUBLIC_URL": "https://me:hunter2@x.org"})
    assert "hunter2" not in str(error.value)


def test_a_bad_web_setting_stops_the_bot_with_one_line(tmp_path):
    env = {**os.environ, "DISCORD_TOKEN": "t", "GAMENIGHT_WEB_PORT": "8080"}
    env.pop("GAMENIGHT_PUBLIC_URL", None)
    done = subprocess.run([sys.executable, "-m", "bot"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.strip().count("\n") == 0 and "Traceback" not in done.stderr
    assert "GAMENIGHT_PUBLIC_URL is not" in done.stderr


def test_a_bad_trusted_proxy_stops_the_bot_with_one_line(tmp_path):
    env = {**os.environ, "DISCORD_TOKEN": "t", "GAMENIGHT_WEB_PORT": "8080",
           "GAMENIGHT_PUBLIC_URL": "https://x.org", "GAMENIGHT_WEB_TRUSTED_PROXIES": "10.0.0.0/33"}
    done = subprocess.run([sys.executable, "-m", "bot"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.strip().count("\n") == 0 and "Traceback" not in done.stderr
    assert "GAMENIGHT_WEB_TRUSTED_PROXIES must be" in done.stderr and "10.0.0.0/33" in done.stderr


def test_reviews_are_on_unless_turned_off():
    assert Settings.from_mapping({"DISCORD_TOKEN": "t"}).review_finished
    assert not Settings.from_mapping({"DISCORD_TOKEN": "t", "GAMENIGHT_REVIEWS": "off"}
                                     ).review_finished
    with pytest.raises(ConfigError, match="GAMENIGHT_REVIEWS must be on"):
        Settings.from_mapping({"DISCORD_TOKEN": "t", "GAMENIGHT_REVIEWS": "sometimes"})
