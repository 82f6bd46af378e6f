"""Draw the second blind annotation of the twenty-fifth collection's later batches (README.md, "The twenty-fifth
collection's batches 5-12").

sample_twentyfifth.py's two draws on the c25 conversations added after c25second's draw (not in eval/ at BASE, listed
at DRAWN_AT; rule and seed stamped 10:54 UTC in /work/notes-c25second2.md before any of them was read): every THIRD by
name from the first, at most 16 (with 67 files the cap is reached: the draw ends about two thirds through the
alphabet). The extension decided with it: every other of those threads whose label holds a failed attempt (a random
MOST_WITH of them when there are more: the round's time), as many without, by random.Random(SEED), shuffled, the
stratum never printed. Read in that order (the draw, then the extension) until the stamped time cap: the recorded draws
are the prefixes read (READ, READ_EXTENSION).

    python3 eval/second-annotation/sample_twentyfifth_second.py [--extension] [--record | --check]
"""

import sys

import sample_twentyfirst as twentyfirst
from sample_twentythird import rows_read

BASE = "51c278f"  # main at c25second's draw (sample_twentyfifth.DRAWN_AT), after c25's batch 4
DRAWN_AT = "e520a5dc"  # c25's batch 12, the last c25 batch on main at 10:54 UTC
TSV = "drawn-twentyfifth-second.tsv"
EXTENSION_TSV = "drawn-twentyfifth-second-extension.tsv"
SEED, MOST_WITH = 20262508, 6
READ, READ_EXTENSION = 16, 12  # how much of each draw was labelled by the time cap (11:45 UTC)
# c25 added no postmortem: the draw is of conversations only (sample_twentythird.draw)
ROWS = rows_read(DRAWN_AT, BASE, SEED, MOST_WITH, (READ, READ_EXTENSION))

if __name__ == "__main__":
    twentyfirst.main(sys.argv, ROWS, (TSV, EXTENSION_TSV))
