// rulesite scoring line kinds: JavaScript's half of each kind of line, one entry per kind.
//
// Python's half of a kind (its record, compile step, checks, bounds, schema and vectors) is one
// module of scripts/rulesite/model/lines/; this table is the rest: how the page scores a line of
// that kind. scoring-engine.js reads it and names no kind. An entry:
//   evaluate(term, amounts, envs) -> each player's points, where amounts holds the kind's
//     formula (term.tree) for each player, or null for a kind without one, and envs each
//     player's names so far (objects without a prototype);
//   names(term) -> the names the line reads besides its trees (optional: none).
// No DOM, no eval; in Node, module.exports; on a page, window.RulesiteLines (loaded before
// scoring-engine.js). tests/js/scoring-engine.test.js holds it to the shared vectors and to the
// Python table's list of kinds.
(function (root, factory) {
  "use strict";
  var lines = factory();
  if (typeof module === "object" && module.exports) module.exports = lines;
  else root.RulesiteLines = lines;
})(typeof self !== "undefined" ? self : this, function () {
  "use strict";

  function add(x, y) { return x + y; }

  function awardPoints(tables, count) {
    for (var i = 0; i < tables.length; i++) {
      if (tables[i].players[0] <= count && count <= tables[i].players[1]) return tables[i].points;
    }
    return [];
  }

  // Tied players use up the places they occupy; `tie` says what they score (split, full, none).
  function rankAwards(amounts, points, tie, atLeast) {
    var qualifies = function (a) { return atLeast === undefined || atLeast === null || a >= atLeast; };
    var qualified = amounts.filter(qualifies);
    return amounts.map(function (mine) {
      if (!qualifies(mine)) return 0;
      var place = qualified.filter(function (o) { return o > mine; }).length;
      var tied = qualified.filter(function (o) { return o === mine; }).length;
      var occupied = [];
      for (var p = place; p < place + tied; p++) occupied.push(p < points.length ? points[p] : 0);
      if (tied === 1) return occupied[0];
      if (tie === "split") return Math.floor(occupied.reduce(add, 0) / tied);
      if (tie === "full") return occupied[0];
      return 0;
    });
  }

  function tablePoints(rows, value) {
    var points = 0;
    for (var i = 0; i < rows.length && value >= rows[i].at_least; i++) points = rows[i].points;
    return points;
  }

  // Kinds ranked from most to least collected by everyone; equal totals by rarer_on_tie.
  function rarityPoints(term, envs) {
    var totals = Object.create(null);
    term.kinds.forEach(function (k) {
      totals[k] = envs.reduce(function (sum, env) { return sum + env[k]; }, 0);
    });
    var rarest = term.rarer_on_tie;
    var common = term.kinds.slice().sort(function (x, y) {
      return (totals[y] - totals[x]) || (rarest.indexOf(y) - rarest.indexOf(x));
    });
    var value = Object.create(null);
    common.forEach(function (k, i) { value[k] = term.values[i]; });
    return envs.map(function (env) {
      return term.kinds.reduce(function (sum, k) { return sum + env[k] * value[k]; }, 0);
    });
  }

  var kinds = Object.create(null);
  kinds.formula = { evaluate: function (term, amounts) { return amounts; } };
  kinds.fewer = {
    evaluate: function (term, amounts) {
      return amounts.map(function (mine) { return amounts.filter(function (o) { return o < mine; }).length; });
    }
  };
  kinds.rank = {
    evaluate: function (term, amounts, envs) {
      return rankAwards(amounts, awardPoints(term.awards, envs.length), term.tie, term.at_least);
    }
  };
  kinds.rarity = {
    evaluate: function (term, amounts, envs) { return rarityPoints(term, envs); },
    names: function (term) { return term.kinds.slice(); }
  };
  kinds.table = {
    evaluate: function (term, amounts) {
      return amounts.map(function (a) { return tablePoints(term.rows, a); });
    }
  };

  return { kinds: kinds, rankAwards: rankAwards, tablePoints: tablePoints };
});
