"""Recall as small, pure, typed steps: candidates → signals → fusion → reasons.

`tokens` and `document` turn text into terms; the store adapter finds candidates in Postgres;
`signals` measures each candidate; `fusion` folds the signals into one score; `reasons` says why
in words. Only the candidate search touches the database.
"""
