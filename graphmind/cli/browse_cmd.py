"""``graphmind browse --mind M``: Neo4j Browser's address and what to paste into it."""

from __future__ import annotations

from importlib import resources

import click

from graphmind.cli.options import JSON, MIND
from graphmind.cli.render import emit
from graphmind.config import Settings
from graphmind.launcher import LocalNeo4j
from graphmind.store import Catalog
from graphmind.store.minds import check_mind_name

QUERIES = {
    "browser/find_ladder": "the ladder of the mind",
    "browser/find_provenance": "why a pattern or crystal exists (:param id => '<its id>')",
    "browser/find_trace": "a wander session's trace (:param session => '<session id>')",
    "browser/find_rumination_evidence": "the latest rumination's evidence",
}


@click.command()
@MIND
@JSON
def browse(mind: str, as_json: bool) -> None:
    """Print Neo4j Browser's address, the login, graphmind's style sheet and the queries to run."""
    check_mind_name(mind)
    settings = Settings.from_env()
    style = resources.files("graphmind") / "browser" / "graphmind.grass"
    catalog = Catalog.load()
    queries = {name: catalog.get(name).text for name in QUERIES}
    if settings.neo4j_uri:
        where = f"your Neo4j's Browser (NEO4J_URI is {settings.neo4j_uri}); user {settings.neo4j_user}"
        url = None
    else:
        status = LocalNeo4j(settings).status()
        url = status.browser_url
        where = (
            f"{url} (connect to {status.uri}, username {status.user}, the password in "
            f"{status.password_file}: 'graphmind neo4j status --show-password' prints it)"
        )
    lines = [
        f"1. Open {where}.",
        f"2. Run  :param mind => '{mind}'",
        f"3. Style: drag {style} onto the Browser window (or run :style and paste its text).",
        "4. Queries:",
    ]
    for name, what in QUERIES.items():
        lines += [f"   -- {what}", *(f"   {line}" for line in queries[name].splitlines()), ""]
    emit(
        {
            "mind": mind,
            "browser_url": url,
            "style_file": str(style),
            "param": f":param mind => '{mind}'",
            "queries": [{"name": n, "purpose": w, "cypher": queries[n]} for n, w in QUERIES.items()],
        },
        as_json,
        "\n".join(lines).rstrip(),
    )


COMMANDS = (browse,)
