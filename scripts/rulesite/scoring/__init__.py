"""End-game scoring, a layer of its own under validation and rendering.

``expr`` parses the formula language (once per text), ``compiler`` turns a calculator record
into the compiled model (``schema.py``), ``check`` and ``bounds`` validate it, ``engine``
scores it. ``templates/theme/assets/scoring-engine.js`` is the same engine for the page and for
Node; the shared vectors (``tests/data/scoring-vectors.json``) hold both to the same results. What
each kind of line does is declared once, in ``rulesite/model/lines/`` (and ``scoring-lines.js``).
"""
