"""A ticked item (a check mark opening a bullet: "- ✅ Cluster 100% healthy", "✅ No data loss") is a checklist's
outcome or a lesson, never the fix or the cause (issue 23, bench/devset_metadata's tuning-orgs-2 and fold A's homelab
and agent postmortems); a ticked item that tells a step in the fix's words is still read."""

from __future__ import annotations

import pytest

from bot.reader import without_metadata
from bot.reader.metadata_kind import metadata_kind


@pytest.mark.parametrize(
    "line",
    ["- ✅ CoreDNS 2/2 pods Running", "- ✅ Cluster 100% healthy", "- ✅ DNS resolution working"],
)
def test_a_ticked_item_is_never_stored_and_is_named_status(line: str) -> None:
    assert without_metadata(line) == ""
    assert metadata_kind(line) == "status"


def test_the_fix_is_kept_and_its_ticked_outcome_goes() -> None:
    stored = "**Outcome:**\n- ✅ CoreDNS 2/2 pods Running\n- ✅ Cluster 100% healthy\nUpdated the CoreDNS ConfigMap to forward to public DNS servers"
    assert without_metadata(stored) == "**Outcome:**\nUpdated the CoreDNS ConfigMap to forward to public DNS servers"


@pytest.mark.parametrize(
    "line", ["- ✅ Rolled back the deploy to v1.4.2", "- ✅ Restarted the database to clear the locks"]
)
def test_a_ticked_step_told_in_the_fix_words_is_read(line: str) -> None:
    assert without_metadata(line) == line
