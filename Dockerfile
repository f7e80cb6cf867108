# Gamenight: docker build -t gamenight . && docker run --env-file .env -v gamenight-data:/data gamenight
#
# Two stages: the first installs Gamenight and its libraries into /venv and takes out what the
# bot never reads (other languages' word lists and locales, C sources, debug symbols, the
# libraries' own test suites: networkx's are half its size); the image
# itself is the slim base plus that /venv, with no copy of the sources and no build tools.
# Also out: Pillow's AVIF codec (the bot draws PNG and GIF) and discord.py's Windows DLLs;
# prune_data.py draws a replay of each game before and after, and fails the build if it differs.

FROM python:3.12-slim AS build
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1 PYTHONDONTWRITEBYTECODE=1
# strip: the libraries' compiled modules carry debug symbols (asyncpg's alone 8 of its 9 MB)
RUN apt-get update && apt-get install -y --no-install-recommends binutils \
    && rm -rf /var/lib/apt/lists/*
RUN python -m venv --without-pip /venv
WORKDIR /src
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY games ./games
COPY render ./render
COPY i18n ./i18n
COPY docker/prune_data.py /tmp/
RUN pip --python /venv/bin/python install . \
    && /venv/bin/python /tmp/prune_data.py \
    && find /venv -name '*.so' -exec strip --strip-debug {} + \
    && find /venv \( -name '*.pyx' -o -name '*.pxd' -o -name '*.pyi' -o -name '*.c' \
                     -o -name '*.h' \) -delete \
    && find /venv/lib/python3.12/site-packages -mindepth 2 -type d -name tests -prune \
            -exec rm -rf {} +

FROM python:3.12-slim
# MALLOC_ARENA_MAX: glibc gives every thread its own heap that keeps what was freed; with the
# pictures drawn in threads (GAMENIGHT_RENDER_WORKERS=0), two heaps kept ~30 MB less
# (benchmarks/bench_memory.py). The picture workers are processes of their own.
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    MALLOC_ARENA_MAX=2 \
    PATH=/venv/bin:$PATH

RUN useradd --create-home --uid 10001 gamenight \
    && mkdir /data && chown gamenight:gamenight /data
COPY --from=build /venv /venv

USER gamenight
# A relative GAMENIGHT_DB lands on the volume too.
WORKDIR /data
ENV GAMENIGHT_DB=/data/gamenight.db
# Metrics and the health checks (/metrics, /healthz, /readyz) are on in the image, for the
# HEALTHCHECK below; publish the port to scrape them from outside (GAMENIGHT_METRICS_PORT= in
# the environment turns them off, and the health check with them).
ENV GAMENIGHT_METRICS_HOST=0.0.0.0 \
    GAMENIGHT_METRICS_PORT=9108
EXPOSE 9108
# The match pages (live view, replays) stay off unless the operator sets GAMENIGHT_WEB_PORT and
# GAMENIGHT_PUBLIC_URL; in a container they also need GAMENIGHT_WEB_HOST=0.0.0.0 (the
# container's own 127.0.0.1 is out of reach of a published port). Not set here: the bot refuses
# a web host without a port. 8080 is the port the README uses (publish it to a reverse proxy).
EXPOSE 8080
VOLUME ["/data"]
# Ready: connected to Discord on every shard, the database answering, migrations done. Start-up
# (migrations, the first connection) gets two minutes before failures count.
HEALTHCHECK --interval=30s --timeout=10s --start-period=120s --retries=3 \
    CMD ["gamenight", "health"]
# SIGINT lets the bot close its gateway connection and database cleanly on `docker stop`.
STOPSIGNAL SIGINT
CMD ["gamenight"]
