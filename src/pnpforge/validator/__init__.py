"""Set-up checking: the report every game's checks produce, and reading set-up files."""
