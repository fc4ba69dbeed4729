"""Where a `pnpforge build` process spends its CPU before and while drawing, stage by stage, in-process.

Run by bench_startup.py in a fresh interpreter: `build_stages.py SPEC OUT` prints one JSON object of
CPU milliseconds per stage (imports in the order the build meets them, then the build's own steps) of
a full build (--no-cache: a warm one plays its pages back and skips these stages).
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import json
import sys
import time
from typing import Any

STAGES: dict[str, float] = {}
_last = time.process_time()


def _lap(name: str) -> None:
    global _last
    now = time.process_time()
    STAGES[name] = (now - _last) * 1000
    _last = now


def _timed(module: str, name: str, label: str) -> None:
    """Wrap module.name to add its CPU time to STAGES[label]."""
    owner = importlib.import_module(module)
    inner = getattr(owner, name)

    @functools.wraps(inner)
    def timed(*args: Any, **kwargs: Any) -> Any:
        started = time.process_time()
        try:
            return inner(*args, **kwargs)
        finally:
            STAGES[label] = STAGES.get(label, 0.0) + (time.process_time() - started) * 1000

    setattr(owner, name, timed)


def main() -> None:
    spec, out = sys.argv[1], sys.argv[2]
    import click  # noqa: F401

    _lap("import click")
    from pnpforge.cli import main as cli
    from pnpforge.cli import print_cmds  # noqa: F401

    _lap("import pnpforge.cli and its print commands")
    # the validator the spec's models are checked by: its compiled module alone, as lightmodel loads it
    # (the pydantic_core package, its __init__ and core_schema, is not imported by a build)
    from pnpforge.internals.pydantic_core_private import compiled

    compiled()
    _lap("load pydantic_core's compiled validator (not its package)")
    import reportlab.pdfgen.canvas  # noqa: F401
    from reportlab.pdfbase import ttfonts  # noqa: F401

    _lap("import reportlab canvas and ttfonts (the plain script's imports)")
    import pnpforge.components.model  # noqa: F401

    _lap("import components.model (the spec's light models)")
    import pnpforge.build  # noqa: F401
    import pnpforge.draw  # noqa: F401

    _lap("import the rest of pnpforge.build and .draw (layouts, fonts, output)")
    _timed("pnpforge.components.load", "load_target", "load the spec (YAML, CSV, validation)")
    _timed("pnpforge.fonts", "find_cjk_font", "find and load the Japanese font")
    _timed("pnpforge.build", "plan", "plan: pieces, fonts, layout on pages")
    _timed("pnpforge.draw", "write", "draw and write the PDF")
    sys.argv = ["pnpforge", "build", spec, "-o", out, "--no-cache"]
    # as the installed command builds (cli.run: its process ends with the build): the cycle collector
    # paused, so the stages below are its work, not collections it never makes
    from pnpforge import longlived

    longlived.pause()
    with contextlib.suppress(SystemExit):  # click ends by sys.exit
        cli()
    _lap("whole command")
    if "pydantic_core" in sys.modules:  # the breakdown would count an import the build does not make
        raise SystemExit("the build imported the pydantic_core package: relabel the stages")
    print(json.dumps(STAGES))


if __name__ == "__main__":
    main()
