"""Agreement between truth.jsonl and twentieth-second-collection.jsonl, field by field (README.md, "The twentieth
collection's batches 5-12").

compare_twentieth.py's method (compare_seventeenth.py's: compare_twelfth.py's judged and scored readings, then the draw
and the extension pooled) on drawn-twentieth-second.tsv and drawn-twentieth-second-extension.tsv with their labels.

    .venv/bin/python eval/second-annotation/compare_twentieth_second.py
"""

from compare_seventeenth import both_draws
from sample_twentieth_second import EXTENSION_TSV, TSV

LABELS = "twentieth-second-collection.jsonl"
EXTENSION_LABELS = "twentieth-second-extension.jsonl"
# No stratum was read for either draw (every sixth file by name; the extension's shuffled list), none seen before it.
STRATUM_SEEN: tuple[str, ...] = ()
# (file prefix, field) -> agree?  Only pairs whose phrases differ; the reason is in README.md.
JUDGED: dict[tuple[str, str], bool] = {
    ("alexanderepstein-sandman-21", "root_cause_keywords"): True,  # second without "i had no idea"
    ("bcb-unl-run-dbcan-53", "root_cause_keywords"): True,
    ("bcb-unl-run-dbcan-53", "fix_keywords"): False,  # [] (the AWS backup a recovery not-attempt) / the AWS backup
    ("cellprofiler-cellprofiler-1522", "root_cause_keywords"): True,
    ("compomics-ms2pip-235", "fix_keywords"): False,  # "the issues are now fixed" (a state) / []
    ("darkwire-darkwire-io-49", "fix_keywords"): True,
    ("eudat-b2share-b2share-602", "root_cause_keywords"): True,  # second without the log's "requirejs-package"
    ("eudat-b2share-b2share-602", "fix_keywords"): False,  # "installing those" / [] (under way, never told done)
    ("eudat-b2share-b2share-602", "found_keywords"): True,  # the same ImportError line
    ("hackforla-website-2712", "date"): False,  # the report's day / null ("emails ... daily")
    ("hackforla-website-2712", "root_cause_keywords"): True,
    ("hackforla-website-2712", "fix_keywords"): True,
    ("marianattestad-assemblytics-7", "root_cause_keywords"): True,  # second adds the 2019 recurrence's full folders
    ("marianattestad-assemblytics-7", "fix_keywords"): True,  # second adds the 2019 recurrence's emptying
    ("minibloq-v0-83-4", "root_cause_keywords"): True,
    ("onkelbeh-homeassistantrepository-29", "fix_keywords"): True,
    ("protostuff-protostuff-241", "root_cause_keywords"): True,  # second without the maintainer's leaving
    ("rticwdt-college-scorecard-364", "date"): False,  # the report's day / 08-09 ("failed last night")
    ("rticwdt-college-scorecard-364", "root_cause_keywords"): True,
    ("rticwdt-college-scorecard-364", "fix_keywords"): True,  # second adds the restart (a recovery not-attempt)
    ("snel-repo-falcon-challenge-23", "root_cause_keywords"): True,  # second adds "nothing is reaching our infra"
    ("umap-project-umap-716", "date"): False,  # the report's day / null ("disappeared for weeks")
    ("umap-project-umap-716", "fix_keywords"): True,
    # the extension
    ("sreichholf-dreamdroid-148", "fix_keywords"): True,
    ("wilg-headlines-25", "date"): False,  # the report's day / null ("broken for quite a while")
    ("wilg-headlines-25", "fix_keywords"): True,
    ("fritzing-fritzing-app-3522", "root_cause_keywords"): True,
    ("fritzing-fritzing-app-3522", "found_keywords"): False,  # "looking into the database shows" (a guess's) / []
    ("clingen-clincoded-1576", "date"): False,  # the report's day / null ("during the winter break")
    ("clingen-clincoded-1576", "fix_keywords"): True,  # the reindex in both since the lead took the proposal (21:10)
    ("lambdasoup-watchlater-47", "root_cause_keywords"): True,
    ("lambdasoup-watchlater-47", "fix_keywords"): False,  # the quota increased three months later / []
    ("lambdasoup-watchlater-47", "found_keywords"): False,  # the dev environment's debugging / []
    ("quansight-open-gpu-server-19", "root_cause_keywords"): True,  # second adds the volume deleted (an attempt)
    ("quansight-open-gpu-server-19", "fix_keywords"): True,  # second adds the users, flavors, images restored
    ("chatsecure-chatsecure-ios-976", "root_cause_keywords"): True,  # the cached cert in both since the lead's change
    ("ruby-www-ruby-lang-org-963", "root_cause_keywords"): True,
    ("ruby-www-ruby-lang-org-963", "fix_keywords"): True,
    ("fritzing-fritzing-app-3481", "date"): False,  # the report's day / null ("still unavailable")
}
# (truth phrase, second phrase): the same step.
MATCHES: list[tuple[str, str]] = [
    ("when i tried to add the binaries to the my github release", "tried to add the binaries to the my github release"),
    ("killed them and then re-submitted", "killed them and then re-submitted"),
    ("regarding hosting in github, i tried", "hosting in github, i tried"),
    ("we have upgraded our server", "we have upgraded our server"),
    ("there was an error in the dkim settings", "dkim fix"),
    ("i cleared the data from the app and then tried again", "cleared the data from the app"),
    (
        "in an effort to fix this, i accidentally deleted the db docker volume",
        "accidentally deleted the db docker volume",
    ),
    ("the updated cert didn't load properly", "updating the apns certificate env var"),  # the label before 21:10
    ("updating the apns certificate env var", "updating the apns certificate env var"),  # and since
]

if __name__ == "__main__":
    both_draws((TSV, LABELS), (EXTENSION_TSV, EXTENSION_LABELS), JUDGED, MATCHES, STRATUM_SEEN)
