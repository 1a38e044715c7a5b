// rulesite scoring calculator, the page: finds the calculators on a score page and starts each.
//
// Each .rs-calc element gets a view (calculator.js, window.RulesiteCalculator, over the sheet of
// calculator-state.js); the worked examples listed under it get a "Try it" button, and the
// theme's "Skip to content" link is pointed at the first sheet.
(function () {
  "use strict";

  var button = window.RulesiteSheet.button;

  // On a score page the content a keyboard reader skips to is the sheet: the theme's "Skip to
  // content" link is pointed at the first calculator's table, one Tab from its first cell.
  function skipToSheet(calc) {
    var skip = document.querySelector("a.md-skip");
    if (!skip || document.querySelector("[data-rs-skip-target]")) return;
    calc.table.id = "rs-sheet-" + calc.id;
    calc.table.setAttribute("tabindex", "-1");
    calc.table.setAttribute("data-rs-skip-target", "");
    skip.setAttribute("href", "#" + calc.table.id);
  }

  // Each worked example under the calculator gets a "Try it" button that loads it.
  function offerExamples(calc, root) {
    var list = document.querySelector('.rs-calc__examples[data-calculator="' + calc.id + '"] ul');
    if (!list) return;
    Array.prototype.forEach.call(list.children, function (item, i) {
      var example = calc.data.examples[i];
      if (!example) return;
      var tryIt = button({ type: "button", "class": "rs-calc__try", "data-example": example.id }, calc.ui.try, function () {
        if (calc.load(example)) root.scrollIntoView({ block: "start" });
      });
      item.appendChild(document.createTextNode(" "));
      item.appendChild(tryIt);
    });
  }

  function start() {
    document.querySelectorAll(".rs-calc[data-calculator]").forEach(function (root) {
      if (root.rsCalculator) return;
      // The model travels in a data attribute (not a <script>), so pages carry no inline script.
      var calc = new window.RulesiteCalculator(root, JSON.parse(root.getAttribute("data-model")));
      root.rsCalculator = calc;
      skipToSheet(calc);
      offerExamples(calc, root);
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
