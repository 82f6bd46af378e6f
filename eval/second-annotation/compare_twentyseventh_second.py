"""c27second's blind labels of all 31 c27 threads against truth.jsonl, field by field (README.md, "The twenty-seventh
collection (c27second)"): compare_twelfth.py's two readings (judged by JUDGED and MATCHES, compare_eleventh.py's method;
scored by bot/importer/scoring.py's rule with the second label's phrases as the stored text), on the threads
drawn-twentyseventh-second.tsv records (bench/held_out.tsv's c27 block at the freeze), then fold B's alone.

    .venv/bin/python eval/second-annotation/compare_twentyseventh_second.py
"""

from compare import kappa, positive_agreement
from compare_eleventh import compare
from compare_twelfth import run
from sample_twentyseventh_second import TSV, recorded

LABELS = "twentyseventh-second.jsonl"
# Every thread's stratum was seen: c27's file names tell a step tried ("tried-…", "…-did-not-help"), the rest by
# elimination, and eval/README.md (read before the labels, as the brief asked) names four c27 calls.
STRATUM_SEEN = tuple(file for _corpus, file, _fold, _commit in recorded(TSV))
# (file prefix, field) -> agree?  Only pairs whose phrases differ; the reason is in README.md.
JUDGED: dict[tuple[str, str], bool] = {
    ("24pullrequests-24pullrequests-1613", "root_cause_keywords"): True,  # second adds "stop pointing to heroku"
    ("24pullrequests-24pullrequests-1613", "found_keywords"): True,  # second adds the 8.8.8.8 check, one of two
    ("christophsax-seasonal-283", "fix_keywords"): False,  # [] / "rebooted now" (its outcome untold)
    ("anish-shanbhag-minecraft-api-6", "fix_keywords"): True,  # second without "i've"
    ("stoatchat-for-legacy-web-380", "root_cause_keywords"): False,  # [] / "mail server cert expired"
    ("jabref-jabref-5506", "date"): False,  # null ("since a while") / the report's day
    ("jabref-jabref-5506", "fix_keywords"): True,  # second without "facebook, and twitter"
    ("matomo-org-matomo-11590", "root_cause_keywords"): True,  # second without "probably"
    ("bforartists-bforartists-3014", "root_cause_keywords"): True,  # second without "i did"
    ("bytegrad-professional-css-course-1", "root_cause_keywords"): False,  # [] / the cold CDN (hedged)
    ("etternagame-etterna-1355", "found_keywords"): False,  # [] / "the logs say the server has an error"
    ("repman-io-repman-566", "date"): False,  # 02-12 (the last successful sync) / 02-18 ("can't sync since 2 days")
    ("mirumee-overv.io-beta-473", "fix_keywords"): True,  # second without "there's"
    ("repman-io-repman-124", "root_cause_keywords"): True,  # one phrase / its two halves
    ("openzfs-zfs-7146", "found_keywords"): False,  # [] / "according to the logs" (the SMTP logs)
    ("evolgeniusteam-evolviewdocumentation-30", "fix_keywords"): False,  # [] / "i have reset the password"
    ("gmariani-minerva-87", "date"): False,  # 02-08 / 02-09 ("almost 20 days ago"), within a day
    ("gmariani-minerva-87", "root_cause_keywords"): True,  # second adds the CAA record
}
# (truth phrase, second phrase): the same step.  A step the other side splits in two is paired once (the rest stays
# "only truth.jsonl"): syncplay-466's restarts, shaka-player-1158's console.
MATCHES: list[tuple[str, str]] = [
    ("flushing your dns cache", "flushing your dns cache"),
    ("ive tried changing dns", "ive tried changing dns"),
    ("ive tried to restart", "ive tried to restart"),
    ("adding 151.80.32.178 manually", "adding 151.80.32.178 manually"),
    ("tried multiple times from different hosts", "tried multiple times from different hosts"),
    ("can you try again", "can you try again?"),
    ("tried with chrome and (ew) edge", "tried with chrome and (ew) edge"),
    ("i tried using gmail and yahoo as an email", "i tried using gmail and yahoo as an email"),
    ("entering a new yt api key", "entering a new yt api key"),
    ("i even tried with google chrome and firefox", "i even tried with google chrome and firefox"),
    ("i also revoked the access in github's settings", "i also revoked the access in github's settings"),
    ("i tried revoking in github", "i tried revoking in github"),
    ("i have tried from phone and desktop", "i have tried from phone and desktop"),
    ("then allowed cookies", "allowed cookies"),
    ("cleared cookies", "cleared cookies, still no fix"),
    ("i unsycned all my teams and redid the setup", "i unsycned all my teams and redid the setup"),
    ("merely refreshing the page", "merely refreshing the page"),
    ("30e162f3d0dac294ae491f3426ce6cc6c2e797f9 should fix it", "30e162f3d0dac294ae491f3426ce6cc6c2e797f9 should fix it"),
    ("i tried on chrome and firefox", "i tried on chrome and firefox"),
    ("updating the chrome", "updating the chrome"),
    ("reloading is also not working", "reloading is also not working"),
    ("using different browser and different machine", "using different browser and different machine"),
    ("pushed a fix", "pushed a fix"),
    ("i have tried bulk upload and finishing a chart", "i have tried bulk upload"),
    ("i've clicked on 'rescan' and 'update' actions in the ui", "i've clicked on 'rescan' and 'update' actions"),
    ("please have a look again", "please have a look again"),
    ("we've just released a minor update", "released a minor update"),
    ("i tried to use the https:// git url", "i tried to use the https:// git url"),
    ("so i deleted, and retried from scratch", "i deleted, and retried from scratch"),
    ("even tried to get a reminder for my registered address", "even tried to get a reminder for my registered address"),
    ("i just sent an email again", "i just sent an email again"),
    ("i've cherry picked this from upstream", "i've cherry picked this from upstream"),
    ("ctrl+f5", "ctrl+f5 didn't do it"),
    ("nor can i use the password to reset the system", "use the password to reset the system"),
    ("trying to relog in", "trying to relog in"),
    ("i tried in several browsers and devices", "i tried in several browsers and devices"),
]


def fold_b(tsv: str = TSV, labels: str = LABELS, judged: dict = JUDGED, matches: list = MATCHES) -> None:
    """Fold B's threads alone (the reporting fold), judged (c27's by default; c28second's compare passes its own)."""
    only = {file for _corpus, file, fold, _commit in recorded(tsv) if fold == "B"}
    r = compare("conversations", labels, judged, matches, only=only)
    pa = positive_agreement(r["both"], r["only_first"], r["only_second"])
    print(
        f"fold B ({r['incidents']} incidents): date {r['date']}, cause {r['root_cause_keywords']}, fix "
        f"{r['fix_keywords']}, found {r['found_keywords']}, list {r['list']}/{r['incidents']}, kappa "
        f"{kappa(r['report_level']):.2f}, attempts {r['both']} / {r['only_first']} / {r['only_second']}, "
        f"positive agreement {pa:.0%}"
    )


if __name__ == "__main__":
    run(recorded(TSV), LABELS, JUDGED, MATCHES, STRATUM_SEEN)
    fold_b()
