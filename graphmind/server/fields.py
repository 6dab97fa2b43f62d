"""The base of every REST request body: only its own fields (anything else is a 422), and a
number or a flag sent as text ("5", "true") is a 422, not coerced.

Strict validation would refuse 5.0 too, which JSON Schema's "integer" allows (and clients such
as schemathesis send), and an ISO-8601 date-time string: this refuses text only where the field
takes a number or a flag."""

from __future__ import annotations

import types
import typing
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationInfo, field_validator

_NOT_TEXT = (int, float, bool)


class RequestBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    @field_validator("*", mode="before")
    @classmethod
    def _no_number_as_text(cls, value: Any, info: ValidationInfo) -> Any:
        if isinstance(value, str | bytes) and info.field_name is not None:
            if _takes_only_numbers(cls.model_fields[info.field_name].annotation):
                raise ValueError("a number or a flag must be sent as JSON, not as text")
        return value


def _takes_only_numbers(annotation: Any) -> bool:
    """Whether ``annotation`` is int, float or bool, or an optional one (``int | None``)."""
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        kinds = [a for a in typing.get_args(annotation) if a is not type(None)]
    else:
        kinds = [annotation]
    return bool(kinds) and all(k in _NOT_TEXT for k in kinds)
