"""A ruamel.yaml resolver that works each scalar's tag out once per file (sourcefile.py's fast reader).

It subclasses `VersionedResolver`, reads its `versioned_resolver` property through the property's
`fget` (to keep the table on the instance) and its `yaml_path_resolvers` attribute, and is handed to
`YAML(typ="safe")` as its `Resolver`. The fast reader then walks the composed nodes, reading each
node's tag as `node.ctag.suffix` and building scalars with the safe constructor's `construct_yaml_*`.
"""

from __future__ import annotations

from functools import cache
from typing import Any, cast

__all__ = ["caching_resolver", "shape_problems"]


@cache
def caching_resolver() -> type[Any]:
    """ruamel's resolver, with the YAML version looked up once per file rather than per scalar, and
    each distinct scalar's tag worked out once per file (data files repeat their numbers and words)."""
    from ruamel.yaml.nodes import ScalarNode
    from ruamel.yaml.resolver import VersionedResolver

    class Resolver(VersionedResolver):
        @property
        def versioned_resolver(self) -> Any:
            if not hasattr(self, "_table"):
                own = cast(property, VersionedResolver.versioned_resolver)  # ruamel types it as its getter
                assert own.fget is not None  # shape_problems() checks it is there
                self._table = own.fget(self)
            return self._table

        def resolve(self, kind: Any, value: Any, implicit: Any) -> Any:
            if kind is not ScalarNode or self.yaml_path_resolvers:  # a path resolver would depend on where
                return super().resolve(kind, value, implicit)
            tags = self.__dict__.setdefault("_tags", {})
            key = (value, implicit)
            tag = tags.get(key)
            if tag is None:
                tag = tags[key] = super().resolve(kind, value, implicit)
            return tag

    return Resolver


def shape_problems() -> list[str]:
    """What of the above a ruamel.yaml release no longer offers, in words (empty: all there)."""
    from ruamel.yaml import YAML
    from ruamel.yaml.resolver import VersionedResolver

    problems = []
    prop = VersionedResolver.__dict__.get("versioned_resolver")
    if not isinstance(prop, property) or prop.fget is None:
        problems.append("ruamel VersionedResolver.versioned_resolver is no longer a property with fget")
    if not callable(getattr(VersionedResolver, "resolve", None)):
        problems.append("ruamel VersionedResolver has no resolve(kind, value, implicit)")
    yaml = YAML(typ="safe")
    if not hasattr(yaml, "Resolver"):
        problems.append("ruamel YAML has no Resolver attribute to hand a resolver to")
        return problems
    yaml.Resolver = caching_resolver()
    core = "tag:yaml.org,2002:"
    try:
        node = yaml.compose("a: [1, 1, x, 2.5, true, null]\n")
        tags = [n.ctag.suffix for n in node.value[0][1].value]
        expected = [core + t for t in ("int", "int", "str", "float", "bool", "null")]
        if tags != expected or node.ctag.suffix != core + "map":
            problems.append(f"ruamel node.ctag.suffix says {tags}, expected {expected}")
    except Exception as exc:  # any failure is the library changing shape: say it
        problems.append(f"ruamel composing with the caching resolver fails: {type(exc).__name__}: {exc}")
    for kind in ("int", "float", "bool", "null"):
        if not callable(getattr(yaml.constructor, f"construct_yaml_{kind}", None)):
            problems.append(f"ruamel's safe constructor has no construct_yaml_{kind}(node)")
    return problems
