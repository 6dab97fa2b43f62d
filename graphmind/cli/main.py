"""The click group, and the one place where errors become a sentence and an exit code."""

from __future__ import annotations

import os
import sys
import traceback
import warnings
from typing import TextIO

import click

from graphmind.cli import (
    browse_cmd,
    data,
    digest_cmd,
    dream_cmd,
    forget_cmd,
    llm_cmd,
    logs,
    minds_cmd,
    model_cmd,
    neo4j_cmd,
    recall_cmd,
    ruminate_cmd,
    serve_cmd,
    wander_cmd,
)
from graphmind.cli.render import error
from graphmind.config import log_level
from graphmind.errors import GraphmindError


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="graphmind")
@click.option(
    "--log-level",
    type=click.Choice(["debug", "info", "warning", "error"]),
    default=None,
    help="Log from this level up on stderr, the Neo4j driver's lines included "
    "(default: GRAPHMIND_LOG_LEVEL, else graphmind's warnings only).",
)
@click.option("-v", "--verbose", is_flag=True, help="The same as --log-level info.")
def cli(log_level: str | None, verbose: bool) -> None:
    """graphmind: a Neo4j-backed knowledge-graph memory engine for LLM agents."""
    if log_level or verbose:
        logs.configure(log_level or "info")


cli.add_command(neo4j_cmd.neo4j)
cli.add_command(llm_cmd.llm)
cli.add_command(minds_cmd.minds)
cli.add_command(model_cmd.model)
cli.add_command(ruminate_cmd.ruminate)
for command in (
    *data.COMMANDS,
    *recall_cmd.COMMANDS,
    *dream_cmd.COMMANDS,
    *digest_cmd.COMMANDS,
    *forget_cmd.COMMANDS,
    *wander_cmd.COMMANDS,
    *serve_cmd.COMMANDS,
    *browse_cmd.COMMANDS,
):
    cli.add_command(command)


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; return the exit code (0 ok, 1 run failed, 2 bad input or usage)."""
    args = sys.argv[1:] if argv is None else argv
    as_json = "--json" in args
    try:
        logs.configure(log_level())
        with warnings.catch_warnings():
            warnings.showwarning = _warning_line
            code = cli.main(args=args, prog_name="graphmind", standalone_mode=False)
        return code if isinstance(code, int) else 0  # ctx.exit(n) in a command (verify: 1 when failed)
    except click.exceptions.Exit as exc:
        return exc.exit_code
    except click.exceptions.NoArgsIsHelpError as exc:  # bare 'graphmind': the help, as --help shows it
        click.echo(exc.ctx.get_help())
        return 0
    except click.ClickException as exc:
        error(exc.format_message(), as_json)
        return 2 if isinstance(exc, click.UsageError | click.BadParameter) else exc.exit_code
    except click.Abort:
        error("aborted", as_json)
        return 1
    except GraphmindError as exc:
        error(str(exc), as_json)
        return exc.exit_code
    except KeyboardInterrupt:
        error("interrupted", as_json)
        return 130
    except Exception as exc:
        if os.environ.get("GRAPHMIND_DEBUG"):
            traceback.print_exc()
        error(f"internal error ({type(exc).__name__}: {exc}); set GRAPHMIND_DEBUG=1 for details", as_json)
        return 1


def _warning_line(
    message: Warning | str,
    category: type[Warning],
    filename: str,
    lineno: int,
    file: TextIO | None = None,
    line: str | None = None,
) -> None:
    """A warning as one line on stderr, without the source path and line Python adds."""
    click.echo(f"graphmind: warning: {' '.join(str(message).split())}", err=True)


def entry_point() -> None:
    sys.exit(main())
