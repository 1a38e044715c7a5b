"""Commands beside the pipeline: score a game, write a new game file, write the schemas."""
