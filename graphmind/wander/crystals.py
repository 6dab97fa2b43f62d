"""Crystals: an insight the step's resonances and residues carry, validated, stored with its
evidence (``EVIDENCED_BY``), with a status lifecycle and human approval.

``attempt`` asks the LLM to crystallize (``wander.crystallize``); the insight must pass
``crystal_rules.check`` against the memories it cites (evidence is memories only: never a
residue, resonance, locus or crystal; most of its terms in them, a connection between two of
them named, no template text), else no crystal is made. A crystal that repeats one the mind
keeps (same evidence, or near-equal text) merges into it (``occurrences`` + 1, status
``merged`` in the result). Otherwise the LLM validates it (``wander.validate_crystal``): one
that holds is ``active``; one that does not is kept ``invalidated`` with the notes. Lifecycle: active → acted_upon | invalidated | archived; acted_upon and
invalidated → archived; archived is final. ``approve`` records a human's approval.
"""

from __future__ import annotations

import logging
import secrets
from dataclasses import dataclass

from graphmind.errors import NotFoundError, ValidationError
from graphmind.llm import LLM
from graphmind.prompts._models import MemoryItem
from graphmind.prompts.wander import (
    CRYSTALLIZE,
    VALIDATE_CRYSTAL,
    CrystalCheckInput,
    CrystalInput,
    LocusItem,
    ResidueItem,
    ResonanceItem,
)
from graphmind.store import GraphStore
from graphmind.wander import crystal_rules as rules
from graphmind.wander.events import EventBus

log = logging.getLogger(__name__)
LIFECYCLE = {
    "active": {"acted_upon", "invalidated", "archived"},
    "acted_upon": {"archived"},
    "invalidated": {"archived"},
    "archived": set(),
}


@dataclass(frozen=True)
class CrystalResult:
    formed: bool
    crystal_id: str | None = None
    status: str | None = None
    insight: str = ""
    notes: str = ""
    evidence: tuple[str, ...] = ()


def residue_item(row: dict) -> ResidueItem:
    """A stored residue (``{id, props}``) as the crystal prompts see it."""
    props = {k: v for k, v in row["props"].items() if k in ResidueItem.model_fields and v is not None}
    return ResidueItem(**{**props, "id": row["id"]})


class Crystals:
    """Crystallize, validate, approve and move one mind's crystals through their lifecycle."""

    def __init__(self, store: GraphStore, llm: LLM, mind: str, bus: EventBus | None = None):
        self._store, self._llm, self._mind, self._bus = store, llm, mind, bus

    def attempt(
        self,
        locus: LocusItem,
        resonances: list[ResonanceItem],
        residues: list[ResidueItem],
        memories: list[MemoryItem] | None = None,
        *,
        session_id: str | None = None,
    ) -> CrystalResult:
        """Crystallize, validate and store (``propose`` then write and announce)."""
        result, write = self.propose(locus, resonances, residues, memories, session_id=session_id)
        if write is not None:
            self._store.write("wander/upsert_crystal", mind=self._mind, crystal=write)
            self.announce(result, self._bus)
        return result

    def propose(
        self,
        locus: LocusItem,
        resonances: list[ResonanceItem],
        residues: list[ResidueItem],
        memories: list[MemoryItem] | None = None,
        *,
        session_id: str | None = None,
        llm: LLM | None = None,
    ) -> tuple[CrystalResult, dict | None]:
        """The crystal the evidence carries and the ``crystal`` parameter of
        wander/upsert_crystal, or (not formed, None). The LLM crystallizes (``wander.crystallize``);
        its insight must then pass ``crystal_rules.check`` against the memories it cites (the
        residues and resonances are context, never evidence); the LLM validates
        (``wander.validate_crystal``); a crystal that repeats one the mind keeps merges into it."""
        llm = llm or self._llm
        memories = [m for m in memories or [] if m.label in rules.MEMORY_LABELS]
        out = llm.generate(
            CRYSTALLIZE, CrystalInput(locus=locus, resonances=resonances, residues=residues, memories=memories)
        )
        if not out.formed:
            return CrystalResult(False, notes="the evidence does not carry an insight yet"), None
        known = {m.id: m for m in memories}
        evidence = list(dict.fromkeys(i for i in out.evidence_ids if i in known))
        if len(evidence) < 2:
            return CrystalResult(False, notes="the insight cites fewer than two memories it was given"), None
        items = [rules.Evidence(i, known[i].label, known[i].text) for i in evidence]
        edges = [
            (r["source"], r["type"], r["target"])
            for r in self._store.read("wander/list_evidence_edges", mind=self._mind, ids=evidence)
        ]
        verdict = rules.check(out.insight, items, edges)
        if not verdict.holds:
            log.info("crystal at %s dropped: %s", locus.id, verdict.reason)
            return CrystalResult(False, insight=out.insight, notes=verdict.reason), None
        kept = self._store.read("wander/list_crystals", mind=self._mind, session_id=None)
        same = rules.duplicate_of(
            out.insight,
            evidence,
            [
                {"id": k["id"], "insight": k["props"].get("insight"), "evidence": k["evidence"]}
                for k in kept
                if k["props"].get("status") != "invalidated"
            ],
        )
        if same is not None:
            old = next(k for k in kept if k["id"] == same)["props"]
            write = {
                "uid": f"{self._mind}:{same}",
                "id": same,
                "evidence": [f"{self._mind}:{i}" for i in evidence],
                "props": {"occurrences": int(old.get("occurrences") or 1) + 1},
            }
            return CrystalResult(
                True, same, "merged", old.get("insight") or "", f"repeats crystal {same}", tuple(evidence)
            ), write
        check = llm.generate(
            VALIDATE_CRYSTAL, CrystalCheckInput(insight=out.insight, evidence=[known[i] for i in evidence])
        )
        status = "active" if check.holds else "invalidated"
        crystal_id = f"crystal-{secrets.token_hex(4)}"
        props = {
            "insight": out.insight,
            "confidence": min(out.confidence, check.confidence, verdict.confidence),
            "actionability": out.actionability,
            "domains": out.domains,
            "status": status,
            "validated_by": "rules (offline)" if llm.provider == "offline" else llm.provider,
            "validation_notes": check.notes,
            "human_approved": False,
            "source_locus_id": locus.id,
            "resonance_ids": [r.id for r in resonances],
            "residue_ids": [r.id for r in residues],
            "occurrences": 1,
            **({"session_id": session_id} if session_id else {}),
        }
        write = {
            "uid": f"{self._mind}:{crystal_id}",
            "id": crystal_id,
            "props": props,
            "evidence": [f"{self._mind}:{i}" for i in evidence],
        }
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
        if not self._store.write(
            "wander/mark_crystal", mind=self._mind, id=crystal_id, expected=expected, status=status, approved_by=by
        ):
            raise NotFoundError(f"mind {self._mind!r} has no {expected} crystal {crystal_id!r}")
