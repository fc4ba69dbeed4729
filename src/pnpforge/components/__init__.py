"""The component spec: the typed model of a game folder (game.yaml + CSV), its loading and schema."""
