"""Crystals: an insight the step's resonances and residues carry, validated, stored with its
evidence (``EVIDENCED_BY``), with a status lifecycle and human approval.

``attempt`` asks the LLM to crystallize (``wander.crystallize``), then validates the insight
against its evidence (``wander.validate_crystal``): with Claude the model judges; offline the
documented rules do (at least 60% of the insight's content terms must appear in the
evidence). A crystal that holds is ``active``; one that does not is kept ``invalidated`` with
the validation notes. Lifecycle: active → acted_upon | invalidated | archived; acted_upon and
invalidated → archived; archived is final. ``approve`` records a human's approval.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from graphmind.errors import NotFoundError, ValidationError
from graphmind.llm import LLM
from graphmind.prompts._models import MemoryItem
from graphmind.prompts.wander import (
    CRYSTALLIZE, VALIDATE_CRYSTAL, CrystalCheckInput, CrystalInput, LocusItem, ResidueItem, ResonanceItem,
    residue_text,
)
from graphmind.store import GraphStore
from graphmind.wander.events import EventBus

LIFECYCLE = {"active": {"acted_upon", "invalidated", "archived"}, "acted_upon": {"archived"},
             "invalidated": {"archived"}, "archived": set()}


@dataclass(frozen=True)
class CrystalResult:
    formed: bool
    crystal_id: str | None = None
    status: str | None = None
    insight: str = ""
    notes: str = ""
    evidence: tuple[str, ...] = ()


def _evidence_items(residues: list[ResidueItem], resonances: list[ResonanceItem],
                    memories: list[MemoryItem]) -> dict[str, MemoryItem]:
    items = {r.id: MemoryItem(id=r.id, label="Residue", text=residue_text(r).strip()) for r in residues}
    items |= {r.id: MemoryItem(id=r.id, label="Resonance", text="; ".join(r.themes)) for r in resonances}
    return items | {m.id: m for m in memories}


def residue_item(row: dict) -> ResidueItem:
    """A stored residue (``{id, props}``) as the crystal prompts see it."""
    props = {k: v for k, v in row["props"].items() if k in ResidueItem.model_fields and v is not None}
    return ResidueItem(**{**props, "id": row["id"]})


class Crystals:
    """Crystallize, validate, approve and move one mind's crystals through their lifecycle."""
    def __init__(self, store: GraphStore, llm: LLM, mind: str, bus: EventBus | None = None):
        self._store, self._llm, self._mind, self._bus = store, llm, mind, bus

    def attempt(self, locus: LocusItem, resonances: list[ResonanceItem], residues: list[ResidueItem],
                memories: list[MemoryItem] | None = None, *, session_id: str | None = None) -> CrystalResult:
        """Crystallize, validate and store (``propose`` then write and announce)."""
        result, write = self.propose(locus, resonances, residues, memories, session_id=session_id)
        if write is not None:
            self._store.write("wander/upsert_crystal", mind=self._mind, crystal=write)
            self.announce(result, self._bus)
        return result

    def propose(self, locus: LocusItem, resonances: list[ResonanceItem], residues: list[ResidueItem],
                memories: list[MemoryItem] | None = None, *, session_id: str | None = None,
                llm: LLM | None = None) -> tuple[CrystalResult, dict | None]:
        """The crystal the evidence carries (two LLM calls: crystallize, validate) and the
        ``crystal`` parameter of wander/upsert_crystal, or (not formed, None)."""
        llm = llm or self._llm
        memories = memories or []
        out = llm.generate(CRYSTALLIZE, CrystalInput(locus=locus, resonances=resonances, residues=residues,
                                                      memories=memories))
        if not out.formed:
            return CrystalResult(False, notes="the evidence does not carry an insight yet"), None
        known = _evidence_items(residues, resonances, memories)
        evidence = [i for i in out.evidence_ids if i in known]
        if not evidence:
            return CrystalResult(False, notes="the insight cites no evidence it was given"), None
        check = llm.generate(VALIDATE_CRYSTAL, CrystalCheckInput(insight=out.insight,
                                                                 evidence=[known[i] for i in evidence]))
        status = "active" if check.holds else "invalidated"
        crystal_id = f"crystal-{secrets.token_hex(4)}"
        props = {"insight": out.insight, "confidence": min(out.confidence, check.confidence),
                 "actionability": out.actionability, "domains": out.domains, "status": status,
                 "validated_by": "rules (offline)" if llm.provider == "offline" else llm.provider,
                 "validation_notes": check.notes, "human_approved": False, "source_locus_id": locus.id,
                 **({"session_id": session_id} if session_id else {})}
        write = {"uid": f"{self._mind}:{crystal_id}", "id": crystal_id, "props": props,
                 "evidence": [f"{self._mind}:{i}" for i in [*evidence, locus.id]]}
        return CrystalResult(True, crystal_id, status, out.insight, check.notes, tuple(evidence)), write

    @staticmethod
    def announce(result: CrystalResult, bus: EventBus | None) -> None:
        if bus is not None and result.formed and result.status == "active":
            payload = {"crystal_id": result.crystal_id, "insight": result.insight, "evidence": list(result.evidence)}
            bus.publish("wander.crystal.formed", payload)
            bus.publish("wander.crystal.validated", payload | {"notes": result.notes})

    def set_status(self, crystal_id: str, status: str) -> None:
        current = self._status(crystal_id)
        if status not in LIFECYCLE.get(current, set()):
            raise ValidationError(f"a crystal that is {current} cannot become {status}", field="status")
        self._mark(crystal_id, current, status, None)

    def approve(self, crystal_id: str, by: str) -> None:
        """Record a human's approval (``human_approved``, ``_by``, ``_at``)."""
        if not isinstance(by, str) or not by.strip():
            raise ValidationError("an approval needs the approver's name (--by)", field="by")
        current = self._status(crystal_id)
        self._mark(crystal_id, current, current, by.strip())

    def _status(self, crystal_id: str) -> str:
        rows = self._store.read("memory/get_node", mind=self._mind, id=crystal_id)
        if not rows or rows[0]["label"] != "Crystal":
            raise NotFoundError(f"mind {self._mind!r} has no crystal {crystal_id!r}")
        return rows[0]["props"].get("status") or "active"

    def _mark(self, crystal_id: str, expected: str, status: str, by: str | None) -> None:
        if not self._store.write("wander/mark_crystal", mind=self._mind, id=crystal_id, expected=expected,
                                 status=status, approved_by=by):
            raise NotFoundError(f"mind {self._mind!r} has no {expected} crystal {crystal_id!r}")
