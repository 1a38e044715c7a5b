// The page's scoring engine against the shared vectors (tests/data/scoring-vectors.json), which
// pytest runs through the Python engine too. `node --test tests/js/` (part of `make test`).
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const path = require("node:path");

const REPO = path.resolve(__dirname, "..", "..");
const ASSETS = path.join(REPO, "templates", "theme", "assets");
const engine = require(path.join(ASSETS, "scoring-engine.js"));
const lines = require(path.join(ASSETS, "scoring-lines.js"));
const { errors } = require("./json-schema.js");

const vectors = JSON.parse(fs.readFileSync(path.join(REPO, "tests", "data", "scoring-vectors.json"), "utf8"));
// The compiled model's schema, with one choice per kind of line (scripts/rulesite/scoring/schema.py).
const schema = vectors.schema;

// What JSON carries: the contract between the engines is JSON, where -0 is 0.
const asJson = (value) => JSON.parse(JSON.stringify(value));

test("there are vectors of every kind, and each kind Python declares is in the table here", () => {
  const kinds = new Set();
  for (const model of Object.values(vectors.models)) for (const term of model.terms) kinds.add(term.kind);
  assert.deepEqual([...kinds].sort(), [...vectors.kinds].sort());
  assert.deepEqual(Object.keys(lines.kinds).sort(), [...vectors.kinds].sort());
  for (const kind of Object.values(lines.kinds)) assert.equal(typeof kind.evaluate, "function");
  assert.ok(vectors.cases.length > 100);
});

test("every model fits the compiled-model schema", () => {
  for (const [id, model] of Object.entries(vectors.models)) {
    assert.deepEqual(errors(model, schema), [], id);
  }
});

test("the schema checker refuses what the schema forbids", () => {
  const model = asJson(Object.values(vectors.models)[0]);
  model.terms[0].kind = "dice";
  model.inputs[0].missing = "sometimes";
  delete model.order;
  assert.equal(errors(model, schema).length >= 3, true);
});

for (const item of vectors.cases) {
  test(item.name, () => {
    const model = vectors.models[item.model];
    const result = engine.score(model, item.players, item.settings);
    assert.deepStrictEqual(asJson(result), item.result);
    assert.deepStrictEqual(asJson(engine.conflicts(model, item.players)), item.conflicts);
    for (const player of result.players) {
      assert.ok(!Object.is(player.total, -0), "a total of -0");
      for (const value of Object.values(player.breakdown)) assert.ok(!Object.is(value, -0), "a line of -0");
    }
  });
}

test("the engine needs no DOM and adds no globals", () => {
  assert.equal(typeof globalThis.RulesiteScore, "undefined");
  assert.equal(typeof globalThis.document, "undefined");
});

test("names from the data never reach Object.prototype", () => {
  const env = Object.create(null);
  assert.equal(engine.evaluate({ v: "constructor" }, env), undefined);
  const values = engine.inputValues({ inputs: [{ id: "x", min: 0, max: 9, missing: 0 }] }, [{ name: "A" }]);
  assert.equal(Object.getPrototypeOf(values[0]), null);
});

test("no code from strings and no HTML from strings, in the engine or the page", () => {
  const assets = path.join(REPO, "templates", "theme", "assets");
  for (const name of fs.readdirSync(assets).filter((n) => /^(scoring|calculator).*\.js$/.test(n))) {
    const source = fs.readFileSync(path.join(assets, name), "utf8");
    for (const pattern of [/\beval\s*\(/, /new\s+Function\s*\(/, /innerHTML|outerHTML|insertAdjacentHTML|document\.write/]) {
      assert.ok(!pattern.test(source), `${name} matches ${pattern}`);
    }
  }
});
