"""Import and export of minds in the JSON Lines format of DESIGN.md."""

from graphmind.io.exporter import export_lines
from graphmind.io.importer import Importer, ImportReport
from graphmind.io.jsonl import EdgeLine, LineError, NodeLine, parse_line

__all__ = ["EdgeLine", "ImportReport", "Importer", "LineError", "NodeLine", "export_lines", "parse_line"]
