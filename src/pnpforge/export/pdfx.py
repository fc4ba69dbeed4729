"""PDF/X for print-shop files: which standard a file claims, the CMYK profile it is printed to, and
the identification (document info, XMP metadata, output intent) that a preflight reads.

Two parts of ISO 15930 are written:
- **PDF/X-4** (the default): colour stays as drawn, RGB marked ICC-based sRGB (a `DefaultRGB` colour
  space on every page and form), the output intent a CMYK print characterisation; transparency allowed.
- **PDF/X-1a:2003** (DriveThruCards asks for it): every colour converted to CMYK through the profile
  by littleCMS (Pillow's ImageCms), vector colours and images both; no RGB, no transparency.

The profile is the shop's, given with `--icc FILE` and checked (a CMYK output profile). pnpforge ships
none: no CMYK profile with a licence that allows it is at hand. Where Ghostscript is installed its
`default_cmyk.icc` is used (it may be used there, not copied into pnpforge); without either the
export stops with one line saying what to pass, before anything is drawn.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path

from pnpforge.errors import InputError
from pnpforge.i18n import N_
from pnpforge.phrase import Phrase

X4 = "PDF/X-4"
X1A = "PDF/X-1a:2003"
PDF_VERSIONS = {X4: (1, 6), X1A: (1, 4)}  # the PDF each part is based on
# where a CMYK output profile is installed with Ghostscript (Debian/Ubuntu, Fedora, Homebrew)
INSTALLED = (
    Path("/usr/share/color/icc/ghostscript/default_cmyk.icc"),
    Path("/usr/share/ghostscript/iccprofiles/default_cmyk.icc"),
    Path("/opt/homebrew/share/ghostscript/iccprofiles/default_cmyk.icc"),
    Path("/usr/local/share/ghostscript/iccprofiles/default_cmyk.icc"),
)
NO_PROFILE = N_(
    "{standard} needs the shop's CMYK output profile: pass --icc FILE (the .icc file the shop names, "
    "see docs/exports.md), or install Ghostscript, whose default_cmyk.icc is then used"
)
NOT_CMYK = N_(
    "not a CMYK output profile: {found} (expected an ICC profile of class 'prtr' with colour space "
    "CMYK, such as the shop's FOGRA39 or GRACoL profile)"
)
UNREADABLE = N_("not an ICC profile: {reason} (expected the shop's CMYK .icc file)")


@dataclass(frozen=True)
class Profile:
    data: bytes  # the ICC profile, embedded as the output intent's DestOutputProfile
    description: str  # its own name (the output condition a preflight shows)
    file: str  # where it was read
    installed: bool = False  # found on the machine, not given with --icc


def read_profile(path: Path, file: str | None = None) -> Profile:
    """The ICC profile at `path` if it is a CMYK output (printer) profile; else a located refusal."""
    from PIL import ImageCms

    from pnpforge.sourcefile import read_bytes

    name = file or str(path)
    data = read_bytes(path, name)
    try:
        profile = ImageCms.ImageCmsProfile(io.BytesIO(data))
    except (OSError, ValueError, TypeError) as exc:
        reason = str(exc) or type(exc).__name__
        raise InputError.single(name, Phrase(UNREADABLE, reason=reason), 1, 1) from None
    core = profile.profile
    space, kind = core.xcolor_space.strip(), core.device_class.strip()
    if space != "CMYK" or kind != "prtr":
        found = f"class {kind!r}, colour space {space}"
        raise InputError.single(name, Phrase(NOT_CMYK, found=found), 1, 1)
    description = (core.profile_description or "").strip() or path.stem
    return Profile(data, description, name)


def find_profile(given: Path | None, standard: str, where: str) -> Profile:
    """`--icc FILE` when given, else a CMYK profile installed with Ghostscript, else a one-line refusal
    located at `where` (the command line)."""
    if given is not None:
        return read_profile(given)
    for path in INSTALLED:
        if path.is_file():
            found = read_profile(path)
            return Profile(found.data, found.description, found.file, installed=True)
    raise InputError.single(where, Phrase(NO_PROFILE, standard=standard))


def _xml(text: str) -> str:
    from xml.sax.saxutils import escape

    return escape(text)


def xmp(
    standard: str, title: str, author: str, subject: str, tool: str, date: str, document_id: str
) -> bytes:
    """The XMP metadata packet identifying the file as `standard`, matching the document info."""
    creator = f"<dc:creator><rdf:Seq><rdf:li>{_xml(author)}</rdf:li></rdf:Seq></dc:creator>" if author else ""
    subject_xml = (
        f'<dc:description><rdf:Alt><rdf:li xml:lang="x-default">{_xml(subject)}</rdf:li></rdf:Alt>'
        "</dc:description>"
        if subject
        else ""
    )
    # PDF/X-4 is named in the pdfxid schema; PDF/X-1a:2003 in Adobe's older pdfx schema
    version = (
        f"<pdfxid:GTS_PDFXVersion>{standard}</pdfxid:GTS_PDFXVersion>"
        if standard == X4
        else f"<pdfx:GTS_PDFXVersion>{standard}</pdfx:GTS_PDFXVersion>"
    )
    packet = (
        '<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>\n'
        '<x:xmpmeta xmlns:x="adobe:ns:meta/">\n'
        '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\n'
        '<rdf:Description rdf:about=""'
        ' xmlns:dc="http://purl.org/dc/elements/1.1/"'
        ' xmlns:xmp="http://ns.adobe.com/xap/1.0/"'
        ' xmlns:pdf="http://ns.adobe.com/pdf/1.3/"'
        ' xmlns:xmpMM="http://ns.adobe.com/xap/1.0/mm/"'
        ' xmlns:pdfx="http://ns.adobe.com/pdfx/1.3/"'
        ' xmlns:pdfxid="http://www.npes.org/pdfx/ns/id/">\n'
        "<dc:format>application/pdf</dc:format>\n"
        f'<dc:title><rdf:Alt><rdf:li xml:lang="x-default">{_xml(title)}</rdf:li></rdf:Alt></dc:title>\n'
        f"{creator}{subject_xml}\n"
        f"<xmp:CreateDate>{date}</xmp:CreateDate>\n"
        f"<xmp:ModifyDate>{date}</xmp:ModifyDate>\n"
        f"<xmp:MetadataDate>{date}</xmp:MetadataDate>\n"
        f"<xmp:CreatorTool>{_xml(tool)}</xmp:CreatorTool>\n"
        f"<pdf:Producer>{_xml(tool)}</pdf:Producer>\n"
        "<pdf:Trapped>False</pdf:Trapped>\n"
        f"<xmpMM:DocumentID>{document_id}</xmpMM:DocumentID>\n"
        f"<xmpMM:InstanceID>{document_id}</xmpMM:InstanceID>\n"
        "<xmpMM:VersionID>1</xmpMM:VersionID>\n"
        "<xmpMM:RenditionClass>default</xmpMM:RenditionClass>\n"
        f"{version}\n"
        "</rdf:Description>\n</rdf:RDF>\n</x:xmpmeta>\n"
        '<?xpacket end="w"?>'
    )
    return packet.encode("utf-8")
