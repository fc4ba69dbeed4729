"""Quick property-based hostile-input suite (issue 8); `make fuzz` runs the long campaign.

Hypothesis mutates real seeds (tiny-quest and a feature spec, dealt set-ups, the score examples of
docs/scoring.md): a value anywhere replaced by any YAML value (huge integers, NaN, infinities,
nested lists and maps, control characters), keys deleted or duplicated, bytes inserted, other
encodings. Every case runs through the real CLI and must keep the promise: exit 0, 1 or 2, every
`error:` line located, no traceback, nothing written outside the output folder, within a deadline.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import fuzzing
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

SEEDS = fuzzing.Seeds(bundled=False)
ENCODINGS = ["utf-8", "shift_jis", "latin-1", "utf-16"]
QUICK = settings(
    max_examples=40,
    deadline=10_000,  # ms per example: a hang or an exponential blow-up fails here
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    derandomize=True,  # the same examples every run: make test stays deterministic
)
scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=10**17, max_value=10**40)
    | st.floats()
    | st.text(max_size=20)
    | st.sampled_from(["inf%", "1e400mm", "-0mm", "99999x99999mm", "{name}", "../outside/x.yaml", "3.9pt"])
)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=6,
)


def check(case: fuzzing.Case) -> None:
    with tempfile.TemporaryDirectory(prefix="pnpforge-fuzz-") as folder:
        verdict = fuzzing.run_case(case, Path(folder) / "case")
    assert not verdict.faults, (case.args, verdict.faults, verdict.output[-2000:])


def replaced(data: Any, pick: int, value: Any, delete: bool) -> Any:
    """`data` with the value at the pick-th place (of all places) replaced or deleted."""
    paths = [p for p in fuzzing._paths(data) if p]
    if not paths:
        return value
    path = paths[pick % len(paths)]
    parent = fuzzing._get(data, path[:-1])
    if delete:
        del parent[path[-1]]
    else:
        parent[path[-1]] = value
    return data


@QUICK
@given(kind=st.sampled_from(["setup", "score"]), seed=st.integers(0, 99), pick=st.integers(0, 10**6),
       value=values, delete=st.booleans())  # fmt: skip
def test_mutated_setup_and_score_files(kind: str, seed: int, pick: int, value: Any, delete: bool) -> None:
    pool = SEEDS.setups if kind == "setup" else SEEDS.scores
    data = replaced(fuzzing._parse(pool[seed % len(pool)]), pick, value, delete)
    command = "validate" if kind == "setup" else "score"
    check(fuzzing.Case(kind, {"input.yaml": fuzzing.dump(data).encode()}, [command, "input.yaml"]))


@QUICK
@given(seed=st.integers(0, 1), pick=st.integers(0, 10**6), value=values, delete=st.booleans(),
       command=st.sampled_from(["inventory", "build"]))  # fmt: skip
def test_mutated_specs(seed: int, pick: int, value: Any, delete: bool, command: str) -> None:
    files = dict(SEEDS.specs[seed])
    files["game.yaml"] = fuzzing.dump(
        replaced(fuzzing._parse(files["game.yaml"].decode()), pick, value, delete)
    ).encode()
    args = [command, "spec"] + (["-o", "out"] if command == "build" else [])
    check(fuzzing.Case("spec", {f"spec/{k}": v for k, v in files.items()}, args))


@QUICK
@given(kind=st.sampled_from(["setup", "score"]), seed=st.integers(0, 99), at=st.integers(0, 10**6),
       junk=st.binary(min_size=1, max_size=4), encoding=st.sampled_from(ENCODINGS))  # fmt: skip
def test_damaged_bytes_and_foreign_encodings(
    kind: str, seed: int, at: int, junk: bytes, encoding: str
) -> None:
    pool = SEEDS.setups if kind == "setup" else SEEDS.scores
    body = pool[seed % len(pool)].replace("Ann", "Zoë").encode(encoding, errors="replace")
    at %= len(body) + 1
    command = "validate" if kind == "setup" else "score"
    check(fuzzing.Case(kind, {"input.yaml": body[:at] + junk + body[at:]}, [command, "input.yaml"]))


@QUICK
@given(case=st.integers(0, 10**9))
def test_campaign_cases(case: int) -> None:
    """The long campaign's own mutations (rng-driven: retype, delete, duplicate, bombs, encodings)."""
    rng = random.Random(case)
    check(fuzzing.make_case(SEEDS, fuzzing.KINDS[case % 3], rng))


@settings(max_examples=4, deadline=60_000, derandomize=True)
@given(depth=st.integers(101, 200_000), opener=st.sampled_from(["[", "{a: ", "- "]))
def test_deep_nesting_in_a_real_process(depth: int, opener: str) -> None:
    """The segfault class: a crash would kill this process (negative exit code), so run a real one."""
    closer = {"[": "]", "{a: ": "}", "- ": ""}[opener]
    text = "game: gods\nplayers:\n  " + opener * depth + "1" + closer * depth + "\n"
    if opener == "- ":
        text = "game: gods\nplayers:\n" + "".join("  " * i + "-\n" for i in range(min(depth, 3000))) + "\n"
    with tempfile.TemporaryDirectory(prefix="pnpforge-deep-") as folder:
        path = Path(folder) / "deep.yaml"
        path.write_text(text, encoding="utf-8")
        done = subprocess.run([sys.executable, "-m", "pnpforge", "score", str(path)],
                              capture_output=True, text=True, timeout=60)  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and "levels deep" in done.stderr


def test_the_judge_sees_each_kind_of_fault() -> None:
    assert fuzzing.judge(2, "error: a.yaml:3:4: bad", None, []) == []
    assert fuzzing.judge(2, "error: <command line>: bad", None, []) == []
    assert fuzzing.judge(2, "error: bad value", None, []) == ["unlocated"]
    assert fuzzing.judge(2, "", None, []) == ["unlocated"]
    assert fuzzing.judge(1, "x", ValueError("boom"), []) == ["traceback"]
    assert fuzzing.judge(3, "internal error: KeyError: 'x' (please report)", None, []) == ["internal"]
    assert fuzzing.judge(0, "", None, ["../elsewhere.pdf"]) == ["outside"]
    # a text input of the case named without its line and column is not located, unless the message
    # is about the whole file; files the case did not write (a font, the command line) may be named alone
    inputs = {"game.yaml", "cards.csv"}
    assert fuzzing.judge(2, "error: spec/game.yaml: bad value", None, [], inputs=inputs) == ["unlocated"]
    assert fuzzing.judge(2, "error: spec/cards.csv: file larger than 10 MB", None, [], inputs=inputs) == []
    assert fuzzing.judge(2, "error: /usr/x.ttf: not a usable TrueType font", None, [], inputs=inputs) == []
    assert fuzzing.judge(0, "", None, [], reads=["/etc/passwd"]) == ["outside reads"]
    assert fuzzing.judge(2, "error: <command line>: x", None, [], changed=["x.pdf"]) == ["changed outputs"]
    assert fuzzing.judge(0, "", None, [], memory=2 * 10**9) == ["memory"]


CSV_SPEC = b"""game: {id: t, title: T}
components:
  - {name: cards, kind: card, size: poker, csv: ../outside/secret.csv, face: {elements: []}}
"""


def test_the_audit_hook_sees_a_read_outside_the_spec_folder() -> None:
    """The real CLI with --allow-outside-files reads the planted secret: the hook must see it; without
    the flag the folder rule refuses the file before anything opens it."""
    with tempfile.TemporaryDirectory(prefix="pnpforge-audit-") as folder:
        allowed = fuzzing.Case(
            "command", {"spec/game.yaml": CSV_SPEC}, ["build", "spec", "--allow-outside-files"]
        )
        verdict = fuzzing.run_case(allowed, Path(folder) / "case")
        assert "outside reads" in verdict.faults and "secret.csv" in verdict.output
        refused = fuzzing.Case("command", {"spec/game.yaml": CSV_SPEC}, ["build", "spec", "-o", "out"])
        verdict = fuzzing.run_case(refused, Path(folder) / "case")
        assert verdict.exit_code == 2 and verdict.faults == []


def test_campaign_counts_crashes_and_hangs() -> None:
    """The campaign harness itself: with the self-test switch, case 1 segfaults and case 2 hangs."""
    script = Path(__file__).with_name("fuzz_campaign.py")
    done = subprocess.run(
        [sys.executable, str(script), "--cases", "4", "--timeout", "4"],
        capture_output=True, text=True, timeout=120, env={**os.environ, "PNPFORGE_FUZZ_SELF_TEST": "1"},
    )  # fmt: skip
    assert done.returncode == 1, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert "cases: 4" in lines[0]
    assert {"crashes: 1", "hangs: 1", "tracebacks: 0", "unlocated errors: 0", "internal errors: 0"} <= set(
        lines
    )
    assert any("crashes: case 1 (worker exit -11)" in line for line in lines)
