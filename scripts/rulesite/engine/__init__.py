"""Stage 5, engine: one MkDocs project per language, the plugin, search split, offline."""
