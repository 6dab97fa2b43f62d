"""The ``graphmind`` command: a thin layer over the Python API."""

from graphmind.cli.main import cli, main

__all__ = ["cli", "main"]
