// rulesite: two details of the theme's search results.
// - Chinese is split into words for the index with zero-width spaces (U+200B) between them;
//   the results show the index's titles and texts, so those spaces would be copied with them.
//   They are taken out of what the results show (the index, and so the search, keep them).
// - When nothing is found, the results suggest the topic index and the glossary (their
//   addresses and wording come from this script's data-* attributes, set by the theme).
(function () {
  "use strict";
  var script = document.currentScript;
  var results = document.querySelector(".md-search-result");
  var input = document.querySelector(".md-search__input");
  if (!script || !results || !input || !window.MutationObserver) return;
  var ZWSP = /\u200b/g;
  var hint = null;

  function buildHint() {
    var box = document.createElement("div");
    box.className = "rs-search-help";
    var text = document.createElement("p");
    text.textContent = script.getAttribute("data-hint") || "";
    box.appendChild(text);
    var list = document.createElement("ul");
    for (var i = 1; script.hasAttribute("data-link-" + i); i += 1) {
      var item = document.createElement("li");
      var link = document.createElement("a");
      link.setAttribute("href", script.getAttribute("data-link-" + i));
      link.textContent = script.getAttribute("data-text-" + i) || "";
      item.appendChild(link);
      list.appendChild(item);
    }
    box.appendChild(list);
    return box;
  }

  function cleanText(root) {
    var walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    var node = walker.nextNode();
    while (node) {
      if (node.nodeValue.indexOf("\u200b") !== -1) node.nodeValue = node.nodeValue.replace(ZWSP, "");
      node = walker.nextNode();
    }
  }

  function update() {
    var list = results.querySelector(".md-search-result__list");
    if (list) cleanText(list);
    var empty = input.value.trim() !== "" && (!list || list.children.length === 0);
    if (empty && !hint) {
      hint = buildHint();
      results.appendChild(hint);
    } else if (!empty && hint) {
      hint.remove();
      hint = null;
    }
  }

  // The theme fills the results as the reader types (and as more are scrolled into view).
  new MutationObserver(update).observe(results, { childList: true, subtree: true, characterData: true });
  input.addEventListener("input", function () { window.setTimeout(update, 0); });
})();
