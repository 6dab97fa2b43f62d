"""Rumination (seed P02): gap-driven, multi-step exploration ending in a Context Object."""

from graphmind.ruminate.engine import MAX_STIMULUS_CHARS, RuminationEngine, ruminate
from graphmind.ruminate.result import RuminationResult, StepRecord
from graphmind.ruminate.ruminator import RuminationParams

__all__ = ["MAX_STIMULUS_CHARS", "RuminationEngine", "RuminationParams", "RuminationResult", "StepRecord", "ruminate"]
