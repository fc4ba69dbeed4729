"""CLI commands for the print job."""

from __future__ import annotations

import click

COMMANDS: list[click.Command] = []
