"""Fonts: logical names (sans, serif, mono...) to reportlab fonts, and a CJK font for Japanese.

Latin text uses reportlab's standard fonts (or a TrueType file of the spec). Japanese must be an
embedded TrueType subset, so a CJK font is looked for (explicit path, known paths, fontconfig);
text is split into runs so CJK characters use that font and the rest the Latin font. Without a
CJK font the build still succeeds: `warnings` holds one line to print and Japanese shows as boxes.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Iterable
from functools import cache
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFError, TTFont

from pnpforge.errors import InputError, Problem, warning
from pnpforge.i18n import N_
from pnpforge.phrase import Phrase
from pnpforge.sourcefile import named_file
from pnpforge.suggest import did_you_mean

STANDARD: dict[str, str] = {
    "sans": "Helvetica",
    "sans-bold": "Helvetica-Bold",
    "sans-italic": "Helvetica-Oblique",
    "serif": "Times-Roman",
    "serif-bold": "Times-Bold",
    "serif-italic": "Times-Italic",
    "mono": "Courier",
    "mono-bold": "Courier-Bold",
}
_CSS_STANDARD: dict[str, tuple[str, str]] = {  # reportlab name -> (font-family, font-weight/style)
    "Helvetica": ("Helvetica, Arial, sans-serif", ""),
    "Helvetica-Bold": ("Helvetica, Arial, sans-serif", "bold"),
    "Helvetica-Oblique": ("Helvetica, Arial, sans-serif", "italic"),
    "Times-Roman": ("'Times New Roman', Times, serif", ""),
    "Times-Bold": ("'Times New Roman', Times, serif", "bold"),
    "Times-Italic": ("'Times New Roman', Times, serif", "italic"),
    "Courier": ("'Courier New', Courier, monospace", ""),
    "Courier-Bold": ("'Courier New', Courier, monospace", "bold"),
}
KNOWN_CJK_PATHS: tuple[str, ...] = (
    "/usr/share/fonts/opentype/ipaexfont-gothic/ipaexg.ttf",
    "/usr/share/fonts/truetype/ipaexfont-gothic/ipaexg.ttf",
    "/usr/share/fonts/opentype/ipafont-gothic/ipag.ttf",
    "/usr/share/fonts/truetype/fonts-japanese-gothic.ttf",
    "/usr/share/fonts/truetype/takao-gothic/TakaoGothic.ttf",
    "/usr/share/fonts/truetype/vlgothic/VL-Gothic-Regular.ttf",
    "/Library/Fonts/Arial Unicode.ttf",
    "C:/Windows/Fonts/msgothic.ttc",
    "C:/Windows/Fonts/YuGothM.ttc",
)
CJK_FONT_NAME = "PnpCJK"
# A symbol-capable TrueType for characters neither the Latin nor the CJK font has (≥, arrows, Greek...).
KNOWN_FALLBACK_PATHS: tuple[str, ...] = (
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/TTF/DejaVuSans.ttf",
    "/usr/local/share/fonts/DejaVuSans.ttf",
    "/Library/Fonts/DejaVuSans.ttf",
    "C:/Windows/Fonts/DejaVuSans.ttf",
)
FALLBACK_FONT_NAME = "PnpFallback"
MISSING_SHOWN = 12  # characters named in the warning of those no font has; the rest counted
# the characters no embedded font has, said once a build (first: the piece or page met first)
MISSING_GLYPHS = N_(
    "no embedded font has {chars} (data rows or pages with them: {count}; first: {first}, in {text})"
)
MISSING_IN_CHOSEN = N_(
    "font {font} lacks {chars}, and no other embedded font has them (data rows or pages with them: {count}; "
    "first: {first}, in {text}; expected a font with these characters, such as a Japanese TrueType font)"
)
RUNS_CACHE = 8192  # distinct (text, font) splits kept per registry
TWINS_ENV = "PNPFORGE_FONT_DIR"
TWIN_FOLDERS = (
    "/usr/share/fonts/truetype/liberation",
    "/usr/share/fonts/truetype/liberation2",
    "/usr/share/fonts/liberation-sans",
    "/usr/share/fonts/liberation-serif",
    "/usr/share/fonts/liberation-mono",
    "/usr/share/fonts/liberation",
    "/usr/share/fonts/truetype/msttcorefonts",
    "/usr/local/share/fonts",
    "/Library/Fonts",
    "/System/Library/Fonts/Supplemental",
    str(Path.home() / "Library/Fonts"),
    str(Path.home() / ".local/share/fonts"),
    str(Path(os.environ.get("WINDIR", "C:/Windows")) / "Fonts"),
)
# The standard PDF fonts drawn with metric-compatible TrueType files (output/embedfonts.py embeds them).
# Each standard name's stand-ins, best first: Liberation, then the Monotype twins of macOS/Windows.
TWINS = {
    "Helvetica": ("LiberationSans-Regular.ttf", "Arial.ttf", "arial.ttf"),
    "Helvetica-Bold": ("LiberationSans-Bold.ttf", "Arial Bold.ttf", "arialbd.ttf"),
    "Helvetica-Oblique": ("LiberationSans-Italic.ttf", "Arial Italic.ttf", "ariali.ttf"),
    "Helvetica-BoldOblique": ("LiberationSans-BoldItalic.ttf", "Arial Bold Italic.ttf", "arialbi.ttf"),
    "Times-Roman": ("LiberationSerif-Regular.ttf", "Times New Roman.ttf", "times.ttf"),
    "Times-Bold": ("LiberationSerif-Bold.ttf", "Times New Roman Bold.ttf", "timesbd.ttf"),
    "Times-Italic": ("LiberationSerif-Italic.ttf", "Times New Roman Italic.ttf", "timesi.ttf"),
    "Times-BoldItalic": ("LiberationSerif-BoldItalic.ttf", "Times New Roman Bold Italic.ttf", "timesbi.ttf"),
    "Courier": ("LiberationMono-Regular.ttf", "Courier New.ttf", "cour.ttf"),
    "Courier-Bold": ("LiberationMono-Bold.ttf", "Courier New Bold.ttf", "courbd.ttf"),
    "Courier-Oblique": ("LiberationMono-Italic.ttf", "Courier New Italic.ttf", "couri.ttf"),
    "Courier-BoldOblique": ("LiberationMono-BoldItalic.ttf", "Courier New Bold Italic.ttf", "courbi.ttf"),
}
MISSING_TWINS = warning(
    Phrase(
        N_(
            "no Liberation fonts found, so the standard Latin fonts (Helvetica, Times, Courier) are "
            "named in the PDF, not embedded (a print shop may refuse it): install them (Debian/Ubuntu: "
            "apt install fonts-liberation; Fedora: dnf install liberation-fonts; macOS: brew install "
            "--cask font-liberation) or set {folder} to a folder holding LiberationSans-Regular.ttf etc."
        ),
        folder=TWINS_ENV,
    )
)


def _twin_folders() -> list[Path]:
    extra = os.environ.get(TWINS_ENV)
    return [Path(p) for p in ([extra] if extra else []) + list(TWIN_FOLDERS)]


@cache
def twin_file(standard: str) -> Path | None:
    """The TrueType file standing in for a standard PDF font, if one is installed."""
    for name in TWINS.get(standard, ()):
        for folder in _twin_folders():
            path = folder / name
            if path.is_file():
                return path
    return None


MISSING_CJK_WARNING = warning(
    Phrase.word(
        N_(
            "no Japanese TrueType font found (install fonts-ipaexfont-gothic, or give defaults.font "
            "or --font); Japanese text will show as boxes"
        )
    )
)


def _loads(path: Path, name: str) -> TTFont | None:
    """A TrueType font reportlab can embed, or None (CFF-based OpenType and broken files cannot).

    Loaded once per file version: the probe that finds a font is also the font registered.
    """
    return _load(path.resolve(), name, path.stat().st_mtime_ns)


@cache
def _load(path: Path, name: str, stamp: int) -> TTFont | None:
    try:
        return TTFont(name, str(path), subfontIndex=0)
    except Exception:  # truncated or hostile files make reportlab fail in many ways (struct.error...)
        return None


def font_problem(path: Path) -> str:
    """Why reportlab cannot load the font file, in a few words (asked only once it could not)."""
    try:
        TTFont(f"probe-{path}", str(path), subfontIndex=0)
    except TTFError as exc:
        return _no_content(str(exc).split("\n")[0][:160])
    except Exception as exc:
        return _no_content(f"{type(exc).__name__}: {exc}".split("\n")[0][:160])
    return Phrase.word(N_("it could not be loaded"))


# what reportlab quotes of the file itself (`version=0x726F6F74` is "root", a passwd file's first bytes)
_QUOTED = re.compile(r"\s*=?\s*(?:0x[0-9A-Fa-f]+|b'[^']*'|b\"[^\"]*\"|'[^']*'|\"[^\"]*\")")


def _no_content(message: str) -> str:
    """reportlab's reason without any bytes of the file: an error must not show what a file holds."""
    return _QUOTED.sub("", message)


SYSTEM_FONT_DIRS: tuple[Path, ...] = tuple(
    Path(p).expanduser()
    for p in (
        "/usr/share/fonts",
        "/usr/local/share/fonts",
        "~/.fonts",
        "~/.local/share/fonts",
        "/Library/Fonts",
        "/System/Library/Fonts",
        "~/Library/Fonts",
        "C:/Windows/Fonts",
    )
)  # a spec may name a font here as well as in its own folder


def _cjk_name(path: Path) -> str:
    return CJK_FONT_NAME + "-" + _slug(path)


def _fontconfig_candidates() -> list[str]:
    if not shutil.which("fc-match"):
        return []
    found: list[str] = []
    for args in (["fc-match", "-f", "%{file}", "sans:lang=ja"], ["fc-list", ":lang=ja", "file"]):
        try:
            out = subprocess.run(args, capture_output=True, text=True, timeout=10, check=False).stdout
        except (OSError, subprocess.SubprocessError):
            continue
        found += [line.strip().rstrip(":").strip() for line in out.splitlines() if line.strip()]
    return sorted(set(found), key=found.index)


@cache
def find_cjk_font() -> Path | None:
    """The first usable Japanese TrueType font on this machine (known paths, then fontconfig)."""
    for candidates in (lambda: list(KNOWN_CJK_PATHS), _fontconfig_candidates):  # fc-match only if needed
        for candidate in candidates():
            path = Path(candidate)
            if path.suffix.lower() in (".ttf", ".ttc") and path.is_file() and _loads(path, _cjk_name(path)):
                return path
    return None


def _fallback_name(path: Path) -> str:
    return FALLBACK_FONT_NAME + "-" + _slug(path)


def _fc_match_dejavu() -> list[str]:
    """Where fontconfig finds DejaVu Sans, asked only when no known path has it (a subprocess is slow)."""
    if not shutil.which("fc-match"):
        return []
    try:
        found = subprocess.run(
            ["fc-match", "-f", "%{file}", "DejaVu Sans"], capture_output=True, text=True, timeout=10
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return []
    return [found] if found else []


@cache
def find_fallback_font() -> Path | None:
    """DejaVu Sans (known paths, then fontconfig), embedded for glyphs the other fonts lack; or None."""
    for candidates in (lambda: list(KNOWN_FALLBACK_PATHS), _fc_match_dejavu):
        for candidate in candidates():
            path = Path(candidate)
            if path.suffix.lower() == ".ttf" and path.is_file() and _loads(path, _fallback_name(path)):
                return path
    return None


def is_cjk(char: str) -> bool:
    """Characters set in the CJK font and breakable between (kana, kanji, CJK punctuation, full-width)."""
    code = ord(char)
    return (
        0x3000 <= code <= 0x30FF  # CJK punctuation, hiragana, katakana
        or 0x3400 <= code <= 0x4DBF
        or 0x4E00 <= code <= 0x9FFF
        or 0xF900 <= code <= 0xFAFF
        or 0xFF00 <= code <= 0xFFEF  # full-width forms
        or 0x31F0 <= code <= 0x31FF
        or 0x20000 <= code <= 0x2FFFF
    )


def _standard_shows(text: str) -> bool:
    """Whether a standard font shows every character of `text`: reportlab writes them in cp1252."""
    if text.isascii():
        return True
    try:
        text.encode("cp1252")
    except UnicodeEncodeError:
        return False
    return True


class FontRegistry:
    """Maps a spec's font names to registered reportlab fonts; one per build.

    `cjk_path` is an explicit Japanese font (spec `defaults.font` or CLI `--font`); without it one is
    searched for. `warnings` holds a line for the user for each kind of font missing.
    """

    def __init__(self, cjk_path: str | Path | None = None, *, search: bool = True) -> None:
        self.warnings: list[str] = []
        self.cjk: str | None = None
        self.cjk_path: Path | None = None
        self._css: dict[str, tuple[str, str]] = dict(_CSS_STANDARD)
        self._ttf_chars: dict[str, frozenset[int]] = {}
        self.files: dict[str, Path] = {}  # every TrueType font registered for this build: name -> file
        self._runs: dict[tuple[str, str], tuple[tuple[tuple[str, str], ...], str]] = {}
        self._fallback: str | None = None  # registered on first need, so only builds that use it embed it
        self.context: object = ""  # what is being drawn (component and row; str() of it), named in `missing`
        # where the font for CJK text was chosen (`game.yaml:4:9` of defaults.font, or --font): the
        # characters no font has are said once, there
        self.chosen_at: Problem | None = None
        self.lacking = 0  # texts drawn with a character no embedded font has (each time drawn)
        self._lacking_chars: dict[str, None] = {}  # those characters, in the order met
        self._lacking_places: dict[int, object] = {}  # the pieces and pages they were met on (by identity)
        self._lacking_text = ""  # the first text met with one
        self.allow_outside = False  # --allow-outside-files: fonts of the spec may lie anywhere
        path: Path | None
        if cjk_path is not None:
            path = Path(cjk_path)
            if not path.is_file():
                raise InputError.single(
                    path, Phrase.word(N_("font file not found (expected a TrueType .ttf/.ttc file)"))
                )
            if _loads(path, _cjk_name(path)) is None:
                raise InputError.single(
                    path,
                    Phrase(
                        N_("not a usable TrueType font ({problem}; expected a .ttf/.ttc with glyf outlines)"),
                        problem=font_problem(path),
                    ),
                )
        else:
            path = find_cjk_font() if search else None
        if twin_file("Helvetica") is None:  # every build writes Helvetica (labels, marks)
            self.warnings.append(MISSING_TWINS)
        if path is None:
            self.warnings.append(MISSING_CJK_WARNING)
        else:
            self.cjk = self._register(path, _cjk_name(path))
            self.cjk_path = path
            self._css[self.cjk] = ("'IPAexGothic', 'Noto Sans CJK JP', 'Hiragino Sans', sans-serif", "")

    def _register(self, path: Path, name: str) -> str:
        if name not in pdfmetrics.getRegisteredFontNames():
            font = _loads(path, name)
            assert font is not None  # every caller has loaded it once already
            pdfmetrics.registerFont(font)
        font = pdfmetrics.getFont(name)
        self._ttf_chars[name] = frozenset(font.face.charToGlyph)
        self.files[name] = path
        return name

    def register(self, path: Path, name: str) -> bool:
        """Register the TrueType file under `name` as a build that used it did (a kept build played
        back: compiled.py); False when it is not a usable font."""
        if _loads(path, name) is None:
            return False
        self._register(path, name)
        return True

    def resolve(self, font: str, spec_dir: Path | None = None) -> str:
        """The reportlab font name for a spec font: a logical name or a .ttf path in the spec folder."""
        if font in STANDARD:
            return STANDARD[font]
        if font.lower().endswith((".ttf", ".ttc")):
            folder = spec_dir or Path.cwd()
            path = named_file(folder, font, "font", allow_outside=self.allow_outside, roots=SYSTEM_FONT_DIRS)
            name = "Pnp-" + _slug(path)
            if _loads(path, name) is None:
                raise ValueError(
                    Phrase(
                        N_("font {font} is not a usable TrueType font ({problem})"),
                        font=repr(font),
                        problem=font_problem(path),
                    )
                )
            name = self._register(path, name)
            self._css.setdefault(name, (f"'{path.stem}', sans-serif", ""))
            return name
        hint = did_you_mean(font, STANDARD)
        raise ValueError(
            Phrase(
                N_("unknown font {font} ({hint}expected one of {known} or a .ttf file)"),
                font=repr(font),
                hint=hint,
                known=list(STANDARD),
            )
        )

    def _has(self, font: str, char: str) -> bool:
        chars = self._ttf_chars.get(font)
        if chars is not None:
            return ord(char) in chars
        return _standard_shows(char)

    def _fallback_font(self) -> str | None:
        if self._fallback is None:
            path = find_fallback_font()
            if path is None:
                return None
            self._fallback = self._register(path, _fallback_name(path))
            self._css[self._fallback] = ("'DejaVu Sans', sans-serif", "")
        return self._fallback

    def _font_for(self, char: str, font: str) -> str | None:
        """The font that shows `char`: `font`, else the CJK font, else the fallback; None: none has it."""
        if char.isspace() or self._has(font, char):
            return font
        if self.cjk is not None and self._has(self.cjk, char):
            return self.cjk
        fallback = self._fallback_font()
        if fallback is not None and self._has(fallback, char):
            return fallback
        return None

    def runs(self, text: str, font: str) -> list[tuple[str, str]]:
        """Split `text` into (segment, reportlab font) runs: each character in the first font that has it
        (the text's font, the CJK font, the fallback); characters none has are listed in `missing`."""
        if not text:
            return []
        if font not in self._ttf_chars and _standard_shows(text):
            return [(text, font)]  # one run: every character is in a standard font's encoding
        key = (text, font)
        known = self._runs.get(key)
        if known is None:
            known = self._split(text, font)
            if len(self._runs) >= RUNS_CACHE:  # a build repeats few distinct strings; bound it anyway
                self._runs.clear()
            self._runs[key] = known
        found, lacking = known
        if lacking:
            self._lacking_text = self._lacking_text or text
            self.lacking += 1
            self._lacking_chars.update(dict.fromkeys(lacking))
            self._lacking_places.setdefault(id(self.context), self.context)
        return list(found)

    @property
    def missing(self) -> list[Problem | str]:
        """The characters no embedded font has, said once for the build: at the line that chose the
        font (defaults.font; --font), with how many pieces and pages use them and the first of them."""
        if not self._lacking_chars:
            return []
        chars = list(self._lacking_chars)
        shown = ", ".join(f"{c!r} (U+{ord(c):04X})" for c in chars[:MISSING_SHOWN])
        if len(chars) > MISSING_SHOWN:
            shown += f", … (+{len(chars) - MISSING_SHOWN})"
        places = list(self._lacking_places.values())
        first = places[0]
        values = {
            "chars": shown,
            "count": len({str(place) for place in places}),  # a row checked, then drawn: one place
            "first": first if isinstance(first, Phrase) else str(first),
            "text": repr(self._lacking_text),
        }
        if self.chosen_at is None:
            return [warning(Phrase(MISSING_GLYPHS, **values))]
        at = self.chosen_at
        font = self.cjk_path.name if self.cjk_path is not None else ""
        return [Problem(at.file, at.line, at.col, Phrase(MISSING_IN_CHOSEN, font=font, **values))]

    def _split(self, text: str, font: str) -> tuple[tuple[tuple[str, str], ...], str]:
        out: list[tuple[str, str]] = []
        lacking: list[str] = []
        start, current = 0, ""
        for index, char in enumerate(text):
            use = self._font_for(char, font)
            if use is None:
                if not (is_cjk(char) and self.cjk is None):  # no CJK font at all: warned once already
                    lacking.append(char)
                use = current or font
            if use != current:
                if index:
                    out.append((text[start:index], current))
                start, current = index, use
        out.append((text[start:], current))
        return tuple(out), "".join(dict.fromkeys(lacking))

    def width(self, text: str, font: str, size: float) -> float:
        return sum(pdfmetrics.stringWidth(seg, name, size) for seg, name in self.runs(text, font))

    def css(self, name: str) -> tuple[str, str]:
        """(CSS font-family, weight/style word or '') for a registered reportlab font name."""
        return self._css.get(name, ("sans-serif", ""))

    def names(self) -> Iterable[str]:
        return self._css.keys()


def _slug(path: Path) -> str:
    return "".join(ch if ch.isalnum() else "-" for ch in path.stem)[:40]
