"""Recall as small, pure, typed steps: candidates → signals → fusion → floor → reasons.

`tokens` and `document` turn text into terms; `signature` turns an error text into what stays
the same between two sightings of one failure; `concepts` names the mechanisms a text talks
about (vocabulary kept as data in bot/data/concepts.json); the store adapter finds candidates in
Postgres (bot/memory/search.py); `signals` measures each candidate; `fusion` folds the signals
into one score that ranks; `floor` judges each match's relevance on an absolute scale, so that
"nothing in memory looks like this" can be said; `reasons` says why in words; `conflicts` flags disagreeing memories; `truth`
says which truth-state moves are allowed. `pipeline.Recaller` runs the steps after the
candidates; bot/services/recall.py joins it to the store.

This package imports only the domain (bot/models.py): no database, no Slack, no model API
(tests/test_architecture.py checks it).
"""
