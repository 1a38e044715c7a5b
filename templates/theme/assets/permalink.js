// rulesite: the ¶ next to a heading copies the link to that heading, so a player can send a
// friend the ruling they are looking at. The link itself still works as before (the address bar
// shows it, and it is what a reader without JavaScript gets); copying comes on top, with a
// visible, announced confirmation. The page supplies the wording in its own language
// (.rs-share, written by the page template); text is only ever set with textContent.
(function () {
  "use strict";
  var words = document.querySelector(".rs-share");
  if (!words) return;

  // A status region that exists before anything is said in it, so screen readers announce it.
  var toast = document.createElement("p");
  toast.className = "rs-toast";
  toast.setAttribute("role", "status");
  toast.setAttribute("aria-live", "polite");
  document.body.appendChild(toast);
  var timer = null;

  function say(text) {
    toast.textContent = text || "";
    toast.classList.add("rs-toast--shown");
    window.clearTimeout(timer);
    timer = window.setTimeout(function () {
      toast.classList.remove("rs-toast--shown");
    }, 4000);
  }

  function copy(url) {
    if (!navigator.clipboard || !navigator.clipboard.writeText) {
      say(words.getAttribute("data-failed"));
      return;
    }
    navigator.clipboard.writeText(url).then(
      function () { say(words.getAttribute("data-copied")); },
      function () { say(words.getAttribute("data-failed")); }
    );
  }

  document.addEventListener("click", function (event) {
    var link = event.target.closest ? event.target.closest(".md-content a.headerlink") : null;
    // A modified click (new tab, new window) is the reader's own choice: leave it alone.
    if (!link || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) {
      return;
    }
    copy(link.href);
  });
})();
