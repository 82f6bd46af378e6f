"""The scoring rule and a label's leading words (eval/README.md, "Rules for every phrase"; docs/BENCHMARKS.md, "The
scorer and a label's leading words"): labels keep the item's words, subject included, and a line that says the same
thing without them ("Reran — Still failing" for "i reran") is right; a line about another step is still not, with or
without them. The pairs are people's decisions from eval/second-annotation (judged the same, or a different step)."""

from __future__ import annotations

from bot.importer.scoring import (
    attempt_is_real,
    drafted_attempt_text,
    holds_half,
    keyword_in,
    without_leading_words,
)


def test_a_line_that_says_the_labelled_step_without_its_subject_is_right() -> None:
    # dependencyci-41 (fold A): the drafter drops "I"; the blind reader read the line as a real failed attempt
    assert attempt_is_real(drafted_attempt_text("Reran", "Still failing"), [["i reran"]])
    # judged the same by people, fold B (chisel-2-329's fix, clipto-pro-android-23's attempt, medyo-hackertab.dev-177's
    # cause): the second annotator's phrases, cut of the label's leading words, as the stored text
    assert holds_half("gave it a kick", ["i gave it a kick"])
    assert attempt_is_real("signed in and out, multiple times no sync", [["i signed in and out, multiple times"]])
    assert holds_half("server ip has been blocked by reddit", ["the server ip has been blocked by reddit"])
    assert keyword_in("it's been re-enabled", "Re-enabled on our side") and keyword_in("due to the ddos", "a DDoS")


def test_a_line_about_another_step_stays_wrong_and_the_words_in_the_middle_still_count() -> None:
    # neon-aws-cni (fold B): the label's step and the second annotator's revert, judged different steps
    assert not attempt_is_real(
        "we reverted back to `warm_ip_target=0` continued to see ip assignment errors", [["we set [warm_ip_target=1]"]]
    )
    assert not keyword_in("we restarted the servers", "servers restarted")  # the order of the rest still counts
    assert not keyword_in("the database was full", "the database")  # only leading words go, never the rest
    assert not keyword_in("i reran", "i ran it again")
    # review F1, fold A: a rest of one word, or a "due to" cut, must open a clause — these were wrong grants
    assert not keyword_in("it was expired", "The demo has been moved as well as all references to the expired domain")
    assert not keyword_in("due to disk space", "* Doubled disk space")
    assert not keyword_in("it has been updated", "Please use the updated API from now on")
    assert keyword_in("it has been updated", "Thanks. Updated, should work now")


def test_only_a_leading_run_of_the_closed_list_is_cut() -> None:
    assert without_leading_words("It’s been re-enabled") == "re-enabled"
    assert without_leading_words("due to the recent ddos attack") == "recent ddos attack"
    assert without_leading_words("we have contacted the manager") == "contacted the manager"
    assert without_leading_words("restarted the server") is None  # opens with no listed word
    assert without_leading_words("the") is None and without_leading_words("when we restarted") is None


def test_a_cause_told_after_there_was_is_right_without_those_words() -> None:
    # c26second / c26second2 (fold A, judged the same by people): the label keeps "there was" / "there's", the second
    # annotator cut them, as a reader's cause line does ("Cause: a network issue at our university")
    assert holds_half("a network issue at our university", ["there was a network issue at our university"])
    assert holds_half("an nfs issue with our host", ["there's an nfs issue with our host"])
    assert holds_half(
        "a performance issue with many concurrent users", ["there was a performance issue with many concurrent users"]
    )
    assert without_leading_words("There were a few hung processes") == "few hung processes"
    # only the empty subject and its auxiliary go: what follows still counts, "no" included, and a rest of one word
    # must still open a clause
    assert not keyword_in("there was no user impact", "the user impact was large")
    assert not keyword_in("there was a lightning strike at my house", "a strike at my house")
    assert not keyword_in("there was a crash", "we saw the crash twice")
    assert keyword_in("there was a crash", "Cause: crash in the worker")
