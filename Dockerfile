# Gamenight: docker build -t gamenight . && docker run --env-file .env -v gamenight-data:/data gamenight
FROM python:3.12-slim

# MALLOC_ARENA_MAX: glibc gives every thread its own heap that keeps what was freed; with the
# pictures drawn in threads (GAMENIGHT_RENDER_WORKERS=0), two heaps kept ~30 MB less
# (benchmarks/bench_memory.py). The picture workers are processes of their own.
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    MALLOC_ARENA_MAX=2 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

RUN useradd --create-home --uid 10001 gamenight \
    && mkdir /data && chown gamenight:gamenight /data

WORKDIR /app
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY games ./games
COPY render ./render
COPY i18n ./i18n
RUN pip install .

USER gamenight
# A relative GAMENIGHT_DB lands on the volume too.
WORKDIR /data
ENV GAMENIGHT_DB=/data/gamenight.db
# Metrics (off unless GAMENIGHT_METRICS_PORT is set) must be reachable through a published port.
ENV GAMENIGHT_METRICS_HOST=0.0.0.0
VOLUME ["/data"]
# SIGINT lets the bot close its gateway connection and database cleanly on `docker stop`.
STOPSIGNAL SIGINT
CMD ["gamenight"]
