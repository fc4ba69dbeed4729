"""CLI commands for the check job."""

from __future__ import annotations

import click

COMMANDS: list[click.Command] = []
