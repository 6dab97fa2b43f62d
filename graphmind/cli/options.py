"""Options shared by the CLI verbs."""

from __future__ import annotations

from typing import Any

import click

JSON = click.option("--json", "as_json", is_flag=True, help="Print JSON on stdout.")
MIND = click.option("--mind", "-m", required=True, help="The mind (tenant) to work in.")


class FilePath(click.Path):
    """A ``click.Path`` that refuses a name the system cannot take (a NUL, too long) as a usage
    error, one sentence and exit 2, instead of the ValueError or OSError a file call raises."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if "\x00" in str(value):
            self.fail("a file name cannot hold a NUL character", param, ctx)
        try:
            return super().convert(value, param, ctx)
        except (OSError, ValueError) as exc:
            self.fail(f"{getattr(exc, 'strerror', None) or exc}", param, ctx)
