"""Stage 1, load: data files read safely into documents that know the line of every key."""
