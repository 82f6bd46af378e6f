"""Agreement between truth.jsonl and fifteenth-collection.jsonl, field by field (README.md, "The fifteenth collection").

compare_twelfth.py's two readings (judged: compare_eleventh.py's JUDGED/MATCHES method; scored: bot/importer/scoring.py's
rule with the second label's phrases as the stored text), on the files drawn-fifteenth.tsv records.

    .venv/bin/python eval/second-annotation/compare_fifteenth.py
"""

from compare_twelfth import run
from sample_fifteenth import TSV
from sample_twelfth import recorded

LABELS = "fifteenth-collection.jsonl"
# No stratum was seen before the draw: the collectors' commit messages were not read (README.md).
STRATUM_SEEN: tuple[str, ...] = ()
# (file prefix, field) -> agree?  Only pairs whose phrases differ; the reason is in README.md.
JUDGED: dict[tuple[str, str], bool] = {
    ("vdaubry-github-awards-53", "date"): False,  # null / the report's day
    ("vdaubry-github-awards-53", "fix_keywords"): False,  # [] (the bulk update a recovery) / the bulk update
    ("pokeapi-128", "root_cause_keywords"): True,
    ("nivaldomartinez-link-prevue-43", "date"): False,  # null / the report's day
    ("nivaldomartinez-link-prevue-43", "root_cause_keywords"): True,
    ("phalcon-orphanage-docs-2259", "root_cause_keywords"): True,
    ("openfoodfoundation-openfoodnetwork-5524", "date"): False,  # null ("since the last release") / the report's day
    ("openfoodfoundation-openfoodnetwork-5524", "root_cause_keywords"): True,
    ("r-spacex-spacex-api-67", "date"): False,  # null / the day before the report ("waited a night")
    ("telemetrydeck-issues-600", "root_cause_keywords"): True,
    ("telemetrydeck-issues-600", "found_keywords"): False,  # [] / the email provider's check and the DB's requests
    ("humblemonk-dicemaiden-1", "root_cause_keywords"): True,
    ("humblemonk-dicemaiden-1", "fix_keywords"): True,  # second adds the gems upgraded with the droplet
    ("davideast-hnpwa-api-12", "date"): False,  # null / a week before the report ("the top story is 7 days old")
    ("ifmeorg-ifme-1844", "date"): False,  # null / the report's day
    ("ifmeorg-ifme-1844", "root_cause_keywords"): True,
    ("lattyware-manydecks-47", "root_cause_keywords"): True,
    ("lattyware-manydecks-47", "found_keywords"): False,  # [] / the opening report's "error 401: deleted_client"
}
# (truth phrase, second phrase): the same step.
MATCHES: list[tuple[str, str]] = [
    ("we have disabled it", "we have disabled it"),
    ("replicate it on heroku", "replicate it on heroku"),
    ("cleared cashes, cookies", "cleared cashes, cookies"),
    ("tried kicking her and bringing her back", "kicking her and bringing her back"),
    ("reloading discord", "reloading discord"),
    ("doubled the memory", "doubled the memory"),
    ("submitted the process to verify our app", "submitted the process to verify our app"),
]

if __name__ == "__main__":
    run(recorded(TSV), LABELS, JUDGED, MATCHES, STRATUM_SEEN)
