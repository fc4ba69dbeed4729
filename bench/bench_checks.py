"""Set-up checks, dealers and caravans: prints timings (not a test; run with `make bench`).

Targets (issue "Board geometry, set-up validators and set-up dealers"): validate a full Delphi set-up
< 20 ms; list every legal caravan on the bundled Ankh map < 2 s; deal 1,000 Delphi set-ups < 10 s.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from pnpforge import catalog
from pnpforge.table.setupfile import check_text, dump_yaml


def best_of(runs: int, job: Callable[[], Any]) -> float:
    """The fastest of `runs` timings in seconds (the least disturbed by other work on the machine)."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        job()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    delphi_checks: Any = catalog.game_module(catalog.find_game("delphi"), "checks")
    delphi_deal: Any = catalog.game_module(catalog.find_game("delphi"), "deal")
    ankh_checks: Any = catalog.game_module(catalog.find_game("ankh"), "checks")
    ankh_caravans: Any = catalog.game_module(catalog.find_game("ankh"), "caravans")

    data = delphi_deal.deal(4, 1, {})
    text = dump_yaml(data)
    setup = delphi_checks.Setup.model_validate(data)
    delphi_checks.check(setup)  # warm the tile cache
    check_ms = best_of(50, lambda: delphi_checks.check(setup)) * 1000
    file_ms = best_of(10, lambda: check_text(text)) * 1000
    print(f"delphi: check a full 4-player set-up      {check_ms:8.2f} ms   (target < 20 ms)")
    print(f"delphi: read YAML + model + check         {file_ms:8.2f} ms   (most of it is YAML parsing)")

    deal_s = best_of(1, lambda: [delphi_deal.deal(2 + seed % 3, seed, {}) for seed in range(1000)])
    print(f"delphi: deal 1,000 set-ups                {deal_s:8.2f} s    (target < 10 s)")

    base = ankh_checks.Setup.model_validate(
        catalog.game_module(catalog.find_game("ankh"), "deal").deal(2, 1, {"scenario": "OldKingdom"})
    )
    caravan_s = best_of(3, lambda: ankh_caravans.caravans(base))
    count = len(ankh_caravans.caravans(base))
    print(f"ankh:   list every legal caravan          {caravan_s:8.2f} s    ({count} found; target < 2 s)")
    ankh_ms = best_of(20, lambda: ankh_checks.check(base)) * 1000
    print(f"ankh:   check a 2-player set-up           {ankh_ms:8.2f} ms")


if __name__ == "__main__":
    main()
