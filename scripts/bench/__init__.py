"""The benchmark's parts: generated projects (``corpus``) and what is timed (``measure``).

Run it with ``scripts/benchmark.py``; nothing here is used by rulesite itself.
"""
