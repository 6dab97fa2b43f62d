"""LLM providers behind one protocol: Anthropic (hosted), offline (default) and replay."""

from graphmind.llm.base import LLM, Prompt, Tool, ToolCall, ToolRun, Usage, UsageLog

__all__ = ["LLM", "Prompt", "Tool", "ToolCall", "ToolRun", "Usage", "UsageLog"]
