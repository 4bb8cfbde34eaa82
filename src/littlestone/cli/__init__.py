"""The ``littlestone`` command line (typer): ldim, tree, play, learn, predict, bounds, audit, experiment, demo."""

from .main import app, main

__all__ = ["app", "main"]
