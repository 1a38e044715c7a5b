"""Stage 6, publish: run the builds and replace ``site/`` atomically; assemble parts."""
