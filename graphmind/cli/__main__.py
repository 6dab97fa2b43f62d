"""``python -m graphmind.cli``."""

from graphmind.cli.main import entry_point

entry_point()
