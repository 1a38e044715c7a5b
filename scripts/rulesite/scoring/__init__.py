"""End-game scoring: a small safe expression language and the scoring engine.

The browser calculator (``templates/theme/assets/calculator.js``) walks the same parsed trees
with the same rules; the worked examples in the data run through both.
"""
