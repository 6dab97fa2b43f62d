"""Forgetting: delete memories on request, and what was derived from them when it loses its support."""

from graphmind.forget._logic import ForgetParams
from graphmind.forget.engine import DerivedNode, EdgeRef, ForgetReport, ForgottenMemory, ScrubbedProperty, forget

__all__ = ["DerivedNode", "EdgeRef", "ForgetParams", "ForgetReport", "ForgottenMemory", "ScrubbedProperty", "forget"]
