"""pnpforge: print-and-play sheets, set-up checks and score calculators for board games."""

__version__ = "0.1.0"
