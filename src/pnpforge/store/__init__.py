"""The database: live tables (score sheets shared by phones) and recorded plays (SQLite, sqlite3)."""
