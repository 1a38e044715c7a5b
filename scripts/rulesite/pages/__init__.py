"""Stage 3a: the page registry (``registry.py``) and what each kind's template is given."""
