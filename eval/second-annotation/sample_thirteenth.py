"""Draw the thirteenth collection's sample for the second annotation (README.md, "The thirteenth collection").

sample_twelfth.py's draw with this round's seed, base and plan: each corpus's new files (not in eval/ at BASE, this
session's start) listed at the first main commit at or after the 09:50 UTC corpus freeze, their labels read from
truth.jsonl there (only file, organisation and whether failed_attempts is empty), stratified by organisation within
"with" / "without" a failed attempt; postmortems first, conversations from the same generator continued.

    python3 eval/second-annotation/sample_thirteenth.py            # reading order (no stratum printed)
    python3 eval/second-annotation/sample_thirteenth.py --record > eval/second-annotation/drawn-thirteenth.tsv
    python3 eval/second-annotation/sample_thirteenth.py --check    # redraw from git; fails if drawn-thirteenth.tsv differs
"""

import sys

from sample_twelfth import main

SEED = 20261213
BASE = "0bfa2a0"  # main at this session's start, before the thirteenth collection
FREEZE = "e317b9b"  # main at the corpus freeze: the lead's "FREEZE=e317b9b" in /work/notes-shared.md (09:25 UTC)
# corpus -> (commit the draw reads, {stratum: quota}); quotas cut for time from the twelfth's before the draw.
PLAN = {
    "postmortems": (FREEZE, {"with": 6, "without": 12}),
    "conversations": (FREEZE, {"with": 6, "without": 8}),
}
TSV = "drawn-thirteenth.tsv"

if __name__ == "__main__":
    if FREEZE is None:
        sys.exit("not drawn yet: FREEZE (the commit at the 09:50 UTC corpus freeze) is not pinned")
    main(sys.argv, PLAN, SEED, BASE, TSV)
