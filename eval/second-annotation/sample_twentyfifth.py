"""Draw the blind second annotation of the twenty-fifth collection (README.md, "The twenty-fifth collection").

sample_twentyfourth.py's two draws on c25's conversations (not in eval/ at BASE, listed at DRAWN_AT; rule and seed
stamped 10:21 UTC in /work/notes-c25second.md before any c25 thread or label was read): every THIRD by name from the
first, at most 16 (c24's rule; with 39 files at DRAWN_AT the cap is not reached). The extension decided with it: every
other c25 thread whose label holds a failed attempt (a random MOST_WITH of them when there are more: the round's
time), as many without, by random.Random(SEED), shuffled, the stratum never printed. Read in that order (the draw, then
the extension) until the stamped time cap: the recorded draws are the prefixes read (READ, READ_EXTENSION).

    python3 eval/second-annotation/sample_twentyfifth.py [--extension] [--record | --check]
"""

import sys

import sample_twentyfirst as twentyfirst
from sample_twentythird import rows_read

BASE = "e0ec2ca"  # main before c25's batch 1 (bba0054): the fourteenth session's first commit and corpus freeze
DRAWN_AT = "51c278f"  # main at 10:21 UTC, after c25's batch 4, the last c25 batch then
TSV = "drawn-twentyfifth.tsv"
EXTENSION_TSV = "drawn-twentyfifth-extension.tsv"
SEED, MOST_WITH = 20262507, 6
READ, READ_EXTENSION = 13, 2  # how much of each draw was labelled by the time cap (11:35 UTC): all of both
# c25 added no postmortem: the draw is of conversations only (sample_twentythird.draw)
ROWS = rows_read(DRAWN_AT, BASE, SEED, MOST_WITH, (READ, READ_EXTENSION))

if __name__ == "__main__":
    twentyfirst.main(sys.argv, ROWS, (TSV, EXTENSION_TSV))
