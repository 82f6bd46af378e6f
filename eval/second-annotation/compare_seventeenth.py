"""Agreement between truth.jsonl and seventeenth-collection.jsonl, field by field (README.md, "The seventeenth collection").

compare_twelfth.py's two readings (judged: compare_eleventh.py's JUDGED/MATCHES method; scored: bot/importer/scoring.py's
rule with the second label's phrases as the stored text), on the files drawn-seventeenth.tsv records, then on the
extension's (drawn-seventeenth-extension.tsv, seventeenth-extension.jsonl), then both pooled.

    .venv/bin/python eval/second-annotation/compare_seventeenth.py
"""

from compare_eleventh import compare, report
from compare_twelfth import run, scored
from sample_seventeenth import EXTENSION_TSV, TSV
from sample_twelfth import recorded

LABELS = "seventeenth-collection.jsonl"
EXTENSION_LABELS = "seventeenth-extension.jsonl"
# No stratum was read for the draw (every sixth file by name), none seen before it.
STRATUM_SEEN: tuple[str, ...] = ()
# (file prefix, field) -> agree?  Only pairs whose phrases differ; the reason is in README.md.
JUDGED: dict[tuple[str, str], bool] = {
    ("canjs-canjs-2393", "root_cause_keywords"): False,  # the expired certificates / [] (why they expired, not said)
    ("coleam00-archon-2536", "root_cause_keywords"): True,  # the same two phrases, a word longer each
    ("jwiegley-use-package-983", "root_cause_keywords"): True,
    ("lingonsaft-hacktoberfest-1041", "root_cause_keywords"): True,  # the rate limit reached, told from the visits
    ("lingonsaft-hacktoberfest-1041", "fix_keywords"): True,
    ("namecoin-namecoin-legacy-224", "date"): False,  # the report's day / the KEYEXPIRED stamp's (03-26 09:09 UTC)
    ("namecoin-namecoin-legacy-224", "root_cause_keywords"): True,  # second: the repo not updated, without the key
    ("plouc-mozaik-265", "root_cause_keywords"): True,
    ("responsiveimagescg-responsiveimages-org-78", "fix_keywords"): True,  # second adds "on dreamhost"
    # the extension
    ("benoitc-gunicorn-1870", "root_cause_keywords"): True,  # second without "culprit is the"
    ("crypto101-website-15", "date"): False,  # null / the thread's day (the expiry day not given)
    ("crypto101-website-15", "root_cause_keywords"): False,  # the expired certificate / [] (why it expired, not said)
    ("jkomoros-card-web-485", "root_cause_keywords"): True,  # second adds the account's "temporarily restricted"
    ("jquerytools-jquerytools-674", "root_cause_keywords"): True,  # second adds the report's MaxCDN account
    ("jquerytools-jquerytools-674", "found_keywords"): False,  # [] / "status.maxcdn.com" (the status page)
    ("linaro-website-110", "root_cause_keywords"): False,  # "the missing path /feed/" / [] (why it went, not said)
    ("linaro-website-110", "fix_keywords"): True,
    ("mail-in-a-box-mailinabox-1342", "root_cause_keywords"): True,  # second without the hedged cookies/CSRF trouble
    ("moko256-twitlatte-70", "root_cause_keywords"): True,
    ("project-akri-akri-544", "root_cause_keywords"): True,
    ("slorber-trailing-slash-guide-7", "date"): False,  # null / the thread's day
    ("sysbiochalmers-yarrowia-lipolytica-w29-gem-32", "root_cause_keywords"): True,
    ("vectordotdev-vector-956", "root_cause_keywords"): True,
}
# (truth phrase, second phrase): the same step. None in the every-sixth draw; the extension's six.
MATCHES: list[tuple[str, str]] = [
    ("pay as you go", 'moved my azure account to "pay as you go"'),
    ("worked with them yesterday and today", "worked with them yesterday and today"),
    ("submitted a request to unblock", "submitted a request to unblock"),
    ("change the source for gh pages", "tried to change the source for gh pages to the `/docs` folder on `main`"),
    ("resolved it with a cname", "resolved it with a cname now"),
    ("requested to lift a read restriction", "requested to lift a read restriction"),
]


def pooled(
    parts: list | None = None, judged: dict = JUDGED, matches: list = MATCHES, corpus: str = "conversations"
) -> None:
    """The draw and the extension together: counts summed, report-level pairs joined, scored fractions summed."""
    parts = parts or [(recorded(TSV), LABELS), (recorded(EXTENSION_TSV), EXTENSION_LABELS)]
    total: dict = {}
    sc: dict = {}
    for rows, labels in parts:
        only = {file for _corpus, file, _stratum, _commit in rows}
        for k, v in compare(corpus, labels, judged, matches, only=only).items():
            total[k] = total.get(k, 0 if isinstance(v, int) else []) + v
        for k, (a, b) in scored(corpus, only, labels).items():
            sc[k] = [sc.get(k, [0, 0])[0] + a, sc.get(k, [0, 0])[1] + b]
    report(f"{corpus} (draw and extension pooled)", total)
    print("  scored by scoring.py's rule:", ", ".join(f"{k} {a}/{b}" for k, (a, b) in sc.items()))


EVERY_SIXTH = ("every-sixth draw", "extension (every other labelled attempt, as many without; stratum hidden)")


def both_draws(
    draw: tuple[str, str],
    extension: tuple[str, str],
    judged: dict,
    matches: list,
    seen: tuple,
    corpus: str = "conversations",
    titles: tuple[str, str] = EVERY_SIXTH,
) -> None:
    """A round's draw and its extension, each as (recorded tsv, labels file): each alone, then pooled."""
    print(f"== the {titles[0]}")
    run(recorded(draw[0]), draw[1], judged, matches, seen)
    print(f"== the {titles[1]}")
    run(recorded(extension[0]), extension[1], judged, matches, seen)
    pooled([(recorded(draw[0]), draw[1]), (recorded(extension[0]), extension[1])], judged, matches, corpus)


if __name__ == "__main__":
    print("== the every-sixth draw")
    run(recorded(TSV), LABELS, JUDGED, MATCHES, STRATUM_SEEN)
    print("== the extension (every other labelled attempt, 7 without; stratum hidden)")
    run(recorded(EXTENSION_TSV), EXTENSION_LABELS, JUDGED, MATCHES, STRATUM_SEEN)
    pooled()
