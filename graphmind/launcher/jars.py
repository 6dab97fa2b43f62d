"""Resolving the Neo4j Community and Neo4j Browser jars with Maven (cached in ~/.m2)."""

from __future__ import annotations

import shutil
import subprocess
from importlib import resources
from pathlib import Path

from graphmind.errors import LauncherError

_DONE = ".complete"


def resolve_jars(lib_dir: Path, neo4j_version: str, browser_version: str) -> Path:
    """Fill ``lib_dir`` with the runtime classpath once; later calls return at once."""
    if (lib_dir / _DONE).exists():
        return lib_dir
    mvn = shutil.which("mvn")
    if mvn is None:
        raise LauncherError("Maven ('mvn') is not on PATH; it is needed once to fetch the Neo4j jars")
    staging = lib_dir.with_name(lib_dir.name + ".partial")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    with resources.as_file(resources.files("graphmind.launcher") / "pom.xml") as pom:
        command = [
            mvn,
            "-B",
            "-q",
            "-f",
            str(pom),
            "dependency:copy-dependencies",
            f"-DoutputDirectory={staging}",
            "-DincludeScope=runtime",
            f"-Dneo4j.version={neo4j_version}",
            f"-Dneo4j.browser.version={browser_version}",
        ]
        done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        tail = (done.stdout + done.stderr).strip().splitlines()[-3:]
        raise LauncherError(f"Maven could not fetch Neo4j {neo4j_version}: {' | '.join(tail)}")
    (staging / _DONE).write_text(f"neo4j {neo4j_version}\nbrowser {browser_version}\n")
    shutil.rmtree(lib_dir, ignore_errors=True)
    staging.rename(lib_dir)
    return lib_dir
