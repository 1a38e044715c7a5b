// rulesite scoring calculator, on paper: a copy of the sheet as typed, for print.
//
// Each calculator has a print block after it (.rs-print, templates/pages/_score_pad.md.j2): an
// empty score pad made at build time, and .rs-print__sheet, which this script keeps equal to the
// sheet on the screen (names, what was typed, each line's points, totals, ranks and the result
// in words, as the calculator shows them). history.css prints the copy when the sheet holds a
// number and the pad when it does not; the interactive sheet itself never prints. The copy is
// remade whenever the calculator redraws (a MutationObserver on it), so no event is needed from
// calculator.js. Every text is set with textContent.
(function () {
  "use strict";

  var el = window.RulesiteSheet.el;

  function row(head, cells, attrs) {
    var tr = el("tr", attrs);
    tr.appendChild(el("th", { scope: "row" }, head));
    cells.forEach(function (c) { tr.appendChild(el("td", {}, c)); });
    return tr;
  }

  function section(text, span) {
    var tr = el("tr", { "class": "rs-pad__section" });
    tr.appendChild(el("th", { scope: "rowgroup", colspan: String(span) }, text));
    return tr;
  }

  // The sheet as a plain table, or null when it holds no number or cannot be scored yet.
  function copyOf(calc) {
    var sheet = calc.sheet, read = sheet.read(), count = sheet.state.count, data = calc.data, ui = calc.ui;
    if (read.problems.length || !sheet.hasEntries()) return null;
    var result = sheet.score(read.players);
    var lines = calc.model.terms.filter(function (t) { return t.helper !== "hidden"; }).map(function (t) { return t.id; });
    if (calc.model.total_min !== null) lines.push(window.RulesiteScore.FLOOR_TERM);
    var standings = sheet.standings(result, lines);
    var table = el("table", { "class": "rs-pad rs-pad--filled" });
    var head = el("tr");
    head.appendChild(el("th", { scope: "col" }, ui.field));
    for (var p = 0; p < count; p++) head.appendChild(el("th", { scope: "col" }, sheet.playerName(p)));
    table.appendChild(el("thead")).appendChild(head);
    var inputs = table.appendChild(el("tbody"));
    calc.model.inputs.forEach(function (spec) {
      var values = sheet.state.values[spec.id].slice(0, count);
      if (values.some(function (v) { return v.trim() !== ""; })) {
        inputs.appendChild(row(data.inputs[spec.id].label, values, { "data-print-row": "input:" + spec.id }));
      }
    });
    var points = table.appendChild(el("tbody"));
    points.appendChild(section(ui.breakdown, count + 1));
    lines.forEach(function (id) {
      if (!standings.shown[id]) return;
      var label = id === window.RulesiteScore.FLOOR_TERM ? "≥ " + calc.model.total_min : data.terms[id];
      points.appendChild(row(label, standings.lines[id].slice(0, count), { "data-print-row": "line:" + id }));
    });
    var foot = table.appendChild(el("tfoot"));
    foot.appendChild(row(ui.total, standings.totals, { "class": "rs-pad__total", "data-print-row": "total" }));
    if (data.declareWinner) {
      foot.appendChild(row(ui.rank, standings.ranks.map(function (r) { return r.text; }), { "data-print-row": "rank" }));
    }
    var copy = document.createDocumentFragment();
    copy.appendChild(table);
    if (standings.words) copy.appendChild(el("p", { "class": "rs-print__result" }, standings.words));
    return copy;
  }

  function keep(block, calc) {
    var target = block.querySelector(".rs-print__sheet");
    if (!target) return;
    var redraw = function () {
      var copy = copyOf(calc);
      target.textContent = "";
      if (copy) target.appendChild(copy);
      block.toggleAttribute("data-filled", copy !== null);
    };
    new MutationObserver(redraw).observe(calc.root, { childList: true, subtree: true, characterData: true });
    redraw();
  }

  function start() {
    document.querySelectorAll(".rs-print[data-calculator]").forEach(function (block) {
      var root = document.querySelector('.rs-calc[data-calculator="' + block.getAttribute("data-calculator") + '"]');
      if (block.rsPrint || !root || !root.rsCalculator) return;
      block.rsPrint = true;
      keep(block, root.rsCalculator);
    });
  }

  // After calculator-page.js has started the calculators (it waits for DOMContentLoaded too).
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
