"""bench/attempt_lines_by_path.py (issue 23, convatt): a drafted attempt line gets the kinds of the reading that
picked it (where its answer stands, whether its step has a doer), it is scored real or wrong by the labels, and the
table counts each kind once a line."""

from __future__ import annotations

import bench.attempt_lines_by_path as by_path


def thread(*said: tuple[str, str]) -> dict:
    return {"messages": [{"author": author, "text": text} for author, text in said]}


def label(name: str, attempts: list[list[str]]) -> dict:
    return {"file": name, "fold": "A", "failed_attempts": [{"action_keywords": a} for a in attempts]}


def test_a_step_answered_by_another_persons_reply_is_a_reply_line_with_a_doer() -> None:
    data = [
        (
            label("reply.json", [["restarted the mail worker"]]),
            thread(
                ("u1", "Mail is not arriving since this morning."),
                ("u2", "I restarted the mail worker."),
                ("u1", "Hm, still not arriving."),
            ),
        )
    ]
    [line] = by_path.lines(data)
    assert line.real
    assert {"answer=reply", "doer=True", "opening=False"} <= set(line.kinds)


def test_a_line_no_label_holds_is_wrong_and_the_table_counts_it_once_a_kind() -> None:
    data = [
        (
            label("none.json", []),
            thread(("u1", "I tried restarting the server, it didn't help."), ("u2", "Looking.")),
        )
    ]
    found = by_path.lines(data)
    assert [line.real for line in found] == [False]
    rows = {kind: (real, wrong) for kind, real, wrong in by_path.table(found)}
    assert rows["tried=True"] == (0, 1)
    assert rows["opening=True"] == (0, 1)
    assert sum(wrong for real, wrong in rows.values()) == len(found[0].kinds)
