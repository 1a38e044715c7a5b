"""The live preview: rebuilds what an edit changed and serves the pages a build writes."""
