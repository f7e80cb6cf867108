# Gamenight: docker build -t gamenight . && docker run --env-file .env -v gamenight-data:/data gamenight
FROM python:3.12-slim

# MALLOC_ARENA_MAX: the pictures are drawn in worker threads, and glibc gives every thread
# its own heap that keeps what was freed; two heaps keep ~30 MB less (benchmarks/bench_memory.py).
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
