"""Stage 4, render: pages to Markdown through Jinja (``StrictUndefined``), with a cache."""
