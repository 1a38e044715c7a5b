"""The preview installs no offline worker (the published site's service worker).

A built site registers ``sw.js`` at each language's root, and the worker stores pages for
reading offline. In the preview that is harmful: the worker would be installed into the
editor's browser under the scope the published site has too (``http://127.0.0.1:8000/``, where
``python3 -m http.server -d site`` serves a build), and would answer later visits with stored
pages instead of the ones just rebuilt. So the preview server answers the worker's file with 404
(the page's registration fails quietly, as in a browser without workers), and every page it
sends removes a worker a built site may have left in that browser, reloading once if one was
answering for the page. Offline reading is tested on a built site (tests/test_offline_browser.py).
"""

from __future__ import annotations

import posixpath

WORKER_FILE = "sw.js"
"""The worker's file name at each language's root (``engine/offline.py``)."""

UNREGISTER_SCRIPT = b"""<script>
(function () {
  if (!("serviceWorker" in navigator)) return;
  var controlled = !!navigator.serviceWorker.controller;
  navigator.serviceWorker.getRegistrations().then(function (registrations) {
    return Promise.all(registrations.map(function (r) { return r.unregister(); }));
  }).then(function (done) {
    // A page a worker answered may be a stored copy: fetch it again, once, from the preview.
    if (controlled && done.length && !sessionStorage.getItem("rulesite-unregistered")) {
      sessionStorage.setItem("rulesite-unregistered", "1");
      location.reload();
    }
  }).catch(function () {});
})();
</script>"""
"""Added to every preview page: unregister whatever worker this origin has."""


def is_worker(url_path: str) -> bool:
    """Whether a request asks for the offline worker (``/sw.js``, ``/en/sw.js``)."""
    return posixpath.basename(url_path) == WORKER_FILE
