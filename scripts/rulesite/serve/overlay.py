"""The preview's error overlay: what `rulesite validate` would say, over the last good page.

When a save makes the data invalid (broken YAML, a failed check) or a build fails, the preview
keeps its last good pages and the terminal lists the problems. An editor looking at the browser
would not know: so every page the preview sends while problems stand carries an overlay with
every message (``file:line: key.path: message``), and the next good save, which reloads the page,
takes it away. The overlay is added to the page as it is sent, never to the files a build wrote.

The messages are data an editor wrote (a key, a value): they are escaped, never inserted as
HTML, and the overlay's script only hides it (no handler in the markup).
"""

from __future__ import annotations

import html
import threading

OVERLAY_ID = "rulesite-errors"
"""The overlay element's id (tests and the dismiss button find it by it)."""

_HEADING = (
    "数据有错误：预览显示的是上次正确的页面。",
    "The data has errors: the preview shows the last good pages.",
)
"""The overlay's heading, in the site's two first languages: an editor of either reads it."""

_STYLE = """<style>
#rulesite-errors{position:fixed;inset:0 0 auto 0;z-index:10000;max-height:70vh;overflow:auto;
margin:0;padding:1rem 1.25rem;background:#fff5f5;color:#3b0a0a;border-bottom:4px solid #b3261e;
box-shadow:0 4px 16px rgba(0,0,0,.35);font:14px/1.5 system-ui,sans-serif}
#rulesite-errors h2{margin:0 0 .5rem;font-size:16px;color:#8c1d18}
#rulesite-errors ol{margin:0;padding-left:1.5rem;font:13px/1.45 ui-monospace,monospace;
white-space:pre-wrap;word-break:break-word}
#rulesite-errors button{float:right;margin-left:1rem;padding:.25rem .75rem;font:inherit;
background:#fff;color:#3b0a0a;border:1px solid #8c1d18;border-radius:4px;cursor:pointer}
</style>"""

_SCRIPT = """<script>
document.getElementById("rulesite-errors-close").addEventListener("click", function () {
  document.getElementById("rulesite-errors").hidden = true;
});
</script>"""


class Problems:
    """The problems of the preview's last rebuild (none after a good one), shared between the
    rebuilding thread and the server's."""

    def __init__(self) -> None:
        self._lines: tuple[str, ...] = ()
        self._lock = threading.Lock()

    @property
    def lines(self) -> tuple[str, ...]:
        with self._lock:
            return self._lines

    def set(self, lines: list[str] | tuple[str, ...]) -> None:
        with self._lock:
            self._lines = tuple(lines)

    def clear(self) -> None:
        self.set(())

    def overlay(self) -> bytes:
        """The overlay to add to a page, or nothing while the data is good."""
        return overlay_html(self.lines).encode("utf-8")


def overlay_html(lines: tuple[str, ...] | list[str]) -> str:
    """The overlay for ``lines`` (the messages as the terminal prints them); "" for none."""
    if not lines:
        return ""
    items = "".join(f"<li>{html.escape(line)}</li>" for line in lines)
    heading = "<br>".join(html.escape(text) for text in _HEADING)
    count = f"{len(lines)} problem{'s' if len(lines) != 1 else ''}"
    return (
        f'{_STYLE}<section id="{OVERLAY_ID}" role="alert" aria-labelledby="{OVERLAY_ID}-title">'
        f'<button type="button" id="{OVERLAY_ID}-close">关闭 · Close</button>'
        f'<h2 id="{OVERLAY_ID}-title">{heading} ({count})</h2><ol>{items}</ol></section>{_SCRIPT}'
    )
