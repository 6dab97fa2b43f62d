"""The base of every node model: inert, validated data with no I/O."""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Annotated, Any, ClassVar, Literal

import pydantic
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator

PROPERTY_NAME = r"^[A-Za-z_][A-Za-z0-9_]*$"
RESERVED_PROPERTIES = frozenset({"mind", "uid", "id", "label"})
Kind = Literal["memory", "run"]


def _aware(value: datetime) -> datetime:
    return value if value.tzinfo else value.replace(tzinfo=UTC)


Unit = Annotated[float, Field(ge=0.0, le=1.0)]
"""A number in 0..1 (trust, intensity, confidence, rates)."""
Timestamp = Annotated[datetime, AfterValidator(_aware)]
"""An ISO-8601 date-time; a naive one is taken as UTC."""
Count = Annotated[int, Field(ge=0)]
NodeId = Annotated[str, Field(min_length=1, max_length=256, pattern=r"^[^\s\x00-\x1f]+$")]


INPUT = {"input": True}
"""The validation context of new input (capture, import): checks that stored data, written
before they existed, is not held to (``SomeText``)."""


def _some_text(value: str, info: pydantic.ValidationInfo) -> str:
    if isinstance(info.context, dict) and info.context.get("input") and not value.strip():
        raise ValueError("must say something (it is empty or only white space)")
    return value


SomeText = Annotated[str, AfterValidator(_some_text)]
"""Text that, as new input (``INPUT``), has a character that is not white space (an experience
says something); stored text is read as it is."""
PLACEHOLDERS = frozenset(
    {
        "",
        "-",
        "--",
        "?",
        "n/a",
        "na",
        "none",
        "null",
        "nil",
        "unknown",
        "other",
        "tbd",
        "undefined",
        "unspecified",
        "not applicable",
        "not available",
    }
)
"""Values that name nothing: an optional field or extra property holding one is left unset."""


def is_placeholder(value: Any) -> bool:
    """True for a string that carries no information ("unknown", "N/A", " - ", ""), any case."""
    return isinstance(value, str) and value.strip().rstrip(".").casefold() in PLACEHOLDERS


def first_error(exc: pydantic.ValidationError) -> tuple[str | None, str]:
    """(field path, message) of a validation error's first problem, for one clear sentence."""
    error = exc.errors()[0]
    field = ".".join(str(part) for part in error["loc"]) or None
    return field, error["msg"].removeprefix("Value error, ")


def split_dates(props: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
    """(plain properties, date-times as ISO text): the server turns the text into DateTime
    (the driver's own temporal encoding costs ~40 µs a value)."""
    dates = {k: v.isoformat() for k, v in props.items() if isinstance(v, datetime)}
    return {k: v for k, v in props.items() if k not in dates}, dates


def as_datetime(value: Any) -> datetime | None:
    """A stored or ISO-8601 date-time as an aware datetime (naive ones are UTC); None when
    ``value`` is none or not a date."""
    if isinstance(value, str):
        try:
            value = datetime.fromisoformat(value)
        except ValueError:
            return None
    return _aware(value) if isinstance(value, datetime) else None


def check_property_name(name: str) -> None:
    """Raise ValueError unless Neo4j takes ``name`` as a property name: it refuses an empty
    one and one with a NUL character (and with it the whole transaction)."""
    if not name:
        raise ValueError("a property name must not be empty")
    if "\x00" in name:
        raise ValueError("a property name must not contain a NUL character")


def oversize(value: Any, limit: int) -> str | None:
    """Why ``value`` is too large for one property: text over ``limit`` bytes of UTF-8 (a list of
    texts counted together), else None. Import, conversations and capture refuse it alike."""
    if isinstance(value, str):  # UTF-8 takes at most 4 bytes a character: encode only when it matters
        size = len(value) if len(value) * 4 <= limit else len(value.encode("utf-8", "surrogatepass"))
    elif isinstance(value, list):
        size = sum(len(v.encode("utf-8", "surrogatepass")) for v in value if isinstance(v, str))
    else:
        return None
    return f"is {size:,} bytes; the limit is {limit:,} (GRAPHMIND_MAX_PROPERTY_BYTES)" if size > limit else None


def check_storable(name: str, value: Any) -> None:
    """Raise ValueError unless Neo4j can store ``value`` as property ``name``."""
    if isinstance(value, bool | int | str):
        return
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"property {name!r} must be a finite number")
        return
    if isinstance(value, list):
        kinds = {type(v) for v in value}
        if kinds - {bool, int, float, str} or (len(kinds) > 1 and kinds != {int, float}):
            raise ValueError(f"property {name!r} must be a list of values of one simple type")
        return
    raise ValueError(
        f"property {name!r} must be a string, number, boolean or list of those, not {type(value).__name__}"
    )


class GraphNode(BaseModel):
    """A node graphmind keeps in Neo4j, inside one mind.

    Subclasses declare ``LABEL``, their ``KIND`` (``memory`` nodes carry ``:Memory``, ``run``
    nodes carry ``:Run``) and ``TEXT_FIELDS``, the properties whose text makes ``text``.
    Properties the model does not declare are kept when Neo4j can store them.
    """

    model_config = ConfigDict(extra="allow", frozen=True)

    LABEL: ClassVar[str] = ""
    KIND: ClassVar[Kind] = "memory"
    WORKING: ClassVar[bool] = False
    """A node an engine makes while it works (a walk's loci and residues, a rumination's
    findings): recall and ask leave it out unless its label is asked for by name."""
    TEXT_FIELDS: ClassVar[tuple[str, ...]] = ()

    id: NodeId
    created_at: Timestamp | None = None
    text: str | None = None
    embedding: list[float] | None = Field(default=None, repr=False)  # 384 numbers: not in repr()
    hits: Count | None = None
    """How often recall returned this node (the digests' decay-aware review reads it)."""
    last_hit_at: Timestamp | None = None
    valid_from: Timestamp | None = None
    """When what it says became true (unset: from when it was made)."""
    invalid_at: Timestamp | None = None
    """When it stopped being true: a newer memory superseded or contradicted it (it is kept;
    recall ranks it below valid memories, and ``as_of`` a date before this still sees it)."""

    @model_validator(mode="before")
    @classmethod
    def _drop_placeholders(cls, data: Any) -> Any:
        """The import and capture boundary: an optional value that names nothing ("unknown",
        "n/a", "-", "") is no value, so no engine ever groups or matches on it."""
        if not isinstance(data, Mapping):
            return data
        keep = _always_kept(cls)
        return {
            k: v
            for k, v in data.items()
            if k in keep or not is_placeholder(v) or not re.fullmatch(PROPERTY_NAME, str(k))
        }

    @model_validator(mode="after")
    def _check_extra(self) -> GraphNode:
        if self.valid_from and self.invalid_at and self.invalid_at <= self.valid_from:
            raise ValueError("invalid_at must be later than valid_from")
        for name, value in (self.model_extra or {}).items():
            check_property_name(name)
            if name in RESERVED_PROPERTIES:
                raise ValueError(f"property {name!r} is set by graphmind, not by the data")
            if value is not None:
                check_storable(name, value)
        return self

    def derived_text(self) -> str | None:
        """``text`` if given, else the TEXT_FIELDS joined: what embeddings are made from.

        It is not stored: the full-text index reads the TEXT_FIELDS themselves.
        """
        if self.text:
            return self.text
        parts = [_as_text(getattr(self, name, None)) for name in self.TEXT_FIELDS]
        joined = " — ".join(part for part in parts if part)
        return joined or None

    def properties(self) -> dict[str, Any]:
        """The properties to store, without ``id`` and without unset values."""
        return self.model_dump(exclude={"id"}, exclude_none=True)


class EdgeProperties(BaseModel):
    """Properties of a relationship; typed subclasses exist for contract relationships.

    ``KEY`` names the properties that tell apart parallel relationships of the type between
    the same two nodes (a walk can step from one locus to another many times); the import
    matches an existing relationship on (from, type, to) plus these.
    """

    model_config = ConfigDict(extra="allow", frozen=True)
    KEY: ClassVar[tuple[str, ...]] = ()

    created_at: Timestamp | None = None

    @model_validator(mode="after")
    def _check_extra(self) -> EdgeProperties:
        for name, value in (self.model_extra or {}).items():
            check_property_name(name)
            if value is not None:
                check_storable(name, value)
        return self


def _as_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, list):
        return "; ".join(str(v) for v in value)
    return str(value)


@functools.cache
def _always_kept(model: type[pydantic.BaseModel]) -> frozenset[str]:
    """The properties a placeholder value never removes: the model's required fields and the
    reserved ones (once per model: the import validates every node through this, issue 25)."""
    return frozenset(name for name, f in model.model_fields.items() if f.is_required()) | RESERVED_PROPERTIES
