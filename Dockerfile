# incident-memory: the Slack bot, installed from this repository as a wheel.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PORT=3000

# PostgreSQL (the embedded default) refuses to run as root, and the bot has no need to.
RUN useradd --create-home --uid 10001 --shell /usr/sbin/nologin app

# A real install (the wheel pip builds from this checkout): the package carries its migrations,
# templates and data (bot/migrations links to migrations/, whose files the wheel copies).
WORKDIR /src
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY migrations ./migrations
COPY examples /app/examples
RUN pip install . && cd / && rm -rf /src && incident-memory --help > /dev/null
WORKDIR /app

USER app
EXPOSE 3000
# Fly runs `incident-memory migrate` as the release command before new machines start.
CMD ["incident-memory", "serve"]
