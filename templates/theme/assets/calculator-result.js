// rulesite scoring calculator, the result panel: who won, every player's rank and total, and for
// each run of equal totals which tie-breaker put one player above the next (or that nothing
// separates them). Plain JS, no dependencies; it reads the engine's result as calculator.js
// shows it in the table (window.RulesiteResult). On a phone it stays at the bottom of the screen
// while the reader types (calculator.css). Names are only ever set with textContent.
(function () {
  "use strict";

  var fill = window.RulesiteSheet.fill, el = window.RulesiteSheet.el;
  var has = function (object, key) { return Object.prototype.hasOwnProperty.call(object, key); };

  // A label whose placeholders become spans (the rank, the name, the total each get a class), so
  // the wording stays the editor's while its parts can be styled.
  function fillInto(parent, template, values) {
    template.split(/\{(\w+)\}/).forEach(function (part, i) {
      if (i % 2 === 0) {
        if (part) parent.appendChild(document.createTextNode(part));
      } else if (has(values, part)) {
        parent.appendChild(el("span", { "class": "rs-calc__standing-" + part }, String(values[part])));
      } else {
        parent.appendChild(document.createTextNode("{" + part + "}"));
      }
    });
    return parent;
  }

  // Player indexes from first to last place; players on the same rank keep the columns' order.
  function byRank(players) {
    return players.map(function (p, i) { return i; }).sort(function (a, b) {
      return players[a].rank - players[b].rank || a - b;
    });
  }

  // Runs of players with the same total, in rank order; each run split into levels (players
  // that no tie-breaker separates share a rank, so a level is a run of equal ranks).
  function tiedRuns(players) {
    var runs = [];
    byRank(players).forEach(function (p) {
      var run = runs[runs.length - 1];
      if (!run || players[run[0][0]].total !== players[p].total) { runs.push([[p]]); return; }
      var level = run[run.length - 1];
      if (players[level[0]].rank === players[p].rank) level.push(p);
      else run.push([p]);
    });
    return runs.filter(function (run) { return run.length > 1 || run[0].length > 1; });
  }

  // One sentence per step of each run: "A ranks above B on <tie-breaker>", or "A, B: level".
  // tiebreaks[player][position] are the values the engine compared (scoreExplained).
  function tieLines(result, tiebreaks, labels, ui) {
    var players = result.players, lines = [];
    var name = function (p) { return players[p].name; };
    tiedRuns(players).forEach(function (run) {
      run.forEach(function (level, k) {
        var total = players[level[0]].total;
        if (k > 0) {
          var upper = run[k - 1][run[k - 1].length - 1], lower = level[0], pos = 0;
          while (pos < labels.length - 1 && tiebreaks[upper][pos] === tiebreaks[lower][pos]) pos++;
          lines.push(fill(ui.tie_pair, {
            upper: name(upper), lower: name(lower), total: total, by: labels[pos],
            upper_value: tiebreaks[upper][pos], lower_value: tiebreaks[lower][pos]
          }));
        }
        if (level.length > 1) {
          lines.push(fill(ui.tie_level, { names: level.map(name).join(ui.list_join), total: total, rank: players[level[0]].rank }));
        }
      });
    });
    return lines;
  }

  function Panel(data) {
    this.data = data;
    this.ui = data.ui;
    // A group, not a landmark: a page with two calculators would have two regions of one name.
    this.node = el("div", { "class": "rs-calc__panel", role: "group", "aria-label": this.ui.result_title });
    // Only the sentence is announced as it changes, not the whole list at every keystroke.
    this.words = el("p", { "class": "rs-calc__result", role: "status", "aria-live": "polite" });
    this.standings = el("ul", { "class": "rs-calc__standings" });
    this.ties = el("ul", { "class": "rs-calc__ties" });
    this.node.appendChild(this.words);
    this.node.appendChild(this.standings);
    this.node.appendChild(this.ties);
    this.node.hidden = true;
  }

  // Nothing to show (an empty sheet), or only a sentence (fix the marked cells first).
  Panel.prototype.blank = function (text) {
    this.words.textContent = text;
    this.standings.textContent = "";
    this.ties.textContent = "";
    this.node.hidden = !text;
  };

  // standings: calculator-state.js's words and ranks for this result (ranks[i].best: a winner).
  Panel.prototype.show = function (result, tiebreaks, standings) {
    var self = this, ui = this.ui, players = result.players;
    this.blank(standings.words);
    this.node.hidden = false;
    if (players.length === 1) return; // solo: the sentence gives the score, no ranks
    var ranked = this.data.declareWinner;
    var order = ranked ? byRank(players) : players.map(function (p, i) { return i; });
    order.forEach(function (p) {
      var item = el("li", { "class": "rs-calc__standing", "data-standing": String(p) });
      if (ranked && standings.ranks[p].best) item.classList.add("rs-calc__standing--best");
      var values = { rank: players[p].rank, name: players[p].name, total: players[p].total };
      self.standings.appendChild(fillInto(item, ranked ? ui.standing : ui.standing_total, values));
    });
    if (!ranked) return;
    tieLines(result, tiebreaks, this.data.tiebreakers, ui).forEach(function (text) {
      self.ties.appendChild(el("li", {}, text));
    });
  };

  window.RulesiteResult = { Panel: Panel, tieLines: tieLines, byRank: byRank };
})();
