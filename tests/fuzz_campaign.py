"""The long hostile-input campaign (`make fuzz`): thousands of mutated specs, set-ups and score files.

Each case (tests/fuzzing.py) runs through the real CLI in a worker process; two workers share the
machine. A case that outlives its time limit is a hang (its worker is killed and replaced), a worker
that dies is a crash (e.g. a segmentation fault in a parser). Prints the counts; exit 1 unless every
count but `cases` is 0.

    .venv/bin/python tests/fuzz_campaign.py --cases 10500
    .venv/bin/python tests/fuzz_campaign.py --only 4711     # replay one case, with its output
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import shutil
import signal
import sys
import tempfile
import time
from collections import Counter
from multiprocessing.connection import Connection, wait
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import fuzzing  # noqa: E402  (beside this script, not an installed module)

SELF_TEST = os.environ.get("PNPFORGE_FUZZ_SELF_TEST") == "1"  # case 1 crashes, case 2 hangs
MEMORY_LIMIT = 3 * 2**30  # bytes of address space per worker: a blow-up fails instead of swapping
REPORTED = (
    "tracebacks", "hangs", "crashes", "unlocated errors", "internal errors", "outside writes",
    "outside reads", "changed outputs", "memory blow-ups",
)  # fmt: skip
FAULT_NAMES = {
    "traceback": "tracebacks",
    "unlocated": "unlocated errors",
    "internal": "internal errors",
    "outside": "outside writes",
    "memory": "memory blow-ups",
}


def make(index: int, seeds: fuzzing.Seeds, base_seed: int) -> fuzzing.Case:
    import random

    rng = random.Random(base_seed * 1_000_003 + index)
    return fuzzing.make_case(seeds, fuzzing.KINDS[index % len(fuzzing.KINDS)], rng)


def worker(conn: Connection, folder: str, base_seed: int) -> None:
    """Run the case indices the parent sends; answer (index, faults, exit code, last output line)."""
    try:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    except (ImportError, ValueError, OSError):
        pass
    seeds = fuzzing.Seeds()
    conn.send(("ready",))
    while True:
        index = conn.recv()
        if index is None:
            return
        if SELF_TEST and index == 1:  # prove the harness sees a crash...
            os.kill(os.getpid(), signal.SIGSEGV)
        if SELF_TEST and index == 2:  # ...and a hang
            time.sleep(3600)
        case = make(index, seeds, base_seed)
        verdict = fuzzing.run_case(case, Path(folder) / "case")
        tail = verdict.output.strip().splitlines()[-1:] or [""]
        peak = fuzzing._peak_rss()
        conn.send((index, verdict.faults, verdict.exit_code, " ".join(case.args), tail[0][:200], peak))


class Slot:
    """One worker process and the case it is running."""

    def __init__(self, ctx: mp.context.BaseContext, folder: Path, base_seed: int) -> None:
        self.conn, child = ctx.Pipe()
        self.process = ctx.Process(target=worker, args=(child, str(folder), base_seed), daemon=True)
        self.process.start()
        child.close()
        self.conn.recv()  # ready: seeds made, modules imported
        self.index: int | None = None
        self.started = 0.0

    def give(self, index: int) -> None:
        self.index, self.started = index, time.monotonic()
        self.conn.send(index)

    def kill(self) -> None:
        self.process.kill()
        self.process.join()


def campaign(cases: int, workers: int, timeout: float, base_seed: int) -> int:
    ctx = mp.get_context("fork")
    root = Path(tempfile.mkdtemp(prefix="pnpforge-fuzz-"))
    counts: Counter[str] = Counter()
    peaks: list[int] = [0]
    runs: list[str] = []
    examples: dict[str, list[str]] = {}
    started = time.monotonic()

    def note(kind: str, text: str) -> None:
        counts[kind] += 1
        examples.setdefault(kind, [])
        if len(examples[kind]) < 5:
            examples[kind].append(text)

    slots = [Slot(ctx, root / f"w{n}", base_seed) for n in range(workers)]
    pending = iter(range(cases))
    for slot in slots:
        slot.give(next(pending))
    active = len(slots)
    while active:
        ready = wait([s.conn for s in slots if s.index is not None], timeout=1.0)
        now = time.monotonic()
        for number, slot in enumerate(slots):
            if slot.index is None:
                continue
            failed = ""
            if slot.conn in ready:
                try:
                    index, faults, code, args, tail, peak = slot.conn.recv()
                    peaks.append(peak)
                    runs.append(args)
                except (EOFError, OSError):
                    failed = "crashes"
                else:
                    counts["cases"] += 1
                    counts[f"exit {code}"] += 1
                    if counts["cases"] % 1000 == 0:
                        faults_so_far = sum(counts[kind] for kind in REPORTED)
                        print(f"... {counts['cases']} cases, {faults_so_far} faults", flush=True)
                    for fault in faults:
                        note(FAULT_NAMES.get(fault, fault), f"case {index}: {args} -> {tail}")
            elif now - slot.started > timeout:
                failed = "hangs"
            if failed:
                slot.kill()
                counts["cases"] += 1
                code = slot.process.exitcode
                note(failed, f"case {slot.index} (worker exit {code})")
                slots[number] = slot = Slot(ctx, root / f"w{number}", base_seed)
            if failed or slot.conn in ready:
                following = next(pending, None)
                if following is None:
                    slot.index = None
                    active -= 1
                else:
                    slot.give(following)
    for slot in slots:
        slot.conn.send(None)
        slot.process.join(timeout=5)
    shutil.rmtree(root, ignore_errors=True)
    elapsed = time.monotonic() - started
    print(f"cases: {counts['cases']} in {elapsed:.0f} s ({workers} workers, {timeout:g} s per case)")
    print(
        "exit codes: "
        + ", ".join(f"{k.split()[1]}: {v}" for k, v in sorted(counts.items()) if k[:5] == "exit ")
    )
    commands = Counter(a.split()[0] for a in runs)
    print("commands: " + ", ".join(f"{k}: {v}" for k, v in sorted(commands.items())))
    print(f"peak worker memory: {max(peaks) / 2**20:.0f} MB")
    for kind in REPORTED:
        print(f"{kind}: {counts[kind]}")
    for kind, texts in examples.items():
        for text in texts:
            print(f"  {kind}: {text}")
    return 1 if any(counts[kind] for kind in REPORTED) else 0


def replay(index: int, base_seed: int) -> int:
    seeds = fuzzing.Seeds()
    case = make(index, seeds, base_seed)
    folder = Path(tempfile.mkdtemp(prefix="pnpforge-case-"))
    verdict = fuzzing.run_case(case, folder / "case")
    print(f"case {index} ({case.kind}, {case.note}): pnpforge {' '.join(case.args)}  [in {folder / 'case'}]")
    print(verdict.output)
    print(f"exit {verdict.exit_code}; faults: {', '.join(verdict.faults) or 'none'}")
    return 1 if verdict.faults else 0


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--cases", type=int, default=10_500)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds per case before it is a hang")
    parser.add_argument("--seed", type=int, default=0, help="campaign seed (same seed, same cases)")
    parser.add_argument("--only", type=int, help="replay this one case and show its output")
    args = parser.parse_args()
    if args.only is not None:
        return replay(args.only, args.seed)
    return campaign(args.cases, args.workers, args.timeout, args.seed)


if __name__ == "__main__":
    sys.exit(main())
