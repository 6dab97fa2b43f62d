"""Options shared by the CLI verbs."""

from __future__ import annotations

import click

JSON = click.option("--json", "as_json", is_flag=True, help="Print JSON on stdout.")
MIND = click.option("--mind", "-m", required=True, help="The mind (tenant) to work in.")
