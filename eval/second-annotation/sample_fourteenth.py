"""Draw the fourteenth collection's sample for the second annotation (README.md, "The fourteenth collection").

sample_twelfth.py's draw with this round's seed, base and plan: each corpus's new files (not in eval/ at BASE, the lead's
last commit before the fourteenth collection) listed at the freeze commit, their labels read from truth.jsonl there
(only file, organisation and whether failed_attempts is empty), stratified by organisation within "with" / "without" a
failed attempt; postmortems first, conversations from the same generator continued.

    python3 eval/second-annotation/sample_fourteenth.py            # reading order (no stratum printed)
    python3 eval/second-annotation/sample_fourteenth.py --record > eval/second-annotation/drawn-fourteenth.tsv
    python3 eval/second-annotation/sample_fourteenth.py --check    # redraw from git; fails if drawn-fourteenth.tsv differs
"""

import sys

from sample_twelfth import main

SEED = 20261214
BASE = "99c6db6"  # main before the fourteenth collection (the lead's docs commit after the thirteenth)
FREEZE = "378807e"  # main at the corpus freeze: the lead's "FREEZE=378807e…" in /work/notes-shared.md (11:40 UTC)
# corpus -> (commit the draw reads, {stratum: quota}); all there are, if fewer.
PLAN = {
    "postmortems": (FREEZE, {"with": 6, "without": 10}),
    "conversations": (FREEZE, {"with": 6, "without": 8}),
}
TSV = "drawn-fourteenth.tsv"

if __name__ == "__main__":
    if FREEZE is None:
        sys.exit("not drawn yet: FREEZE (the commit at the ≈ 12:00 UTC corpus freeze) is not pinned")
    main(sys.argv, PLAN, SEED, BASE, TSV)
