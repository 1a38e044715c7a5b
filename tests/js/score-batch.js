// Scores a batch of games with the page's engine: `node tests/js/score-batch.js FILE` reads
// {"models": {...}, "cases": [{"model", "players", "settings"}]} and prints the results and
// conflicts as JSON, in order. tests/test_scoring_vectors.py compares them with Python's.
"use strict";

const fs = require("node:fs");
const path = require("node:path");

const engine = require(path.resolve(__dirname, "..", "..", "templates", "theme", "assets", "scoring-engine.js"));
const batch = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const out = batch.cases.map((item) => {
  const model = batch.models[item.model];
  return {
    result: engine.score(model, item.players, item.settings),
    conflicts: engine.conflicts(model, item.players),
  };
});
process.stdout.write(JSON.stringify(out));
