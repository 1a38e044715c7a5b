"""rulesite: bilingual board-game rules references built from YAML with MkDocs Material."""

__version__ = "0.1.0"
