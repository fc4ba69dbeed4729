"""Preflight of a PDF, as a print shop's checker reads it: fonts, boxes, version, output intent, cut path.

    python -m pnpforge.export.preflight out/gods-print-shop/*.pdf [--shop]

needs pypdf (`pip install pypdf`, part of the test extra). Each problem is printed as `FILE: page N:
what`; the exit code is 1 when any was found. Without --shop only the checks every pnpforge PDF passes
are made (every font embedded, subset tags unique); with --shop also those of a print-shop file: PDF
1.6 or later, an sRGB OutputIntent with its ICC profile, a TrimBox inside a BleedBox on every page.
When qpdf is installed its structural check (`qpdf --check`) runs too.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

FONT_FILES = ("/FontFile", "/FontFile2", "/FontFile3")


@dataclass(frozen=True)
class FontUse:
    page: int  # 1-based
    name: str  # /BaseFont, with its subset tag
    embedded: bool


def _resources(resources: Any) -> Iterator[Any]:
    """`resources` and those of every form XObject under it (reused drawings hold most text)."""
    seen: set[int] = set()
    stack = [resources]
    while stack:
        res = stack.pop().get_object()
        if id(res) in seen:
            continue
        seen.add(id(res))
        yield res
        xobjects = res.get("/XObject")
        for xobject in xobjects.get_object().values() if xobjects is not None else []:
            xobject = xobject.get_object()
            if "/Resources" in xobject:
                stack.append(xobject["/Resources"])


def _embedded(font: Any) -> bool:
    font = font.get_object()
    if font.get("/Subtype") == "/Type0":
        font = font["/DescendantFonts"][0].get_object()
    descriptor = font.get("/FontDescriptor")
    return descriptor is not None and any(key in descriptor.get_object() for key in FONT_FILES)


def fonts(reader: Any) -> list[FontUse]:
    """Every font each page uses (directly or in its forms)."""
    found = []
    for number, page in enumerate(reader.pages, start=1):
        if "/Resources" not in page:
            continue
        for res in _resources(page["/Resources"]):
            table = res.get("/Font")
            for font in table.get_object().values() if table is not None else []:
                found.append(FontUse(number, str(font.get_object()["/BaseFont"]), _embedded(font)))
    return found


def separations(reader: Any) -> set[str]:
    """The names of every Separation colour space the pages (and their forms) use."""
    names = set()
    for page in reader.pages:
        for res in _resources(page["/Resources"]):
            spaces = res.get("/ColorSpace")
            for space in spaces.get_object().values() if spaces is not None else []:
                space = space.get_object()
                if isinstance(space, list) and space and space[0] == "/Separation":
                    names.add(str(space[1]).lstrip("/"))
    return names


def font_problems(reader: Any) -> list[str]:
    problems = [
        f"page {use.page}: font {use.name} is not embedded" for use in fonts(reader) if not use.embedded
    ]
    tags: dict[str, set[str]] = {}
    for use in fonts(reader):
        tag, plus, _ = use.name.lstrip("/").partition("+")
        if plus:
            tags.setdefault(tag, set()).add(use.name)
    problems += [
        f"subset tag {tag} is shared by {', '.join(sorted(n))}" for tag, n in tags.items() if len(n) > 1
    ]
    return problems


def shop_problems(reader: Any) -> list[str]:
    problems = []
    major, minor = (int(part) for part in reader.pdf_header.removeprefix("%PDF-").split("."))
    if (major, minor) < (1, 6):
        problems.append(f"PDF {major}.{minor} (expected 1.6 or later)")
    intents = reader.trailer["/Root"].get("/OutputIntents")
    intent = intents.get_object()[0].get_object() if intents else None
    if intent is None or "/DestOutputProfile" not in intent:
        problems.append("no OutputIntent with an ICC profile")
    for number, page in enumerate(reader.pages, start=1):
        if "/TrimBox" not in page or "/BleedBox" not in page:
            problems.append(f"page {number}: no TrimBox or BleedBox")
            continue
        trim, bleed = page.trimbox, page.bleedbox
        if not (bleed.left <= trim.left and bleed.bottom <= trim.bottom) or not (
            trim.right <= bleed.right and trim.top <= bleed.top
        ):
            problems.append(f"page {number}: TrimBox not inside BleedBox")
    return problems


def problems(path: Path, shop: bool = False) -> list[str]:
    """Everything wrong with the PDF at `path` (empty when it passes)."""
    from pypdf import PdfReader

    reader = PdfReader(path)
    found = font_problems(reader) + (shop_problems(reader) if shop else [])
    qpdf = shutil.which("qpdf")
    if qpdf is not None:
        run = subprocess.run([qpdf, "--check", str(path)], capture_output=True, text=True, check=False)
        if run.returncode not in (0, 3):  # 3: warnings only
            found.append("qpdf --check: " + (run.stdout + run.stderr).strip().splitlines()[-1])
    return found


def main(argv: list[str]) -> int:
    shop = "--shop" in argv
    failed = False
    for name in (arg for arg in argv if arg != "--shop"):
        for problem in problems(Path(name), shop):
            print(f"{name}: {problem}")
            failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
