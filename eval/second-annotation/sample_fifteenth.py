"""Draw the fifteenth collection's sample for the second annotation (README.md, "The fifteenth collection").

sample_twelfth.py's draw with this round's seed, base and plan: each corpus's new files (not in eval/ at BASE, main before
the fifteenth collection) listed at the freeze commit, their labels read from truth.jsonl there (only file, organisation
and whether failed_attempts is empty), stratified by organisation within "with" / "without" a failed attempt;
postmortems first, conversations from the same generator continued.

    python3 eval/second-annotation/sample_fifteenth.py            # reading order (no stratum printed)
    python3 eval/second-annotation/sample_fifteenth.py --record > eval/second-annotation/drawn-fifteenth.tsv
    python3 eval/second-annotation/sample_fifteenth.py --check    # redraw from git; fails if drawn-fifteenth.tsv differs
"""

import sys

from sample_fourteenth import PLAN as FOURTEENTH
from sample_twelfth import main

SEED = 20261206
BASE = "313e715"  # main before the fifteenth collection
FREEZE = "4e303fa"  # main at the corpus freeze: the lead's "FREEZE=4e303fa" in /work/notes-shared.md (13:47 UTC)
# corpus -> (commit the draw reads, {stratum: quota}): the fourteenth round's quotas, all there are if fewer.
PLAN = {corpus: (FREEZE, quota) for corpus, (_commit, quota) in FOURTEENTH.items()}
TSV = "drawn-fifteenth.tsv"

if __name__ == "__main__":
    if FREEZE is None:
        sys.exit("not drawn yet: FREEZE (the commit at the ≈ 14:20 UTC corpus freeze) is not pinned")
    main(sys.argv, PLAN, SEED, BASE, TSV)
