"""From one draft of a game to the next: which piece is which (identity), what each one draws
(fingerprint), what changed between two drafts (diff), and the reprint of only those pieces."""
