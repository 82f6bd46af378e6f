"""Moved: the "is it over?" check is the reader's (bot/reader/over.py); this name stays for callers."""

from bot.reader.over import says_it_is_over

__all__ = ["says_it_is_over"]
