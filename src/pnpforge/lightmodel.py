"""Models of input files checked by pydantic's validator without pydantic's model machinery.

A table command (`validate`, `setup`, `score`) reads one small file, yet `from pydantic import BaseModel`
and building a game's models cost it ~40 ms before any work: pydantic's schema generator, its field and
type modules. Those models are needed only to make a *core schema*, the plain description that
pydantic_core's validator (already imported with pydantic) checks data against. So:

- a model here is written as a pydantic model is (`class Setup(SetupModel): players: Players`), with
  stand-ins for the pydantic names it uses (`Key` for `Field`, `StrictInt`, `AfterValidator`,
  `BeforeValidator`, `Discriminator`, `Tag`, `field_validator`, `model_validator` (after),
  `PrivateAttr`, `ConfigDict`); importing this module imports nothing of pydantic;
- the first time a model validates (in a process), its core schema is looked up where it is kept,
  for what the walk of every model, field, type, default and validator it reaches says, with
  pydantic's and pydantic_core's versions: beside its module's bytecode for a model of pnpforge's own
  package (`beside_bytecode`, trusted as the bytecode is), else in the user's cache
  (`~/.cache/pnpforge/schemas/`, signed as pnpforge.usercache signs, named by the text's BLAKE2b hash);
  only when it is not there are the models translated into pydantic models
  (`pydantic.create_model`, the one slow path), their schema taken, its classes pointed back at the
  models here, and kept (when the cache cannot be written, each run takes the slow path: no error);
- pydantic_core's validator then builds instances of the models here as it builds pydantic's (it sets
  `__dict__` and `__pydantic_fields_set__`), so validation, the values and the errors (`.errors()`,
  types, locations, messages) are pydantic's own.

What is kept holds plain data only (written by marshal): every class, validator and default that is
not plain data is written as its position in the models' walk and found again by walking them, so a
validator may be a closure.
"""

from __future__ import annotations

import contextlib
import functools
import importlib.util
import marshal
import os
import sys
import types
import typing
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, ClassVar, Literal, Union, get_args, get_origin

from pnpforge import usercache
from pnpforge.parsecache import PACKAGE_DIR, read_regular

__all__ = [
    "AfterValidator",
    "BaseModel",
    "BeforeValidator",
    "ConfigDict",
    "Discriminator",
    "FieldInfo",
    "Key",
    "KeyInfo",
    "StrictBool",
    "StrictInt",
    "Tag",
    "PrivateAttr",
    "assign",
    "beside_bytecode",
    "create_model",
    "field_validator",
    "fingerprint",
    "is_model",
    "model_validator",
]

FORMAT = 2  # bump when what is kept changes shape
MAGIC = b"pnpforge core schema\n"
SCHEMA_BYTES = 4 * 1024 * 1024  # a kept schema larger than this is not read (the bundled ones are < 64 KB)
KEPT_FILES, KEPT_BYTES = 200, 32 * 1024 * 1024  # schemas kept at most (a designer's edits each make one)
_PLAIN = (str, int, float, bool, bytes, type(None))
_MISSING: Any = type("_Missing", (), {"__repr__": lambda self: "MISSING"})()


# -- the stand-ins for pydantic's markers -----------------------------------------------------------


class KeyInfo:
    """What `Key(...)` says of a field (its default and pydantic `Field` options)."""

    __slots__ = ("default", "options")

    def __init__(self, default: Any, options: dict[str, Any]) -> None:
        self.default = default
        self.options = options

    def __repr__(self) -> str:
        return f"Key({self.default!r}, {sorted(self.options.items())!r})"


def Key(  # noqa: N802  # named as a class, as pydantic's `Field` is
    default: Any = _MISSING, *, default_factory: Callable[[], Any] | None = None, **options: Any
) -> Any:
    """A field's default and constraints, as pydantic's `Field` (`Key(ge=1, le=5)` in an `Annotated`,
    `x: int = Key(0, title=N_("..."))`): ge, le, gt, lt, min_length, max_length, pattern, title, alias,
    description, default_factory."""
    if default_factory is not None:
        options["default_factory"] = default_factory
    return KeyInfo(default, options)


class _Strict:
    __slots__ = ()

    def __repr__(self) -> str:
        return "Strict"


class _Calls:
    __slots__ = ("func",)

    def __init__(self, func: Callable[[Any], Any]) -> None:
        self.func = func

    def __repr__(self) -> str:
        return type(self).__name__


class AfterValidator(_Calls):
    """`func(value)` run after the type's own check, as pydantic's AfterValidator."""

    __slots__ = ()


class BeforeValidator(_Calls):
    """`func(value)` run before the type's own check, as pydantic's BeforeValidator."""

    __slots__ = ()


class Discriminator(_Calls):
    """Which member of a union an input is, `func(value)` naming its `Tag`, as pydantic's."""

    __slots__ = ()


class Tag:
    """A union member's name for its `Discriminator`, as pydantic's."""

    __slots__ = ("tag",)

    def __init__(self, tag: str) -> None:
        self.tag = tag

    def __repr__(self) -> str:
        return f"Tag({self.tag!r})"


StrictInt = Annotated[int, _Strict()]
StrictBool = Annotated[bool, _Strict()]
ConfigDict = dict  # `model_config = ConfigDict(extra="forbid", frozen=True)`: extra, frozen, allow_inf_nan


class _FieldCheck:
    """What `field_validator` leaves in a class body: `func` run after (or before) the fields' checks."""

    __slots__ = ("fields", "func", "mode")

    def __init__(self, fields: tuple[str, ...], func: Any, mode: str) -> None:
        self.fields = fields
        self.func = func
        self.mode = mode


def field_validator(*fields: str, mode: Literal["after", "before"] = "after") -> Callable[[Any], Any]:
    """`@field_validator("name") @classmethod def check(cls, value)`, or a plain function given as
    `_check = field_validator("name")(function)`: run after the fields' own checks (pydantic's "after"),
    or with `mode="before"` on the value as given, before them."""
    if mode not in ("after", "before"):
        raise ValueError(f"field_validator: mode {mode!r} (expected 'after' or 'before')")

    def mark(func: Any) -> Any:
        return _FieldCheck(fields, func, mode)

    return mark


class _ModelCheck:
    """What `model_validator(mode="after")` leaves in a class body: `func(model)` run on the built model."""

    __slots__ = ("func",)

    def __init__(self, func: Any) -> None:
        self.func = func


def model_validator(*, mode: Literal["after"]) -> Callable[[Any], Any]:
    """`@model_validator(mode="after") def check(self) -> Self`: run on the model once its fields are
    checked (it may set fields; a ValueError is the model's error), as pydantic's "after" model validator."""
    if mode != "after":
        raise ValueError(f"model_validator: mode {mode!r} (only 'after' is offered)")

    def mark(func: Any) -> Any:
        return _ModelCheck(func)

    return mark


class _Private:
    """What `PrivateAttr` leaves in a class body: a value of each instance, no field (never checked)."""

    __slots__ = ("default", "factory")

    def __init__(self, default: Any, factory: Callable[[], Any] | None) -> None:
        self.default = default
        self.factory = factory


def PrivateAttr(  # noqa: N802  # named as pydantic's
    default: Any = None, *, default_factory: Callable[[], Any] | None = None
) -> Any:
    """`_name: T = PrivateAttr(default)`: a value of each instance that is no field, as pydantic's."""
    return _Private(default, default_factory)


# -- the model base ---------------------------------------------------------------------------------


class FieldInfo:
    """A field as the engine looks at it (pydantic's FieldInfo's names): `annotation` is its type
    without `Annotated` markers, `metadata` those markers; `alias`, `title`, `default`."""

    __slots__ = ("_required", "alias", "annotation", "default", "metadata", "title")

    def __init__(self, annotation: Any, metadata: list[Any], default: Any, key: KeyInfo | None) -> None:
        self.annotation = annotation
        self.metadata = metadata
        self.default = None if default is _MISSING else default
        options = key.options if key is not None else {}
        self.alias: str | None = options.get("alias")
        self.title: str | None = options.get("title")
        self._required = default is _MISSING and "default_factory" not in options

    def is_required(self) -> bool:
        return self._required


class _Meta(type):
    @property
    def model_fields(cls) -> dict[str, FieldInfo]:
        """Each field by name, its annotation resolved (on first use: a model may name one defined later)."""
        found = cls.__dict__.get("__light_fields__")
        if found is None:
            found = {}
            hints = _hints(cls)
            for name, default in cls.__light_defaults__.items():  # type: ignore[attr-defined]
                kind = hints[name]
                metadata: list[Any] = []
                while get_origin(kind) is Annotated:
                    kind, *more = get_args(kind)
                    metadata = [*more, *metadata]
                key = default if isinstance(default, KeyInfo) else None
                value = key.default if key is not None else default
                found[name] = FieldInfo(kind, metadata, value, key)
            cls.__light_fields__ = found
        return typing.cast("dict[str, FieldInfo]", found)


class BaseModel(metaclass=_Meta):
    """A model checked by pydantic_core (see the module's words): unknown keys are errors unless its
    `model_config` says `extra="ignore"`; `frozen=True` makes it read-only (and hashable)."""

    __slots__ = ("__dict__", "__pydantic_extra__", "__pydantic_fields_set__", "__pydantic_private__")
    model_config: ClassVar[dict[str, Any]] = {}
    __light_defaults__: ClassVar[dict[str, Any]]  # each field's default (_MISSING: required), in order
    __light_checks__: ClassVar[dict[str, list[Callable[[Any], Any]]]]  # field_validator's, by field
    __light_before__: ClassVar[dict[str, list[Callable[[Any], Any]]]]  # field_validator(mode="before")'s
    __light_model_checks__: ClassVar[list[Callable[[Any], Any]]]  # model_validator(mode="after")'s, in order
    __light_private__: ClassVar[dict[str, _Private]]  # PrivateAttr's, by name

    def __init_subclass__(cls, **config_words: Any) -> None:
        """`class Name(Base, extra="allow")`: config given as class words, as pydantic allows."""
        super().__init_subclass__()
        defaults: dict[str, Any] = {}
        checks: dict[str, list[Callable[[Any], Any]]] = {}
        before: dict[str, list[Callable[[Any], Any]]] = {}
        model_checks: list[Callable[[Any], Any]] = []
        private: dict[str, _Private] = {}
        for base in reversed(cls.__mro__[1:]):
            defaults.update(base.__dict__.get("__light_defaults__", {}))
            for own, into in (("__light_checks__", checks), ("__light_before__", before)):
                for name, found in base.__dict__.get(own, {}).items():
                    into.setdefault(name, []).extend(found)
            model_checks.extend(base.__dict__.get("__light_model_checks__", []))
            private.update(base.__dict__.get("__light_private__", {}))
        config: dict[str, Any] = {}
        for base in reversed(cls.__mro__):
            config.update(base.__dict__.get("model_config", {}))
        cls.model_config = config | config_words
        for name, written in cls.__dict__.get("__annotations__", {}).items():
            if name.startswith("_") or name == "model_config" or "ClassVar" in str(written):
                continue  # as pydantic: private names and class variables are no fields
            value = cls.__dict__.get(name, _MISSING)
            defaults[name] = value
            if value is not _MISSING:
                delattr(cls, name)  # as pydantic: the class holds no field values
        for name, value in list(cls.__dict__.items()):
            if isinstance(value, _FieldCheck):
                func = value.func
                bound = types.MethodType(func.__func__, cls) if isinstance(func, classmethod) else func
                for field in value.fields:
                    (checks if value.mode == "after" else before).setdefault(field, []).append(bound)
                delattr(cls, name)
            elif isinstance(value, _ModelCheck):
                model_checks.append(value.func)
                delattr(cls, name)
            elif isinstance(value, _Private):
                private[name] = value
                delattr(cls, name)
        cls.__light_defaults__ = defaults
        cls.__light_checks__ = checks
        cls.__light_before__ = before
        cls.__light_model_checks__ = model_checks
        cls.__light_private__ = private

    def __init__(self, **data: Any) -> None:
        _validator(type(self)).validate_python(data, self_instance=self)

    @classmethod
    def model_validate(cls, data: Any) -> typing.Self:
        """`data` checked and built into this model; pydantic_core's ValidationError when it is wrong."""
        found: typing.Self = _validator(cls).validate_python(data)
        return found

    @classmethod
    def model_json_schema(cls, by_alias: bool = True) -> dict[str, Any]:
        """pydantic's JSON Schema of this model (made by pydantic: the slow path, for `pnpforge schema`)."""
        schema: dict[str, Any] = _pydantic_models(cls)[cls].model_json_schema(by_alias=by_alias)
        return schema

    @property
    def model_fields_set(self) -> set[str]:
        fields: set[str] = object.__getattribute__(self, "__pydantic_fields_set__")
        return fields

    def model_copy(self, *, update: dict[str, Any] | None = None) -> typing.Self:
        """A shallow copy with `update`'s values (not checked, as pydantic's); private values copied too."""
        copy = object.__new__(type(self))
        object.__setattr__(copy, "__dict__", {**self.__dict__, **(update or {})})
        object.__setattr__(copy, "__pydantic_fields_set__", self.model_fields_set | set(update or ()))
        object.__setattr__(copy, "__pydantic_extra__", None)
        private = self._private_values()
        object.__setattr__(copy, "__pydantic_private__", dict(private) if private else None)
        return copy

    def model_dump(
        self, *, mode: Literal["python", "json"] = "python", exclude_unset: bool = False
    ) -> dict[str, Any]:
        """The fields' values as plain data, as pydantic's: models as dicts (only the fields given in the
        input or set since, with `exclude_unset`), tuples as lists in "json" mode; private values left out."""
        return _dumped_model(self, mode == "json", exclude_unset)

    def _private_values(self) -> dict[str, Any] | None:
        try:
            found: dict[str, Any] | None = object.__getattribute__(self, "__pydantic_private__")
        except AttributeError:
            return None
        return found

    if not typing.TYPE_CHECKING:  # the type checker goes by the private names' annotations

        def __getattr__(self, name: str) -> Any:  # only for what is not found otherwise: private values
            private = type(self).__dict__.get("__light_private__", {}).get(name)
            if private is None:
                raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
            values = self._private_values()
            if values is None:
                values = {}
                object.__setattr__(self, "__pydantic_private__", values)
            if name not in values:
                values[name] = private.factory() if private.factory is not None else private.default
            return values[name]

    def __getstate__(self) -> dict[str, Any]:
        return {name: object.__getattribute__(self, name) for name in BaseModel.__slots__}

    def __setstate__(self, state: dict[str, Any]) -> None:  # copy, deepcopy and pickle, frozen or not
        for name, value in state.items():
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: Any) -> None:
        if name in type(self).__light_private__:
            values = self._private_values()
            if values is None:
                values = {}
                object.__setattr__(self, "__pydantic_private__", values)
            values[name] = value
            return
        if self.model_config.get("frozen"):
            raise TypeError(f"{type(self).__name__} is frozen: {name} cannot be set")
        object.__setattr__(self, name, value)
        if name in type(self).__light_defaults__:
            self.model_fields_set.add(name)  # as pydantic: a field set is a field given

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self) or other.__dict__ != self.__dict__:
            return False
        assert isinstance(other, BaseModel)
        return (self._private_values() or {}) == (other._private_values() or {})

    def __hash__(self) -> int:
        if not self.model_config.get("frozen"):
            raise TypeError(f"unhashable type: {type(self).__name__!r}")
        return hash((type(self), *self.__dict__.values()))

    def __repr__(self) -> str:
        shown = ", ".join(f"{k}={v!r}" for k, v in self.__dict__.items())
        return f"{type(self).__name__}({shown})"


M = typing.TypeVar("M", bound=BaseModel)


def _dumped_model(model: BaseModel, json: bool, exclude_unset: bool) -> dict[str, Any]:
    given = model.model_fields_set if exclude_unset else None
    return {
        name: _dumped(value, json, exclude_unset)
        for name, value in model.__dict__.items()
        if given is None or name in given
    }


def _dumped(value: Any, json: bool, exclude_unset: bool) -> Any:
    if isinstance(value, BaseModel):
        return _dumped_model(value, json, exclude_unset)
    if isinstance(value, dict):
        return {k: _dumped(v, json, exclude_unset) for k, v in value.items()}
    if isinstance(value, list):
        return [_dumped(v, json, exclude_unset) for v in value]
    if isinstance(value, tuple):
        items = [_dumped(v, json, exclude_unset) for v in value]
        return items if json else tuple(items)
    if isinstance(value, set | frozenset):
        items = [_dumped(v, json, exclude_unset) for v in value]
        return items if json else type(value)(items)
    return value


def assign(model: BaseModel, name: str, value: Any) -> None:
    """Set `model.name = value` checked as the field declares (its type and validators, then the model's
    "after" validators), as pydantic's `validate_assignment`; pydantic_core's ValidationError if wrong."""
    _validator(type(model)).validate_assignment(model, name, value)


def create_model(name: str, base: type[M], module: str, fields: dict[str, tuple[Any, Any]]) -> type[M]:
    """A model made at run time, as pydantic's `create_model`: `fields` maps each name to (type,
    default), the default `...` when the field is required; `module` is where it is said to live."""
    namespace: dict[str, Any] = {"__module__": module, "__qualname__": name}
    namespace["__annotations__"] = {key: kind for key, (kind, _) in fields.items()}
    namespace.update({key: default for key, (_, default) in fields.items() if default is not ...})
    made: type[M] = types.new_class(name, (base,), {}, lambda body: body.update(namespace))
    return made


def is_model(kind: Any) -> bool:
    return isinstance(kind, type) and issubclass(kind, BaseModel)


def _evaluated(written: Any, names: dict[str, Any]) -> Any:
    """An annotation's value: a plain name looked up (most are), other text evaluated where it was written."""
    if not isinstance(written, str):
        return written
    if written in names:
        return names[written]
    if written in _BUILTIN_TYPES:
        return _BUILTIN_TYPES[written]
    return eval(written, names)  # noqa: S307  # the module's own annotation, as typing.get_type_hints does


_BUILTIN_TYPES = {kind.__name__: kind for kind in (int, str, bool, float, bytes)}


def _hints(cls: type) -> dict[str, Any]:
    """Each field's type, its annotation evaluated where it was written (a base's in the base's module)."""
    found = cls.__dict__.get("__light_hints__")
    if found is None:
        found = {}
        for base in reversed(cls.__mro__):
            if base is BaseModel or not is_model(base):
                continue
            names = vars(sys.modules[base.__module__])
            for name, written in base.__dict__.get("__annotations__", {}).items():
                if name in base.__dict__["__light_defaults__"]:
                    found[name] = _evaluated(written, names)
        cls.__light_hints__ = found  # type: ignore[attr-defined]
    return typing.cast("dict[str, Any]", found)


# -- the walk: every model, validator and default a root model reaches, and its fingerprint ------------


class _Walk:
    """Walks a root model's types in a fixed order: `text` says all that shapes its schema, `objects`
    holds (in order) every model, callable and default that is not plain data."""

    def __init__(self) -> None:
        self.text: list[str] = []
        self.objects: list[Any] = []
        self.index: dict[int, int] = {}
        self.models: list[type[BaseModel]] = []
        self.said: dict[int, tuple[Any, str]] = {}  # a type already said: said again alike (its object kept)

    def keep(self, obj: Any) -> str:
        if id(obj) not in self.index:
            self.index[id(obj)] = len(self.objects)
            self.objects.append(obj)
        return f"#{self.index[id(obj)]}"

    def callable(self, func: Callable[..., Any]) -> str:
        code = getattr(getattr(func, "__func__", func), "__code__", None)
        shape = code.co_varnames[: code.co_argcount] if code is not None else type(func).__qualname__
        return f"{self.keep(func)}{getattr(func, '__qualname__', '')}{shape}"

    def value(self, value: Any) -> str:
        """A default (or a `Key` option) as the fingerprint says it: plain data by its value, anything else
        by its place in the walk and its kind (never its repr, which may hold its address)."""
        if _plain(value):
            return repr(value)
        if callable(value):
            return self.callable(value)
        return self.keep(value) + type(value).__qualname__

    def key(self, key: KeyInfo) -> str:
        return f"Key({', '.join(f'{k}={self.value(v)}' for k, v in sorted(key.options.items()))})"

    def model(self, cls: type[BaseModel]) -> str:
        if cls in self.models:
            return f"model{self.models.index(cls)}"
        self.models.append(cls)
        mark = self.keep(cls)
        parts = [f"{cls.__module__}.{cls.__qualname__}{mark}{sorted(cls.model_config.items())}"]
        hints = _hints(cls)
        for name, default in cls.__light_defaults__.items():
            shown = (
                self.value(default.default) + self.key(default)
                if isinstance(default, KeyInfo)
                else self.value(default)
            )
            checks = [self.callable(c) for c in cls.__light_checks__.get(name, [])]
            before = [self.callable(c) for c in cls.__light_before__.get(name, [])]
            parts.append(f"{name}:{self.kind(hints[name])}={shown}{checks}{before}")
        parts.append(f"after:{[self.callable(c) for c in cls.__light_model_checks__]}")
        self.text.append("\n".join(parts))
        return f"model{self.models.index(cls)}"

    def kind(self, kind: Any) -> str:
        said = self.said.get(id(kind))
        if said is None:  # (a type met again says what it said: what it holds is walked already)
            said = self.said[id(kind)] = (kind, self._kind(kind))
        return said[1]

    def _kind(self, kind: Any) -> str:
        if is_model(kind):
            return self.model(kind)
        origin, args = get_origin(kind), get_args(kind)
        if origin is Annotated:
            marks = [self.marker(m) for m in args[1:]]
            return f"Annotated[{self.kind(args[0])}, {', '.join(marks)}]"
        if origin is Literal:
            return repr(kind)
        if args:
            return f"{_name(origin)}[{', '.join(self.kind(a) for a in args)}]"
        return _name(kind)

    def marker(self, mark: Any) -> str:
        if isinstance(mark, _Calls):
            return f"{mark!r}({self.callable(mark.func)})"
        if isinstance(mark, KeyInfo):
            return self.key(mark)
        if isinstance(mark, Tag | _Strict):
            return repr(mark)
        raise TypeError(f"{mark!r}: not a marker pnpforge.lightmodel knows")


def _name(kind: Any) -> str:
    if kind is Union or kind is types.UnionType:
        return "Union"
    if kind is Ellipsis:
        return "..."
    return f"{getattr(kind, '__module__', '')}.{getattr(kind, '__qualname__', repr(kind))}"


def _plain(value: Any) -> bool:
    if isinstance(value, _PLAIN):
        return True
    if isinstance(value, list | tuple | set | frozenset):
        return all(_plain(v) for v in value)
    if isinstance(value, dict):
        return all(_plain(k) and _plain(v) for k, v in value.items())
    return False


# -- the slow path: pydantic builds the schema ---------------------------------------------------------


def _pydantic_schema(root: type[BaseModel]) -> Any:
    """The core schema pydantic makes for `root` translated into pydantic models, its classes those here."""
    built = _pydantic_models(root)
    classes = {id(made): cls for cls, made in built.items()}
    return _pointed(built[root].__pydantic_core_schema__, classes)


def _pydantic_models(root: type[BaseModel]) -> dict[type[BaseModel], Any]:
    """`root` and every model it reaches made as pydantic models (pydantic.create_model)."""
    import pydantic

    built: dict[type[BaseModel], Any] = {}

    def marker(mark: Any) -> Any:
        if isinstance(mark, KeyInfo):
            return pydantic.Field(**mark.options)
        if isinstance(mark, _Strict):
            return pydantic.Strict()
        if isinstance(mark, Tag):
            return pydantic.Tag(mark.tag)
        return getattr(pydantic, type(mark).__name__)(mark.func)

    def kind(tp: Any) -> Any:
        if is_model(tp):
            return model(tp)
        origin, args = get_origin(tp), get_args(tp)
        if origin is Annotated:
            return Annotated[(kind(args[0]), *[marker(m) for m in args[1:]])]
        if origin is Literal or not args:
            return tp
        if origin is Union or origin is types.UnionType:
            return Union[tuple(kind(a) for a in args)]  # noqa: UP007
        return origin[tuple(kind(a) for a in args)]

    def model(cls: type[BaseModel]) -> Any:
        if cls in built:
            return built[cls]
        hints = _hints(cls)
        fields: dict[str, Any] = {}
        for name, default in cls.__light_defaults__.items():
            tp = kind(hints[name])
            for check in cls.__light_checks__.get(name, []):
                tp = Annotated[tp, pydantic.AfterValidator(check)]
            for check in cls.__light_before__.get(name, []):
                tp = Annotated[tp, pydantic.BeforeValidator(check)]
            if isinstance(default, KeyInfo):
                options = {"default": default.default} if default.default is not _MISSING else {}
                fields[name] = (tp, pydantic.Field(**options, **default.options))
            else:
                fields[name] = (tp, ...) if default is _MISSING else (tp, default)
        built[cls] = pydantic.create_model(
            cls.__name__,
            __config__=pydantic.ConfigDict(**cls.model_config),  # type: ignore[typeddict-item]
            __module__=cls.__module__,
            __doc__=cls.__dict__.get("__doc__"),  # its JSON Schema's description, as pydantic's
            __validators__={
                f"_after{number}": pydantic.model_validator(mode="after")(check)  # type: ignore[misc]
                for number, check in enumerate(cls.__light_model_checks__)
            },
            **fields,
        )
        return built[cls]

    model(root)
    return built


def _pointed(schema: Any, classes: dict[int, type[BaseModel]]) -> Any:
    """`schema` without what only pydantic's own models use (metadata, serialisers), its model classes
    those of `classes` (pydantic's model's id -> the model here)."""
    if isinstance(schema, dict):
        out = {}
        for key, value in schema.items():
            if key in ("metadata", "serialization"):
                continue
            if key == "cls" and schema.get("type") == "model":
                value = classes[id(value)]
            elif key == "generic_origin":
                continue
            out[key] = _pointed(value, classes)
        return out
    if isinstance(schema, list):
        return [_pointed(v, classes) for v in schema]
    return schema


# -- keeping it ---------------------------------------------------------------------------------------


Where = tuple[str | int, ...]  # keys and list positions from a schema's top to one of its values


class _NotKept(Exception):
    """The schema holds an object that is neither plain data nor found by walking the models (or one in
    a tuple, a set or a key, where it could not be put back in place)."""


def _kept(node: Any, index: dict[int, int], where: Where | None, refs: list[tuple[Where, int]]) -> Any:
    """`node` as plain data marshal can write, each object the walk found left out (None) and listed in
    `refs` as (where it was, its position in the walk); `where` None: inside what cannot be changed."""
    kind = type(node)
    if kind is dict:
        out = {}
        for key, value in node.items():
            out[_kept(key, index, None, refs)] = _kept(
                value, index, None if where is None else (*where, key), refs
            )
        return out
    if kind is list:
        return [_kept(v, index, None if where is None else (*where, n), refs) for n, v in enumerate(node)]
    if kind is tuple or kind is set or kind is frozenset:
        return kind(_kept(v, index, None, refs) for v in node)
    if isinstance(node, _PLAIN) and kind in _PLAIN:
        return node
    if id(node) in index and where is not None:
        refs.append((where, index[id(node)]))
        return None
    raise _NotKept(node)


def _found(kept: tuple[Any, list[tuple[Where, int]]], objects: list[Any]) -> Any:
    """A kept schema with the walk's objects in place again (only where they were: the rest as read)."""
    schema, refs = kept
    for where, number in refs:
        node = schema
        for step in where[:-1]:
            node = node[step]
        node[where[-1]] = objects[number]
    return schema


def _keepable(schema: Any, walk: _Walk) -> tuple[Any, list[tuple[Where, int]]]:
    refs: list[tuple[Where, int]] = []
    return _kept(schema, walk.index, (), refs), refs


@functools.cache  # (the same all the process long: pydantic's version.py is read once, not per model)
def _versions() -> str:
    from pnpforge.internals import pydantic_core_private
    from pnpforge.internals.pydantic_version import pydantic_version

    pydantic_core = pydantic_core_private.compiled()

    version = pydantic_version()  # read, not imported: a build imports no more of pydantic than its core
    return (
        f"{FORMAT} pydantic {version} pydantic_core {pydantic_core.__version__} python {sys.version_info[:2]}"
    )


def _walked(root: type[BaseModel]) -> tuple[_Walk, str]:
    """The walk of `root` and what it says (pydantic's versions first)."""
    walk = _Walk()
    walk.model(root)
    return walk, "\n\n".join([_versions(), *walk.text])


def _digest(text: str) -> str:
    return usercache.digest(text.encode()).hex()  # (BLAKE2b: no OpenSSL loaded, ~2 ms of a table command)


def fingerprint(root: type[BaseModel]) -> str:
    """What names `root`'s kept schema: every model, field, type, default and validator it reaches, and
    pydantic's versions (the same in every process, or the schema would be made again each time)."""
    return _digest(_walked(root)[1])


def beside_bytecode(root: type[BaseModel]) -> Path | None:
    """Where the schema of a model of pnpforge's own package (the engine's, a bundled game's) is kept:
    beside its module's bytecode, where Python keeps it (`__pycache__`, or under PYTHONPYCACHEPREFIX),
    as the package's data files' parsed forms are (pnpforge.parsecache). Whoever can write there can
    write the bytecode Python runs, so it is not signed. None for any other model (a designer's, one
    made at run time), whose schema the user's cache keeps, signed."""
    module = sys.modules.get(root.__module__)
    source = getattr(module, "__file__", None)
    if source is None or getattr(module, root.__qualname__, None) is not root:
        return None
    try:
        if not Path(source).resolve().is_relative_to(PACKAGE_DIR):
            return None
        compiled = Path(importlib.util.cache_from_source(source))
    except (OSError, RuntimeError, ValueError, NotImplementedError):
        return None
    return compiled.with_name(f"{compiled.stem}.{root.__qualname__}.schema")


def _read_beside(path: Path, text: str, objects: list[Any]) -> Any:
    """The schema kept at `path` for exactly this walk's `text`, or None."""
    raw = read_regular(path, SCHEMA_BYTES)
    if raw is None or not raw.startswith(MAGIC):
        return None
    try:
        said, kept = marshal.loads(raw[len(MAGIC) :])
        return _found(kept, objects) if said == text else None
    except (EOFError, ValueError, TypeError, IndexError, KeyError):
        return None  # not what this module writes: made again


def _write_beside(path: Path, text: str, payload: tuple[Any, Any]) -> bool:
    """Keep `payload` for `text` at `path`, whole or not at all; False when it cannot be written."""
    partial = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial.write_bytes(MAGIC + marshal.dumps((text, payload)))
        os.replace(partial, path)
    except (OSError, ValueError):
        with contextlib.suppress(OSError):
            partial.unlink()
        return False
    return True


def _schema_of(root: type[BaseModel]) -> Any:
    walk, text = _walked(root)
    beside = beside_bytecode(root)
    if beside is not None:
        found = _read_beside(beside, text, walk.objects)
        if found is not None:
            return found
    digest = _digest(text)
    path = usercache.folder() / "schemas" / f"{digest[:40]}.marshal"
    kept = usercache.read_signed(path, MAGIC, digest, SCHEMA_BYTES)  # (a read-only install's, an older one's)
    if kept is not None:
        try:
            if beside is not None:  # kept beside the bytecode from now on
                _write_beside(beside, text, marshal.loads(kept))
            return _found(marshal.loads(kept), walk.objects)
        except (EOFError, ValueError, TypeError, IndexError, KeyError):
            pass  # not what this module writes: made again below
    schema = _pydantic_schema(root)
    try:
        payload = _keepable(schema, walk)
    except _NotKept:
        return schema  # not kept: every run takes this path (a test holds the bundled games to the fast one)
    if beside is not None and _write_beside(beside, text, payload):
        return schema
    if usercache.write_signed(path, MAGIC, digest, marshal.dumps(payload), SCHEMA_BYTES):
        usercache.prune(path.parent, path.suffix, KEPT_FILES, KEPT_BYTES)
    return schema


def _validator(cls: type[BaseModel]) -> Any:
    found = cls.__dict__.get("__light_validator__")
    if found is None:
        from pnpforge.internals import pydantic_core_private

        found = pydantic_core_private.schema_validator()(_schema_of(cls))
        cls.__light_validator__ = found  # type: ignore[attr-defined]
    return found


def compiled(cls: type[BaseModel]) -> bool:
    """Whether `cls`'s schema can be kept (every object in it plain data or found by the walk)."""
    walk = _Walk()
    walk.model(cls)
    try:
        _keepable(_pydantic_schema(cls), walk)
    except _NotKept:
        return False
    return True
