// rulesite scoring engine: plain JS, no DOM, no dependencies.
//
// It evaluates the compiled calculator model (scripts/rulesite/scoring/model.schema.json), the
// same JSON the Python engine (scripts/rulesite/scoring/engine.py) runs. One file of test vectors,
// tests/data/scoring-vectors.json, is run by both: by pytest and by `node --test tests/js/`.
// Formulas are JSON trees walked below; nothing is ever evaluated as code (no eval, no new
// Function). Maps keyed by names from the data are objects without a prototype, so no name can
// reach Object.prototype. Validation proves every value stays within ±(2^53 − 1), where doubles
// are exact integers and Math.floor(a / b) equals Python's a // b.
//
// What each kind of line scores is scoring-lines.js (loaded first on a page, required in Node):
// this file names no kind of line.
//
// On a page it defines window.RulesiteScore (calculator.js uses it); in Node, module.exports.
(function (root, factory) {
  "use strict";
  if (typeof module === "object" && module.exports) module.exports = factory(require("./scoring-lines.js"));
  else root.RulesiteScore = factory(root.RulesiteLines);
})(typeof self !== "undefined" ? self : this, function (lines) {
  "use strict";

  var FLOOR_TERM = "floor";
  var has = function (object, key) { return Object.prototype.hasOwnProperty.call(object, key); };

  function dict() { return Object.create(null); }

  // -0 (from -(0) or 0 * -3) prints as 0 but is not 0 to Object.is: results never carry it.
  function whole(x) { return x + 0; }

  function evaluate(tree, env) {
    if (has(tree, "n")) return tree.n;
    if (has(tree, "v")) return env[tree.v];
    var a = tree.a.map(function (child) { return evaluate(child, env); });
    switch (tree.op) {
      case "+": return a[0] + a[1];
      case "-": return a[0] - a[1];
      case "*": return a[0] * a[1];
      case "//": return Math.floor(a[0] / a[1]); // floor division, like Python's //
      case "neg": return -a[0];
      case "min": return Math.min.apply(null, a);
      case "max": return Math.max.apply(null, a);
    }
    throw new Error("unknown operation " + tree.op);
  }

  function treeNames(tree, out) {
    out = out || [];
    if (has(tree, "v")) out.push(tree.v);
    (tree.a || []).forEach(function (child) { treeNames(child, out); });
    return out;
  }

  // The names settings give formulas: <setting>_<option> is 1 for the chosen option, 0 for the
  // others; a yes/no setting is its own name, 1 for yes.
  function settingFlags(model, settings) {
    var flags = dict();
    settings = settings || {};
    model.settings.forEach(function (s) {
      var chosen = has(settings, s.id) ? settings[s.id] : s.default;
      if (s.kind === "yes_no") { flags[s.id] = chosen === true ? 1 : 0; return; }
      s.options.forEach(function (o) { flags[s.id + "_" + o] = o === chosen ? 1 : 0; });
    });
    return flags;
  }

  // What an input a player left out counts as (the model says): 0, or for a unique input such
  // as turn order the player's position, min first.
  function missingValue(spec, position) {
    return spec.missing === "position" ? spec.min + position : spec.missing;
  }

  function inputValues(model, players) {
    return players.map(function (player, position) {
      var row = dict();
      model.inputs.forEach(function (spec) {
        var given = has(player, spec.id) && player[spec.id] !== undefined && player[spec.id] !== null;
        row[spec.id] = given ? player[spec.id] : missingValue(spec, position);
      });
      return row;
    });
  }

  // Inputs whose values break a rule across players: [{input, rule, players: [indexes]}].
  function conflicts(model, players) {
    var rows = inputValues(model, players), found = [];
    model.inputs.forEach(function (spec) {
      var values = rows.map(function (row) { return row[spec.id]; });
      if (spec.unique) {
        values.forEach(function (value, i) {
          if (values.indexOf(value) !== i) return; // each value once, where it first appears
          var same = [];
          values.forEach(function (v, j) { if (v === value) same.push(j); });
          if (same.length > 1) found.push({ input: spec.id, rule: "unique", players: same });
        });
      }
      if (spec.at_most_one) {
        var holders = [];
        values.forEach(function (v, j) { if (v !== 0) holders.push(j); });
        if (holders.length > 1) found.push({ input: spec.id, rule: "at_most_one", players: holders });
      }
    });
    return found;
  }

  // Whether a line counts in this game: its player counts and its `when` (over the settings and
  // `players`, which `game` holds).
  function applies(term, game) {
    var count = game.players;
    if (term.players && !(term.players[0] <= count && count <= term.players[1])) return false;
    return !term.when || evaluate(term.when, game) !== 0;
  }

  // A line's points for each player: its formula per player, scored by its kind.
  function termValues(term, envs) {
    var kind = has(lines.kinds, term.kind) ? lines.kinds[term.kind] : null;
    if (!kind) throw new Error("unknown kind of line " + term.kind);
    var amounts = term.tree ? envs.map(function (env) { return evaluate(term.tree, env); }) : null;
    return kind.evaluate(term, amounts, envs);
  }

  function compareKeys(x, y) {
    for (var i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i] > y[i] ? 1 : -1;
    return 0;
  }

  function assign(target, source) {
    Object.keys(source).forEach(function (k) { target[k] = source[k]; });
    return target;
  }

  // Score checked input; players keep their order. The result has the shape of the Python
  // engine's Result.as_json().
  function score(model, players, settings) { return scoreExplained(model, players, settings).result; }

  // The same scoring, with what explains the ranks beside the result: each player's tie-breaker
  // values (tiebreaks[player][position], as the formula gives them, before `prefer`), so a page
  // can say which tie-breaker put one of two players with equal totals above the other.
  function scoreExplained(model, players, settings) {
    var count = players.length;
    var game = settingFlags(model, settings);
    game.players = count;
    var envs = inputValues(model, players).map(function (row) { return assign(assign(dict(), game), row); });
    var terms = dict();
    model.terms.forEach(function (t) { terms[t.id] = t; });
    var breakdowns = players.map(dict), helpers = players.map(dict);
    model.order.forEach(function (id) {
      var term = terms[id], active = applies(term, game);
      var values = active ? termValues(term, envs) : envs.map(function () { return 0; });
      envs.forEach(function (env, i) {
        var value = whole(values[i]);
        env[id] = value; // an inactive line counts as 0 in later formulas
        if (active && !term.helper) breakdowns[i][id] = value;
        else if (active && term.helper === "shown") helpers[i][id] = value;
      });
    });
    var scores = players.map(function (p, i) {
      var b = breakdowns[i], total = Object.keys(b).reduce(function (s, k) { return s + b[k]; }, 0);
      if (model.total_min !== null && total < model.total_min) {
        b[FLOOR_TERM] = model.total_min - total;
        total = model.total_min;
      }
      var name = has(p, "name") && p.name ? String(p.name) : "#" + (i + 1);
      return { name: name, total: whole(total), breakdown: plain(b), helpers: plain(helpers[i]), rank: 0 };
    });
    var tiebreaks = envs.map(function (env) {
      return model.tiebreakers.map(function (tb) { return whole(evaluate(tb.by, env)); });
    });
    var keys = scores.map(function (s, i) {
      return [s.total].concat(model.tiebreakers.map(function (tb, pos) {
        return whole((tb.prefer === "higher" ? 1 : -1) * tiebreaks[i][pos]);
      }));
    });
    scores.forEach(function (s, i) {
      s.rank = 1 + keys.filter(function (k) { return compareKeys(k, keys[i]) > 0; }).length;
    });
    var best = Math.max.apply(null, scores.map(function (s) { return s.total; }));
    var candidates = [], decidedBy = [];
    scores.forEach(function (s, i) { if (s.total === best) candidates.push(i); });
    for (var pos = 0; pos < model.tiebreakers.length && candidates.length > 1; pos++) {
      var top = Math.max.apply(null, candidates.map(function (i) { return keys[i][pos + 1]; }));
      var narrowed = candidates.filter(function (i) { return keys[i][pos + 1] === top; });
      if (narrowed.length < candidates.length) decidedBy.push(pos);
      candidates = narrowed;
    }
    var outcome = candidates.length > 1 ? model.when_tied : (decidedBy.length ? "tiebreak" : "single");
    var result = {
      players: scores,
      winners: candidates.map(function (i) { return scores[i].name; }),
      outcome: outcome,
      decided_by: decidedBy
    };
    return { result: result, tiebreaks: tiebreaks };
  }

  // Results are ordinary objects (JSON.stringify and deep equality see the same as Python).
  function plain(map) { return assign({}, map); }

  return {
    FLOOR_TERM: FLOOR_TERM,
    evaluate: evaluate,
    treeNames: treeNames,
    settingFlags: settingFlags,
    missingValue: missingValue,
    inputValues: inputValues,
    conflicts: conflicts,
    applies: applies,
    rankAwards: lines.rankAwards,
    tablePoints: lines.tablePoints,
    score: score,
    scoreExplained: scoreExplained
  };
});
