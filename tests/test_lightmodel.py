"""pnpforge.lightmodel: models checked by pydantic_core with pydantic's own schema, kept in the user's cache,
so the table commands never import pydantic's model machinery — and say exactly what pydantic says."""

from __future__ import annotations

import copy as copy_module
import json
import os
import pickle
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Annotated, Any, Literal

import pydantic
import pytest
from lightmodels_sample import LCell, LInline, LPair, LRoot, kind_of, small, stripped, whole
from pydantic_core import ValidationError

from pnpforge import catalog, contract, lightmodel


# pydantic's models of the same files as lightmodels_sample's
class PCell(pydantic.BaseModel):
    """A cell of the map (its JSON Schema's description)."""

    model_config = pydantic.ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)
    at: tuple[Annotated[pydantic.StrictInt, pydantic.Field(ge=-9, le=9)], pydantic.StrictInt]
    kind: Literal["sea", "land"] = "land"
    size: float = 1.0


class PInline(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(extra="forbid")
    cells: list[PCell]


class PRoot(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(extra="forbid", allow_inf_nan=False)
    players: Annotated[pydantic.StrictInt, pydantic.AfterValidator(small)]
    name: Annotated[str, pydantic.BeforeValidator(stripped)] = pydantic.Field(
        "x", title="a name", min_length=1
    )
    flag: pydantic.StrictBool = False
    map: Annotated[
        Annotated[Literal["bundled"], pydantic.Tag("word")] | Annotated[PInline, pydantic.Tag("cells")],
        pydantic.Discriminator(kind_of),
    ] = "bundled"
    cells: list[PCell] = []
    counts: dict[str, int | list[str]] = pydantic.Field(default_factory=dict)
    note: str | None = None
    colours: list[str] = pydantic.Field(
        default_factory=lambda: ["red"]
    )  # a closure: kept by its place, not its address

    @pydantic.field_validator("note")
    @classmethod
    def _note(cls, value: str | None) -> str | None:
        if value == "bad":
            raise ValueError("LRoot: bad note")
        return value


class PPair(pydantic.BaseModel):
    """Two numbers, the first not above the second; `low` defaults to the high one when left out."""

    model_config = pydantic.ConfigDict(extra="forbid")
    high: int
    low: int | None = None
    items: list[tuple[int, str]] = []
    cells: list[PCell] = []
    _tag: str = pydantic.PrivateAttr("plain")
    _seen: dict[str, int] = pydantic.PrivateAttr(default_factory=dict)

    @pydantic.field_validator("high", mode="before")
    @classmethod
    def _whole(cls, value: Any) -> Any:
        return whole(value)

    @pydantic.model_validator(mode="after")
    def _low_given(self) -> PPair:
        if self.low is None:
            self.low = self.high
        return self

    @pydantic.model_validator(mode="after")
    def _ordered(self) -> PPair:
        if self.low is not None and self.low > self.high:
            raise ValueError("low is above high")
        return self


GOOD = {"players": 2, "name": " Ann ", "cells": [{"at": [1, 2], "kind": "sea"}], "map": {"cells": []}}
BAD = [
    {},
    {"players": 5, "name": "", "flag": 1, "map": 3, "note": "bad"},
    {"players": "2", "cells": [{"at": [10, 1.5], "kind": "lake", "extra": 1}], "counts": {"a": "b"}},
    {"players": 2, "cells": [{"at": [1, 1], "size": float("nan")}], "map": {"cells": [{"at": [0]}]}},
    {"players": True, "unknown": 1, "map": "other", "counts": [1]},
    [1, 2],
]


def _errors(model: Any, data: Any) -> str:
    with pytest.raises(ValidationError) as raised:
        model.model_validate(data)
    said = repr(raised.value.errors())
    for name in ("Root", "Cell", "Inline", "Pair"):  # the same models, named apart
        said = said.replace(f"P{name}", f"L{name}")
    return said


@pytest.fixture(autouse=True)
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    for cls in (LCell, LInline, LRoot, LPair):
        if "__light_validator__" in cls.__dict__:
            delattr(cls, "__light_validator__")


@pytest.mark.parametrize("data", BAD, ids=range(len(BAD)))
def test_errors_are_pydantics_own(data: Any) -> None:
    assert _errors(LRoot, data) == _errors(PRoot, data)


def test_values_and_model_methods_are_pydantics() -> None:
    ours, theirs = LRoot.model_validate(GOOD), PRoot.model_validate(GOOD)
    assert ours.name == theirs.name == "Ann" and ours.players == 2 and ours.counts == {}
    assert ours.model_fields_set == theirs.model_fields_set
    assert isinstance(ours.map, LInline) and isinstance(ours.cells[0], LCell)
    assert ours.cells[0].at == (1, 2) and ours.cells[0] == LCell.model_validate({"at": [1, 2], "kind": "sea"})
    assert hash(ours.cells[0]) == hash(LCell(at=(1, 2), kind="sea"))
    with pytest.raises(TypeError, match="frozen"):
        ours.cells[0].kind = "land"  # type: ignore[misc]
    deep = copy_module.deepcopy(ours)
    assert (
        deep == ours and deep.cells[0] is not ours.cells[0] and deep.model_fields_set == ours.model_fields_set
    )
    assert pickle.loads(pickle.dumps(ours)) == ours
    copy = ours.model_copy(update={"players": 3})
    assert copy.players == 3 and ours.players == 2 and "players" in copy.model_fields_set
    assert set(LRoot.model_fields) == set(PRoot.model_fields)
    for name, info in LRoot.model_fields.items():
        theirs_info = PRoot.model_fields[name]
        assert (info.title, info.alias, info.is_required()) == (
            theirs_info.title,
            theirs_info.alias,
            theirs_info.is_required(),
        )
    theirs_schema = json.dumps(PRoot.model_json_schema(), sort_keys=True)
    for name in ("Root", "Cell", "Inline"):
        theirs_schema = theirs_schema.replace(f"P{name}", f"L{name}")
    assert json.dumps(LRoot.model_json_schema(), sort_keys=True) == theirs_schema


PAIRS = [
    {"high": 3.0},
    {"high": 3.5},
    {"high": 2, "low": 5},
    {"high": "x", "low": 1, "extra": 0},
    {"high": 9, "low": 1, "items": [[1, "a"]], "cells": [{"at": [1, 1]}]},
]


@pytest.mark.parametrize("data", PAIRS, ids=range(len(PAIRS)))
def test_before_and_model_checks_are_pydantics(data: Any) -> None:
    """field_validator(mode="before") and model_validator(mode="after"): the same values, the same errors,
    the fields a model check sets counted as given, and the same dumps (python and json, all or given)."""
    try:
        theirs = PPair.model_validate(data)
    except pydantic.ValidationError:
        assert _errors(LPair, data) == _errors(PPair, data)
        return
    ours = LPair.model_validate(data)
    assert lightmodel.compiled(LPair)  # its checks found again by the walk: its schema can be kept
    assert ours.model_fields_set == theirs.model_fields_set
    modes: tuple[Literal["python", "json"], ...] = ("python", "json")
    for mode in modes:
        for unset in (False, True):
            said = (mode, unset)
            dumped = ours.model_dump(mode=mode, exclude_unset=unset)
            assert repr(dumped) == repr(theirs.model_dump(mode=mode, exclude_unset=unset)), said


def test_private_values_are_the_instances_own() -> None:
    ours, theirs = LPair.model_validate({"high": 2}), PPair.model_validate({"high": 2})
    assert ours._tag == theirs._tag == "plain" and ours._seen == theirs._seen == {}
    ours._seen["a"] = 1
    assert LPair.model_validate({"high": 2})._seen == {}  # a fresh one each instance
    copy = ours.model_copy(update={"low": 1})
    copy._tag = "copied"
    assert (copy._tag, ours._tag, copy._seen, copy.low, ours.low) == ("copied", "plain", {"a": 1}, 1, 2)
    assert "_tag" not in copy.__dict__ and "_tag" not in copy.model_dump()
    assert copy != ours.model_copy(update={"low": 1})  # private values are compared, as pydantic's


def test_assign_checks_the_field_and_runs_the_model_checks() -> None:
    ours, theirs = LPair.model_validate({"high": 5}), PPair.model_validate({"high": 5})
    lightmodel.assign(ours, "high", 7.0)
    theirs.__pydantic_validator__.validate_assignment(theirs, "high", 7.0)
    assert ours.high == theirs.high == 7 and ours.model_fields_set == theirs.model_fields_set
    for value in ("seven", 3):  # a bad value; one the model check refuses (low 5 above high 3)
        with pytest.raises(ValidationError) as raised:
            lightmodel.assign(ours, "high", value)
        with pytest.raises(ValidationError) as expected:
            theirs.__pydantic_validator__.validate_assignment(theirs, "high", value)
        assert repr(raised.value.errors()).replace("LPair", "PPair") == repr(expected.value.errors())


SCRIPT = """
import sys
sys.path.insert(0, {here!r})
from lightmodels_sample import LRoot
from pydantic_core import ValidationError
print(LRoot.model_validate({good!r}).name)
try:
    LRoot.model_validate({bad!r})
except ValidationError as error:
    print(len(error.errors()))
print("pydantic.main" in sys.modules)
"""


def _run(cache: Path) -> list[str]:
    script = SCRIPT.format(here=str(Path(__file__).parent), good=GOOD, bad=BAD[2])
    env = {**os.environ, "XDG_CACHE_HOME": str(cache)}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, check=True)
    return done.stdout.split()


def test_the_schema_is_kept_and_the_next_process_needs_no_pydantic_model(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    assert _run(cache) == ["Ann", "7", "True"]  # made by pydantic the first time
    kept = list((cache / "pnpforge" / "schemas").glob("*.marshal"))
    assert len(kept) == 1
    assert _run(cache) == ["Ann", "7", "False"]  # then read: pydantic's model machinery never imported
    kept[0].write_bytes(kept[0].read_bytes()[:-3] + b"xyz")  # tampered: its signature no longer matches
    assert _run(cache) == ["Ann", "7", "True"]
    assert _run(cache) == ["Ann", "7", "False"]  # written again whole


def test_a_cache_that_cannot_be_written_still_validates(tmp_path: Path) -> None:
    blocked = tmp_path / "a-file"  # a cache folder under a file can be made by no one (root included)
    blocked.write_text("")
    assert _run(blocked / "cache") == ["Ann", "7", "True"]
    assert _run(blocked / "cache") == ["Ann", "7", "True"]  # nothing kept: the slow path each time, no error


def test_a_changed_model_is_not_read_from_an_old_schema(tmp_path: Path) -> None:
    source = textwrap.dedent("""
        from typing import Annotated
        from pnpforge.lightmodel import BaseModel, Key, StrictInt
        class M(BaseModel):
            n: Annotated[StrictInt, Key(le={most})]
        try:
            M.model_validate({{"n": 5}})
            print("ok")
        except Exception as error:
            print(type(error).__name__)
    """)
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    said = []
    for most in (9, 3, 9):
        run = subprocess.run(
            [sys.executable, "-c", source.format(most=most)], capture_output=True, text=True, env=env
        )
        said.append(run.stdout.strip())
    assert said == ["ok", "ValidationError", "ok"]


BUNDLED = [g for g in catalog.games() if g.bundled]


@pytest.mark.parametrize("found", BUNDLED, ids=lambda g: g.id)
def test_every_bundled_games_models_can_be_kept(found: catalog.GameFolder) -> None:
    game = contract.load(found.id)
    models = []
    if game.setup is not None:
        models.append(game.rules().model)
    if game.score is not None:
        models.append(game.scorer().model)
    for model in models:
        if lightmodel.is_model(model):
            assert lightmodel.compiled(model), model
        else:
            pytest.fail(
                f"{model} is a pydantic model: a table command would import pydantic's model machinery"
            )


def test_the_kept_schemas_are_bounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lightmodel, "KEPT_FILES", 2)
    for model, data in ((LCell, {"at": [0, 0]}), (LInline, {"cells": []}), (LRoot, GOOD)):
        model.model_validate(data)  # each root model its own schema
    kept = list((tmp_path / "cache" / "pnpforge" / "schemas").glob("*.marshal"))
    assert len(kept) == 2  # the oldest removed


FINGERPRINTS = """
from pnpforge import catalog, contract, lightmodel
from pnpforge.components.gamerules import ScoringSection
from pnpforge.components.setuprules import SetupSection
models = [ScoringSection, SetupSection]
for found in catalog.games():
    game = contract.load(found.id)
    if found.bundled and game.setup is not None:
        models.append(game.rules().model)
    if found.bundled and game.score is not None:
        models.append(game.scorer().model)
for model in models:
    print(model.__module__, model.__name__, lightmodel.fingerprint(model))
"""


def test_a_models_fingerprint_is_the_same_in_every_process() -> None:
    """What keys a kept schema names nothing of one process (an address in a repr would miss every time)."""
    command = [sys.executable, "-c", FINGERPRINTS]
    said = [subprocess.run(command, capture_output=True, text=True, check=True).stdout for _ in range(2)]
    assert said[0] == said[1] and len(said[0].splitlines()) >= 10


CARDS = """
game: {id: probe, title: Probe}
components:
  - name: cards
    kind: card
    size: poker
    rows: [{name: Ann, colour: red}, {name: Bo, colour: blue}]
    face:
      elements:
        - {type: text, text: "{name}", colour: "{colour}"}
        - {type: rect, x: 2mm, y: 2mm, w: 10mm, h: 10mm, fill: "{colour}"}
"""
MACHINERY = ("pydantic.main", "pydantic.fields", "pydantic._internal._generate_schema")


def test_a_build_reads_the_spec_models_kept_and_imports_no_pydantic_model(tmp_path: Path) -> None:
    """The spec's models (and each templated element's, checked again per row) are light models: the
    first build makes their schemas with pydantic, the next reads them kept and never imports pydantic's
    model machinery; both write the same PDF."""
    (tmp_path / "spec").mkdir()
    (tmp_path / "spec" / "game.yaml").write_text(CARDS, encoding="utf-8")
    probe = "import sys; from pnpforge.cli import main\ntry: main()\nexcept SystemExit: pass\n"
    probe += f"print(sorted(set({MACHINERY!r}) & set(sys.modules)))"
    # a fresh user cache and a fresh place for bytecode (where pnpforge's own models' schemas are kept)
    env = {
        **os.environ,
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
        "PYTHONPYCACHEPREFIX": str(tmp_path / "pyc"),
    }
    said, pdfs = [], []
    for run in range(2):
        out = tmp_path / f"out{run}"
        command = [sys.executable, "-c", probe, "build", str(tmp_path / "spec"), "-o", str(out), "--no-cache"]
        done = subprocess.run(command, capture_output=True, text=True, env=env, check=True)
        said.append(done.stdout.splitlines()[-1])
        pdfs.append((out / "probe.pdf").read_bytes())
    assert said == [repr(sorted(MACHINERY)), "[]"]
    assert pdfs[0] == pdfs[1]
    beside = sorted(path.name.split(".", 2)[2] for path in (tmp_path / "pyc").rglob("*.schema"))
    signed = list((tmp_path / "cache" / "pnpforge" / "schemas").glob("*.marshal"))
    assert len(beside) + len(signed) == 4  # Spec, Defaults(), text, rect
    assert "Spec.schema" in beside  # the package's own models' beside their bytecode


def test_every_spec_model_can_be_kept() -> None:
    """The spec and every element model (each is checked on its own when a row fills its `{field}`s)."""
    from pnpforge.components.model import Spec
    from pnpforge.layouts.faces import elements, hexmaps, repeat  # noqa: F401  # register the kinds
    from pnpforge.layouts.faces.kind import KINDS

    assert lightmodel.compiled(Spec)
    assert len(KINDS) >= 12
    for model in KINDS:
        assert lightmodel.compiled(model), model


VALIDATE = """
import sys
from pnpforge.cli import main
try:
    main()
except SystemExit as done:
    print("exit", done.code)
print(sorted({"pydantic.main", "_hashlib", "hmac"} & set(sys.modules)))
"""


def test_the_package_s_own_schemas_are_kept_beside_their_bytecode_unsigned(tmp_path: Path) -> None:
    """A bundled game's models: kept where Python keeps its bytecode (PYTHONPYCACHEPREFIX honoured), read
    for exactly the walk that wrote them, so `validate` loads neither pydantic's machinery nor OpenSSL's
    hashlib; a damaged file is made again, never read."""
    dealt = tmp_path / "board.yaml"
    made = subprocess.run(
        [sys.executable, "-m", "pnpforge", "setup", "delphi", "-p", "3", "--seed", "4", "-o", str(dealt)],
        capture_output=True,
        env={**os.environ, "XDG_CACHE_HOME": str(tmp_path / "other")},
    )
    assert made.returncode == 0, made.stderr
    env = {
        **os.environ,
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
        "PYTHONPYCACHEPREFIX": str(tmp_path / "pyc"),
    }

    def run() -> list[str]:
        command = [sys.executable, "-c", VALIDATE, "validate", str(dealt)]
        return subprocess.run(
            command, capture_output=True, text=True, env=env, check=True
        ).stdout.splitlines()

    first = run()
    assert first[-2:] == ["exit 0", repr(sorted({"pydantic.main", "_hashlib", "hmac"}))]  # made, then kept
    kept = [p for p in (tmp_path / "pyc").rglob("*.schema") if p.parent.name == "delphi"]
    assert sorted(p.name.split(".", 2)[2] for p in kept) == ["Setup.schema", "_TileFile.schema"]
    assert not list((tmp_path / "cache").rglob("*.marshal"))  # nothing of the package's signed in the user's
    assert run()[-2:] == ["exit 0", "[]"]  # read: no pydantic machinery, no OpenSSL
    setup = next(p for p in kept if p.name.endswith("Setup.schema"))
    setup.write_bytes(setup.read_bytes()[:-40] + b"x" * 40)  # damaged: not read, made again, kept again
    assert run()[-2:] == ["exit 0", repr(sorted({"pydantic.main", "_hashlib", "hmac"}))]
    assert run()[-2:] == ["exit 0", "[]"]


def test_a_data_game_s_schemas_are_signed_and_read_without_openssl(tmp_path: Path) -> None:
    """A data game's models are made at run time from its game.yaml, so their schemas are kept in the
    user's cache, signed (keyed BLAKE2b): read back, `validate` loads neither pydantic's machinery nor
    OpenSSL (hashlib's _hashlib, hmac); a kept schema changed by one byte is refused and made again."""
    game = tmp_path / "my-game"
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    made = subprocess.run(
        [sys.executable, "-m", "pnpforge", "new", str(game), "--template", "game"],
        capture_output=True,
        env=env,
    )
    assert made.returncode == 0, made.stderr

    def run() -> list[str]:
        command = [sys.executable, "-c", VALIDATE, "validate", str(game / "setup.yaml")]
        return subprocess.run(
            command, capture_output=True, text=True, env=env, check=True
        ).stdout.splitlines()

    run()  # (makes whatever is not kept yet)
    assert run()[-2:] == ["exit 0", "[]"]  # read: no pydantic machinery, no OpenSSL
    signed = sorted((tmp_path / "cache" / "pnpforge" / "schemas").glob("*.marshal"))
    assert signed  # the data game's own models, kept signed in the user's cache
    for path in signed:
        raw = path.read_bytes()
        path.write_bytes(raw[:-1] + bytes([raw[-1] ^ 1]))  # its signature no longer matches
    assert run()[-2:] == ["exit 0", repr(sorted({"pydantic.main", "_hashlib", "hmac"}))]  # made again
    assert run()[-2:] == ["exit 0", "[]"]
