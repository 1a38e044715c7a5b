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
  // Material's search overlay is a dialog without a name; screen readers announce it unnamed.
  // Name it after its own search field (already translated by the theme).
  var search = document.querySelector(".md-search[role=dialog]");
  var field = document.querySelector(".md-search__input");
  if (search && field && !search.hasAttribute("aria-label")) {
    search.setAttribute("aria-label", field.getAttribute("aria-label") || field.placeholder);
  }

  document.addEventListener("click", carryHash, true);
  document.addEventListener("auxclick", carryHash, true);
  document.addEventListener("focusin", carryHash, true);
})();
// rulesite: an old link to a renamed ruling (its earlier id, kept as an anchor inside the
// ruling) lands on the ruling's heading, and the address shows the current id.
(function () {
  "use strict";
  function followAlias() {
    var id = window.location.hash.slice(1);
    if (!id) return;
    try { id = decodeURIComponent(id); } catch (error) { return; }
    var alias = document.getElementById(id);
    var current = alias && alias.getAttribute("data-rs-alias-of");
    var heading = current && document.getElementById(current);
    if (!heading) return;
    // A fragment navigation that replaces this history entry: the heading becomes :target, so
    // the theme's scroll margin keeps it clear of the sticky header.
    window.location.replace("#" + encodeURIComponent(current));
  }
  followAlias();
  window.addEventListener("hashchange", followAlias);
})();
// rulesite: the print footer names the page's address; without a known site address the build
// leaves it empty, and the browser's own (without #fragment or ?query) fills it.
(function () {
  "use strict";
  document.querySelectorAll(".rs-print-footer__address").forEach(function (address) {
    if (!address.textContent) address.textContent = window.location.origin + window.location.pathname;
  });
})();
