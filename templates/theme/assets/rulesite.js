// rulesite: keep the reader's place when switching language.
// The language menu links each page to its translation; rulings keep their anchors across
// languages, so carry the current #anchor along (click, Enter and middle-click all pass here).
(function () {
  "use strict";
  function carryHash(event) {
    var link = event.target.closest ? event.target.closest("a.md-select__link[hreflang]") : null;
    if (!link || !window.location.hash) return;
    var url = new URL(link.href, window.location.href);
    url.hash = window.location.hash;
    link.href = url.toString();
  }
  document.addEventListener("click", carryHash, true);
  document.addEventListener("auxclick", carryHash, true);
  document.addEventListener("focusin", carryHash, true);
})();
