"""CLI commands for the score job."""

from __future__ import annotations

import click

COMMANDS: list[click.Command] = []
