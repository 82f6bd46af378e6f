"""bench/attempts_blind_rules.py (issue 23): a precision rule for stored failed attempts is kept only when the wrong
lines it removes on fold A's blind lines do not rest on one organisation, at two wrong lines per real one lost."""

from __future__ import annotations

from bench import attempts_blind_rules as rules


def _row(org: str, real: bool, said: str = "x") -> dict:
    return {"org": org, "real": real, "said": said}


def test_a_rule_whose_gain_rests_on_one_organisation_fails() -> None:
    removes_all = lambda said: True  # noqa: E731
    one_org = [_row("a", False), _row("a", False), _row("a", False), _row("b", True, "kept")]
    judged = rules.judge(one_org, lambda said: said == "x")
    assert judged["orgs_wrong"] == ["a"]
    assert not rules.passes(judged, rules.judge([], removes_all))
    spread = [_row("a", False), _row("b", False), _row("c", False), _row("c", True, "kept")]
    judged = rules.judge(spread, lambda said: said == "x")
    assert (judged["real"], judged["wrong"], judged["worst_one_out"]) == (0, 3, float("inf"))
    assert rules.passes(judged, rules.judge([], removes_all))
    # the same rule, costing the reader today two real lines: not kept
    assert not rules.passes(judged, rules.judge([_row("d", True), _row("d", True)], removes_all))


def test_a_real_line_lost_is_weighed_with_each_organisation_left_out() -> None:
    lines = [_row("a", False), _row("a", False), _row("a", False), _row("b", False), _row("b", True)]
    judged = rules.judge(lines, lambda said: True)
    # all of them: 4 wrong for 1 real; without "a": 1 wrong for 1 real
    assert (judged["real"], judged["wrong"], judged["worst_one_out"]) == (1, 4, 1.0)
    assert not rules.passes(judged, rules.judge([], lambda said: False))


def test_the_rules_read_where_the_failure_stands() -> None:
    assert rules.aside_only("We cleared out staging (we noticed staging was still stuck)")
    assert not rules.aside_only("We cleared out staging, but it was still stuck (as before)")
    assert rules.past_perfect("We had pulled the backup, but the tool had failed to restore it")
    assert not rules.past_perfect("We pulled the backup, but the tool failed to restore it")
    assert rules.shipped("We cleared out staging (we noticed staging was still stuck)")
    assert not rules.shipped("(it does not) manually reset the node in the hope it frees the volume")
