"""Moved: the one check that a field is backed by its quotes is the reader's (bot/reader/support.py);
this name stays for callers."""

from bot.reader.support import MIN_COVERAGE, MIN_QUOTE_CHARS, Support, commands_and_urls, coverage, support

__all__ = ["MIN_COVERAGE", "MIN_QUOTE_CHARS", "Support", "commands_and_urls", "coverage", "support"]
