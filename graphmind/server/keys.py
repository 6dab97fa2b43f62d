"""API keys: made once, shown once, stored only as their SHA-256, each for one mind and scope.

A scope allows what it names and what ranks below it: ``read`` (recall, stats, export,
knowledge, ask, digest, verify), ``write`` (also capture, import, forget, ruminate, dream,
wander), ``admin`` (as write: no verb needs more yet).
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from typing import Any, Literal

from graphmind.errors import NotFoundError, ValidationError
from graphmind.store import GraphStore

Scope = Literal["read", "write", "admin"]
SCOPES: tuple[Scope, ...] = ("read", "write", "admin")
PREFIX = "gm_"


@dataclass(frozen=True)
class ApiKey:
    """A stored key: its public id, its mind and its scope (never the secret)."""

    id: str
    mind: str
    scope: Scope

    def allows(self, needed: Scope) -> bool:
        return SCOPES.index(self.scope) >= SCOPES.index(needed)

    def as_dict(self) -> dict[str, Any]:
        return {"id": self.id, "mind": self.mind, "scope": self.scope}


def new_secret() -> tuple[str, str]:
    """(key id, the key): the id is public (it names the key in lists), the key is the secret."""
    key_id = secrets.token_hex(4)
    return key_id, f"{PREFIX}{key_id}_{secrets.token_urlsafe(32)}"


def digest(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def check_scope(scope: object) -> Scope:
    if scope not in SCOPES:
        raise ValidationError(f"scope must be one of {', '.join(SCOPES)}, not {scope!r}", field="scope")
    return scope


def create_key(store: GraphStore, mind: str, scope: str) -> tuple[ApiKey, str]:
    """A new key for ``mind``: the stored record and the key itself (to show once)."""
    checked = check_scope(scope)
    key_id, key = new_secret()
    store.write("keys/upsert_key", id=key_id, hash=digest(key), mind=mind, scope=checked)
    return ApiKey(key_id, mind, checked), key


def find_key(store: GraphStore, key: str) -> ApiKey | None:
    """The live key ``key`` is, or None."""
    if not key.startswith(PREFIX):
        return None
    rows = store.read("keys/get_key", hash=digest(key))
    return ApiKey(rows[0]["id"], rows[0]["mind"], rows[0]["scope"]) if rows else None


def list_keys(store: GraphStore, mind: str) -> list[dict[str, Any]]:
    return store.read("keys/list_keys", mind=mind)


def revoke_key(store: GraphStore, mind: str, key_id: str) -> None:
    if not store.write("keys/delete_key", mind=mind, id=key_id)[0]["revoked"]:
        raise NotFoundError(f"mind {mind!r} has no key {key_id!r}; 'graphmind keys list --mind {mind}' lists them")
