"""LLM providers behind one protocol: Anthropic (hosted), offline (default) and replay."""

from graphmind.llm.base import LLM, BatchLLM, Prompt, Tool, ToolCall, ToolRun, Usage, UsageLog

__all__ = ["LLM", "BatchLLM", "Prompt", "Tool", "ToolCall", "ToolRun", "Usage", "UsageLog"]
