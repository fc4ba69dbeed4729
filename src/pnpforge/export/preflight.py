"""Preflight of a PDF, as a print shop's checker reads it: fonts, boxes, version, output intent, cut path.

    python -m pnpforge.export.preflight out/gods-print-shop/*.pdf [--shop]

Each problem is printed as `FILE: page N: what`; the exit code is 1 when any was found. Without
--shop only the checks every pnpforge PDF passes are made (every font embedded, subset tags unique);
with --shop every rule of ISO 15930 listed in RULES for the part of PDF/X the file claims
(`pnpforge export --preflight` prints them as a list per file). When qpdf is installed its structural
check (`qpdf --check`) runs too.

The rules checked, for PDF/X-4 (ISO 15930-7) and PDF/X-1a:2003 (ISO 15930-4): identification (the
part named in the document info and the XMP metadata, the PDF version, a file ID, no encryption);
document info (title, dates, /Trapped); page boxes; the output intent (a CMYK print characterisation);
colour spaces per part (X-4: RGB only as ICC-based, X-1a: CMYK, grey and spot colours only) on every
page and in every form, image and shading; fonts (embedded, own subset tags); and for X-1a no
transparency. What is not checked: annotations, OPI, actions, and whether the art's ink coverage
suits the press (the shop's own preflight and proof say that).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pnpforge.export.pdfx import X1A, X4
from pnpforge.i18n import N_
from pnpforge.phrase import Phrase

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
    problems: list[str] = [
        Phrase(N_("page {page}: font {font} is not embedded"), page=use.page, font=use.name)
        for use in fonts(reader)
        if not use.embedded
    ]
    tags: dict[str, set[str]] = {}
    for use in fonts(reader):
        tag, plus, _ = use.name.lstrip("/").partition("+")
        if plus:
            tags.setdefault(tag, set()).add(use.name)
    problems += [
        Phrase(N_("subset tag {tag} is shared by {fonts}"), tag=tag, fonts=sorted(n))
        for tag, n in tags.items()
        if len(n) > 1
    ]
    return problems


def shop_problems(reader: Any) -> list[str]:
    """Every problem our PDF/X rules find (empty for a file that passes them all)."""
    return [problem for _, found in pdfx_report(reader)[1] for problem in found]


# ---- the ISO 15930 rules ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Rule:
    name: str  # a catalog message, said in the terminal's language
    checks: str  # what it verifies
    parts: tuple[str, ...] = (X4, X1A)  # the parts of PDF/X it applies to


IDENTIFICATION = Rule(
    N_("identification"),
    N_(
        "/GTS_PDFXVersion in the document info and the same part named in the XMP metadata; "
        "the PDF version the part is based on; a file ID; no encryption"
    ),
)
DOCUMENT_INFO = Rule(
    N_("document info"),
    N_("a title (the same in the XMP metadata), creation and modification dates, /Trapped True or False"),
)
BOXES = Rule(N_("page boxes"), N_("every page has a TrimBox, inside its BleedBox, inside its MediaBox"))
OUTPUT_INTENT = Rule(
    N_("output intent"),
    N_(
        "one GTS_PDFX output intent naming its output condition, with an embedded ICC profile that "
        "characterises a CMYK printing condition (device class 'prtr')"
    ),
)
COLOUR_X4 = Rule(
    N_("colour spaces"),
    N_(
        "every colour, image and shading on every page and in every form is CMYK, grey, a spot "
        "colour or ICC-based; DeviceRGB only where a DefaultRGB ICC space is set"
    ),
    (X4,),
)
COLOUR_X1A = Rule(
    N_("colour spaces"),
    N_(
        "every colour, image and shading on every page and in every form is DeviceCMYK, DeviceGray "
        "or a spot colour with a CMYK alternate: no RGB, no ICC-based or Lab colour"
    ),
    (X1A,),
)
FONTS = Rule(N_("fonts"), N_("every font embedded, each subset with its own tag"))
TRANSPARENCY = Rule(
    N_("transparency"),
    N_("no soft mask, no constant alpha below 1, no blend mode but Normal, no transparency group"),
    (X1A,),
)
RULES = (IDENTIFICATION, DOCUMENT_INFO, BOXES, OUTPUT_INTENT, COLOUR_X4, COLOUR_X1A, FONTS, TRANSPARENCY)
BASED_ON = {X4: (1, 6), X1A: (1, 4)}  # the newest PDF each part allows
XMP_NAME = {X4: "pdfxid:GTS_PDFXVersion", X1A: "pdfx:GTS_PDFXVersion"}


def _name(value: Any) -> str:
    return str(value).lstrip("/")


def pdfx_report(reader: Any) -> tuple[str, list[tuple[Rule, list[str]]]]:
    """The part of PDF/X the file claims (empty if none) and, for every rule of that part (of PDF/X-4
    when it claims none), the problems found: an empty list is a rule passed."""
    catalog = reader.trailer["/Root"]
    docinfo = reader.trailer.get("/Info")
    docinfo = docinfo.get_object() if docinfo is not None else {}
    claimed = str(docinfo.get("/GTS_PDFXVersion", ""))
    standard = claimed if claimed in BASED_ON else X4
    xmp = _xmp(catalog)
    found: list[tuple[Rule, list[str]]] = []
    walked: _Walked | None = None
    for rule in RULES:
        if standard not in rule.parts:
            continue
        if rule is IDENTIFICATION:
            problems = _identification(reader, claimed, xmp)
        elif rule is DOCUMENT_INFO:
            problems = _document_info(docinfo, xmp)
        elif rule is BOXES:
            problems = _boxes(reader)
        elif rule is OUTPUT_INTENT:
            problems = _output_intent(catalog)
        elif rule is FONTS:
            problems = font_problems(reader)
        else:
            walked = walked or _ColourWalk(reader, standard).run()
            problems = walked.transparency if rule is TRANSPARENCY else walked.colours
        found.append((rule, problems))
    return claimed, found


def _xmp(catalog: Any) -> str:
    stream = catalog.get("/Metadata")
    return stream.get_object().get_data().decode("utf-8", "replace") if stream is not None else ""


def _identification(reader: Any, claimed: str, xmp: str) -> list[str]:
    problems: list[str] = []
    if claimed not in BASED_ON:
        problems.append(
            Phrase(
                N_("/GTS_PDFXVersion is {found} (expected {x4} or {x1a})"),
                found=repr(claimed),
                x4=X4,
                x1a=X1A,
            )
        )
        return problems
    if f"<{XMP_NAME[claimed]}>{claimed}</{XMP_NAME[claimed]}>" not in xmp:
        problems.append(
            Phrase(N_("the XMP metadata does not name {part} as {key}"), part=claimed, key=XMP_NAME[claimed])
        )
    major, minor = (int(part) for part in reader.pdf_header.removeprefix("%PDF-").split("."))
    if (major, minor) > BASED_ON[claimed]:
        problems.append(
            Phrase(
                N_("PDF {found} (expected {newest} or older)"),
                found=f"{major}.{minor}",
                newest=".".join(map(str, BASED_ON[claimed])),
            )
        )
    if "/ID" not in reader.trailer:
        problems.append(Phrase.word(N_("no file ID in the trailer")))
    if "/Encrypt" in reader.trailer:
        problems.append(Phrase.word(N_("the file is encrypted")))
    return problems


def _document_info(docinfo: Any, xmp: str) -> list[str]:
    problems: list[str] = []
    title = str(docinfo.get("/Title", "")).strip()
    if not title:
        problems.append(Phrase.word(N_("no /Title")))
    elif _xml_text(title) not in xmp:
        problems.append(Phrase.word(N_("the XMP dc:title differs from /Title")))
    for key in ("/CreationDate", "/ModDate"):
        if key not in docinfo:
            problems.append(Phrase(N_("no {key}"), key=key))
    if str(docinfo.get("/Trapped", "")) not in ("/True", "/False"):
        problems.append(
            Phrase(N_("/Trapped is {found} (expected /True or /False)"), found=str(docinfo.get("/Trapped")))
        )
    return problems


def _xml_text(text: str) -> str:
    from xml.sax.saxutils import escape

    return escape(text)


def _boxes(reader: Any) -> list[str]:
    problems: list[str] = []
    for number, page in enumerate(reader.pages, start=1):
        if "/TrimBox" not in page or "/BleedBox" not in page:
            problems.append(Phrase(N_("page {page}: no TrimBox or BleedBox"), page=number))
            continue
        media, bleed, trim = page.mediabox, page.bleedbox, page.trimbox
        for inner, outer, what in ((trim, bleed, "TrimBox"), (bleed, media, "BleedBox")):
            if not (
                outer.left <= inner.left
                and outer.bottom <= inner.bottom
                and inner.right <= outer.right
                and inner.top <= outer.top
            ):
                problems.append(
                    Phrase(N_("page {page}: {box} reaches outside the box around it"), page=number, box=what)
                )
    return problems


def _output_intent(catalog: Any) -> list[str]:
    intents = catalog.get("/OutputIntents")
    pdfx = [i.get_object() for i in intents.get_object()] if intents is not None else []
    pdfx = [i for i in pdfx if i.get("/S") == "/GTS_PDFX"]
    if len(pdfx) != 1:
        return [Phrase(N_("{count} GTS_PDFX output intents (expected one)"), count=len(pdfx))]
    intent = pdfx[0]
    problems: list[str] = []
    if not str(intent.get("/OutputConditionIdentifier", "")).strip():
        problems.append(Phrase.word(N_("no OutputConditionIdentifier")))
    if "/DestOutputProfile" not in intent:
        return [*problems, "no embedded ICC profile (DestOutputProfile)"]
    profile = intent["/DestOutputProfile"].get_object()
    data = profile.get_data()
    kind, space = data[12:16], data[16:20]
    if kind != b"prtr" or space != b"CMYK" or profile.get("/N") != 4:
        problems.append(
            f"the profile is class {kind.decode('latin-1')!r}, colour space {space.decode('latin-1')!r} "
            "(expected a CMYK output profile, class 'prtr')"
        )
    return problems


@dataclass
class _Walked:
    colours: list[str]
    transparency: list[str]


class _ColourWalk:
    """Every colour space, image, shading and graphics state used by every page and form (once each)."""

    def __init__(self, reader: Any, standard: str) -> None:
        self.reader, self.standard = reader, standard
        self.colours: list[str] = []
        self.transparency: list[str] = []
        self.seen: set[tuple[int, int]] = set()

    def run(self) -> _Walked:
        from pypdf.generic import ContentStream

        for number, page in enumerate(self.reader.pages, start=1):
            where = Phrase(N_("page {page}"), page=number)
            if _name(page.get("/Group", {}).get("/S", "")) == "Transparency":
                self.transparency.append(Phrase(N_("{where}: a transparency group"), where=where))
            contents = page.get_contents()
            if contents is not None:
                resources = page.get("/Resources")
                self._stream(ContentStream(contents, self.reader), resources, where)
        return _Walked(_unique(self.colours), _unique(self.transparency))

    def _stream(self, stream: Any, resources: Any, where: str) -> None:
        resources = resources.get_object() if resources is not None else {}
        default_rgb = "/DefaultRGB" in resources.get("/ColorSpace", {})
        for operands, operator in stream.operations:
            op = operator.decode("latin-1") if isinstance(operator, bytes) else str(operator)
            if op in ("rg", "RG"):
                self._space("/DeviceRGB", default_rgb, where)
            elif op in ("cs", "CS"):
                self._space(self._named(resources, "/ColorSpace", operands[0]), default_rgb, where)
            elif op == "gs":
                self._state(self._named(resources, "/ExtGState", operands[0]), where)
            elif op == "sh":
                shading = self._named(resources, "/Shading", operands[0]).get_object()
                self._space(shading.get("/ColorSpace"), default_rgb, where)
            elif op == "INLINE IMAGE":
                settings = operands.get("settings", {})
                space = settings.get("/CS", settings.get("/ColorSpace"))
                inline = {"/RGB": "/DeviceRGB", "/CMYK": "/DeviceCMYK", "/G": "/DeviceGray"}
                if space is not None and not settings.get("/IM"):
                    space = inline.get(str(space), space)
                    self._space(
                        self._named(resources, "/ColorSpace", space),
                        default_rgb,
                        Phrase(N_("{where}, image"), where=where),
                    )
            elif op == "Do":
                self._xobject(self._named(resources, "/XObject", operands[0]), default_rgb, where)

    @staticmethod
    def _named(resources: Any, kind: str, name: Any) -> Any:
        """The resource `name` of `kind`, or the name itself (a device colour space)."""
        table = resources.get(kind)
        if table is None or name not in table.get_object():
            return name
        return table.get_object().raw_get(name)  # a reference: a form is walked once

    def _xobject(self, xobject: Any, default_rgb: bool, where: str) -> None:
        from pypdf.generic import ContentStream

        reference = getattr(xobject, "idnum", None), getattr(xobject, "generation", None)
        xobject = xobject.get_object()
        if xobject.get("/Subtype") == "/Image":
            if not xobject.get("/ImageMask"):
                self._space(
                    xobject.get("/ColorSpace"), default_rgb, Phrase(N_("{where}, image"), where=where)
                )
            if "/SMask" in xobject:
                self.transparency.append(Phrase(N_("{where}: an image with a soft mask"), where=where))
            return
        group = xobject.get("/Group")
        if group is not None and _name(group.get_object().get("/S", "")) == "Transparency":
            self.transparency.append(Phrase(N_("{where}: a form with a transparency group"), where=where))
        if reference[0] is not None:
            if reference in self.seen:
                return
            self.seen.add(reference)  # type: ignore[arg-type]
        self._stream(
            ContentStream(xobject, self.reader),
            xobject.get("/Resources"),
            Phrase(N_("{where}, form"), where=where),
        )

    def _state(self, state: Any, where: str) -> None:
        state = state.get_object()
        soft = state.get("/SMask")
        if soft is not None and _name(soft) != "None":
            self.transparency.append(Phrase(N_("{where}: a soft mask in a graphics state"), where=where))
        for key in ("/CA", "/ca"):
            if key in state and float(state[key]) < 1:
                self.transparency.append(
                    Phrase(
                        N_("{where}: {key} {value} (expected 1)"),
                        where=where,
                        key=key,
                        value=f"{float(state[key]):g}",
                    )
                )
        if "/BM" in state and _name(state["/BM"]) not in ("Normal", "Compatible"):
            self.transparency.append(
                Phrase(
                    N_("{where}: blend mode {mode} (expected Normal)"), where=where, mode=_name(state["/BM"])
                )
            )

    def _space(self, space: Any, default_rgb: bool, where: str) -> None:
        kind, detail = _kind(space)
        if kind in ("cmyk", "gray", "pattern"):
            return
        if kind == "separation":
            if detail not in ("cmyk", "gray"):
                self.colours.append(
                    Phrase(N_("{where}: a spot colour whose alternate is {space}"), where=where, space=detail)
                )
            return
        if self.standard == X1A:
            self.colours.append(
                Phrase(
                    N_("{where}: {space} (PDF/X-1a allows CMYK, grey and spot colours only)"),
                    where=where,
                    space=detail,
                )
            )
        elif kind == "device-rgb" and not default_rgb:
            self.colours.append(
                Phrase(N_("{where}: DeviceRGB without a DefaultRGB colour space"), where=where)
            )
        elif kind not in ("device-rgb", "icc"):
            self.colours.append(
                Phrase(
                    N_("{where}: {space} (expected CMYK, grey, spot or ICC-based colour)"),
                    where=where,
                    space=detail,
                )
            )


def _kind(space: Any) -> tuple[str, str]:
    """What a colour space is: (kind, how to name it): cmyk, gray, device-rgb, icc, separation (its
    alternate's kind as detail), pattern, other."""
    if space is None:
        return "other", "no colour space"
    space = space.get_object() if hasattr(space, "get_object") else space
    if not isinstance(space, list):
        name = _name(space)
        kinds = {"DeviceCMYK": "cmyk", "DeviceGray": "gray", "DeviceRGB": "device-rgb", "Pattern": "pattern"}
        return kinds.get(name, "other"), name
    family = _name(space[0])
    if family == "ICCBased":
        components = space[1].get_object().get("/N")
        return "icc", f"ICCBased with {components} components"
    if family in ("Separation", "DeviceN"):
        return "separation", _kind(space[2])[0]
    if family == "Indexed":
        return _kind(space[1])
    if family == "Pattern":
        return "pattern", family
    return "other", family


def _unique(items: list[str]) -> list[str]:
    return list(dict.fromkeys(items))


def report_lines(path: Path, lang: str | None = None) -> tuple[list[str], bool]:
    """The rules checked on the PDF at `path`, one line each, said in `lang`, and whether all passed."""
    from pypdf import PdfReader

    from pnpforge import i18n

    say = i18n.translator(lang or "en")
    claimed, rules = pdfx_report(PdfReader(path))
    passed = all(not found for _, found in rules) and bool(claimed)
    head = Phrase(N_("{file}: {standard}"), file=str(path), standard=claimed or N_("not PDF/X"))
    lines = [say(head)]
    for rule, found in rules:
        mark = say(N_("ok")) if not found else say(N_("FAIL"))
        lines.append(f"  {mark}  {say(rule.name)}: {say(rule.checks)}")
        lines += [f"        {say(problem)}" for problem in found]
    return lines, passed


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
    from pypdf.errors import PyPdfError

    for name in (arg for arg in argv if arg != "--shop"):
        try:
            found = problems(Path(name), shop)
        except (OSError, PyPdfError) as exc:  # not a PDF pypdf can read: said as its one problem
            found = [Phrase(N_("cannot read the PDF: {reason}"), reason=str(exc))]
        for problem in found:
            print(f"{name}: {problem}")
            failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
