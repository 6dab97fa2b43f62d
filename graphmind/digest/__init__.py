"""Digests (rumination-digest-proposal.zh): cross-pollination, thread convergence and
decay-aware review over a mind's topic memory; the pure logic is in ``_logic``."""

from graphmind.digest.engine import Digester, DigestParams, DigestReport, absorb, digest, merge_threads

__all__ = ["DigestParams", "DigestReport", "Digester", "absorb", "digest", "merge_threads"]
