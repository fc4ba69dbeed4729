"""Each game's docs page lists the rulebook's components; the printed kit must match that table.

The table (section "Rulebook components") gives per row the rulebook's count, what prints it
(`component` or `component/part`, several joined by +, or — for nothing) and the printed count.
The printed count must be what `pnpforge inventory GAME --json` really gives, and it must equal
the rulebook's count unless the row's note says why it differs.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnpforge import catalog
from pnpforge.cli import main

DOCS = Path(__file__).resolve().parents[1] / "docs" / "games"
HEADER = ["rulebook component", "English", "rulebook count", "printed as", "printed count", "note"]
BUNDLED = [g.id for g in catalog.games() if g.bundled]


def table(game: str) -> list[dict[str, str]]:
    """The rows of the page's component table, as header -> cell."""
    text = (DOCS / f"{game}.md").read_text(encoding="utf-8")
    section = text.split("\n## Rulebook components\n", 1)[1].split("\n## ", 1)[0]
    lines = [line for line in section.splitlines() if line.startswith("|")]
    header = [cell.strip() for cell in lines[0].strip("|").split("|")]
    assert header == HEADER
    return [
        dict(zip(header, (c.strip() for c in line.strip("|").split("|")), strict=True)) for line in lines[2:]
    ]


def printed(game: str) -> dict[str, int]:
    """Counts by `component` and by `component/part`, from the real inventory."""
    result = CliRunner().invoke(main, ["inventory", game, "--json"])
    assert result.exit_code == 0, result.output
    counts = {}
    for component in json.loads(result.output):
        counts[component["name"]] = component["count"]
        counts.update({f"{component['name']}/{p['name']}": p["count"] for p in component["parts"]})
    return counts


@pytest.mark.parametrize("game", BUNDLED)
def test_printed_counts_match_the_rulebook_table(game: str) -> None:
    rows = table(game)
    real = printed(game)
    assert rows, f"{game}: the component table is empty"
    for row in rows:
        refs = re.findall(r"`([^`]+)`", row["printed as"])
        assert refs or row["printed as"] == "—", row
        unknown = [ref for ref in refs if ref not in real]
        assert not unknown, f"{game}: {unknown} is not in the inventory"
        count = int(row["printed count"])
        assert sum(real[ref] for ref in refs) == count, f"{game}: {row['rulebook component']} prints {count}?"
        if row["rulebook count"] == "—" or int(row["rulebook count"]) != count:
            assert row["note"], (
                f"{game}: {row['rulebook component']} differs from the rulebook without a note"
            )


@pytest.mark.parametrize("game", BUNDLED)
def test_every_page_has_rules_decisions_citing_its_rulebook(game: str) -> None:
    text = (DOCS / f"{game}.md").read_text(encoding="utf-8")
    decisions = text.split("\n## Rules decisions\n", 1)[1].split("\n## ", 1)[0]
    items = [line for line in decisions.splitlines() if line.startswith("- ")]
    assert len(items) >= 3
    assert "rulebook, " in decisions  # cited as "GAME rulebook, SECTION"


def test_docs_and_sources_stand_alone() -> None:
    """No path outside the repository and no rule-document numbers: users have neither."""
    root = DOCS.parents[1]
    outside = re.compile(r"\.\./shared|/shared/|seeds?/0[0-9]|seed 0[0-9]|RULINGS")
    found = [
        f"{path.relative_to(root)}:{number}"
        for path in [root / "README.md", *(root / "docs").rglob("*.md"), *(root / "src").rglob("*")]
        if path.is_file() and path.suffix in (".md", ".py", ".yaml", ".csv")
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if outside.search(line)
    ]
    assert not found
