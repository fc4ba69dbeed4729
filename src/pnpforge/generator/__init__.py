"""From a spec to concrete pieces (counts × data rows × sides); dealing random set-ups."""
