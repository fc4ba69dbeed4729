"""pydantic's assignment validator, to check one field of a copied model at a time (faces/templates.py).

`Model.__pydantic_validator__.validate_assignment(instance, name, value)` checks a value with the
field's own validators and sets it, without validating the whole model again.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

__all__ = ["assign", "shape_problems"]


def assign(model: BaseModel, name: str, value: Any) -> None:
    """Set `model.name = value`, validated as the field declares (pydantic.ValidationError if not)."""
    type(model).__pydantic_validator__.validate_assignment(model, name, value)


def shape_problems() -> list[str]:
    """What of the above a pydantic release no longer offers, in words (empty: all there)."""
    from pydantic import ValidationError

    class Probe(BaseModel):
        count: int = 0

    probe = Probe()
    validator = getattr(Probe, "__pydantic_validator__", None)
    if not callable(getattr(validator, "validate_assignment", None)):
        return ["pydantic models have no __pydantic_validator__.validate_assignment"]
    problems = []
    assign(probe, "count", "3")
    if probe.count != 3:
        problems.append(f"pydantic validate_assignment no longer sets the field (count is {probe.count!r})")
    try:
        assign(probe, "count", "three")
        problems.append("pydantic validate_assignment no longer refuses a bad value")
    except ValidationError:
        pass
    return problems
