# incident-memory: the Slack bot, as the tests install it (`pip install -e .` of this repository).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PORT=3000

# PostgreSQL (the embedded default) refuses to run as root, and the bot has no need to.
RUN useradd --create-home --uid 10001 --shell /usr/sbin/nologin app

# The repository layout, not just the package: bot/config.py finds migrations/ next to bot/
# (PROJECT_ROOT is the package's parent), which an editable install keeps at /app.
WORKDIR /app
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY migrations ./migrations
COPY examples ./examples
RUN pip install -e . && incident-memory --help > /dev/null

# Said explicitly too, so a later switch to a wheel install still finds them.
ENV MIGRATIONS_DIR=/app/migrations

USER app
EXPOSE 3000
# Fly runs `incident-memory migrate` as the release command before new machines start.
CMD ["incident-memory", "serve"]
