"""Models of pnpforge.lightmodel for tests/test_lightmodel.py, in a module of their own: a process that
imports them imports nothing of pydantic's model machinery."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pnpforge.lightmodel import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Discriminator,
    Key,
    PrivateAttr,
    StrictBool,
    StrictInt,
    Tag,
    field_validator,
    model_validator,
)


def small(value: int) -> int:
    if value > 3:
        raise ValueError("too big")
    return value


def stripped(value: Any) -> Any:
    return value.strip() if isinstance(value, str) else value


def kind_of(value: Any) -> str:
    return "word" if isinstance(value, str) else "cells"


class LCell(BaseModel):
    """A cell of the map (its JSON Schema's description)."""

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)
    at: tuple[Annotated[StrictInt, Key(ge=-9, le=9)], StrictInt]
    kind: Literal["sea", "land"] = "land"
    size: float = 1.0


class LInline(BaseModel):
    model_config = ConfigDict(extra="forbid")
    cells: list[LCell]


class LRoot(BaseModel):
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)
    players: Annotated[StrictInt, AfterValidator(small)]
    name: Annotated[str, BeforeValidator(stripped)] = Key("x", title="a name", min_length=1)
    flag: StrictBool = False
    map: Annotated[
        Annotated[Literal["bundled"], Tag("word")] | Annotated[LInline, Tag("cells")], Discriminator(kind_of)
    ] = "bundled"
    cells: list[LCell] = []
    counts: dict[str, int | list[str]] = Key(default_factory=dict)
    note: str | None = None
    colours: list[str] = Key(default_factory=lambda: ["red"])  # a closure: kept by its place, not its address

    @field_validator("note")
    @classmethod
    def _note(cls, value: str | None) -> str | None:
        if value == "bad":
            raise ValueError(f"{cls.__name__}: bad note")
        return value


def whole(value: Any) -> Any:
    """A float that is a whole number as an int (a before-check: it sees the value as given)."""
    return int(value) if isinstance(value, float) and value.is_integer() else value


class LPair(BaseModel):
    """Two numbers, the first not above the second; `low` defaults to the high one when left out."""

    model_config = ConfigDict(extra="forbid")
    high: int
    low: int | None = None
    items: list[tuple[int, str]] = []
    cells: list[LCell] = []
    _tag: str = PrivateAttr("plain")
    _seen: dict[str, int] = PrivateAttr(default_factory=dict)

    @field_validator("high", mode="before")
    @classmethod
    def _whole(cls, value: Any) -> Any:
        return whole(value)

    @model_validator(mode="after")
    def _low_given(self) -> LPair:
        if self.low is None:
            self.low = self.high
        return self

    @model_validator(mode="after")
    def _ordered(self) -> LPair:
        if self.low is not None and self.low > self.high:
            raise ValueError("low is above high")
        return self
