"""Drawing one side of one piece: outlines (shapes), face elements (faces), text layout, icons."""
