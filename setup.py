"""The wheel carries compiled message catalogs: each src/pnpforge/locale/*.po becomes a .mo (Babel).

Everything else about the package is in pyproject.toml; `make` compiles the same files in place for a
development install (tools/catalogs.py).
"""

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py


class BuildWithCatalogs(build_py):
    def run(self) -> None:
        super().run()
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        target = Path(self.build_lib) / "pnpforge" / "locale"
        for po in sorted(Path("src/pnpforge/locale").glob("*.po")):
            target.mkdir(parents=True, exist_ok=True)
            with po.open("rb") as source, (target / f"{po.stem}.mo").open("wb") as out:
                write_mo(out, read_po(source), use_fuzzy=False)


setup(cmdclass={"build_py": BuildWithCatalogs})
