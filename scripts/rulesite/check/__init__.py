"""Stage 2, check: field checks (pydantic, one record at a time), then cross checks."""
