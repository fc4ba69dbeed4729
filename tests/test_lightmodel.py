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
from lightmodels_sample import LCell, LInline, LRoot, kind_of, small, stripped
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
    for name in ("Root", "Cell", "Inline"):  # the same models, named apart
        said = said.replace(f"P{name}", f"L{name}")
    return said


@pytest.fixture(autouse=True)
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    for cls in (LCell, LInline, LRoot):
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
