"""What the score page embeds for the browser: the compiled model plus one language's words."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from rulesite.markup import inline
from rulesite.model import Calculator, Text
from rulesite.scoring.compiler import compile_calculator

UI_KEYS = (
    "calc_players", "calc_player_default", "calc_name_label", "calc_field_label", "calc_field",
    "calc_breakdown", "calc_total", "calc_rank", "calc_winner", "calc_winner_line",
    "calc_tie_broken", "calc_then", "calc_tie_shared", "calc_tie_undecided", "calc_list_join",
    "calc_invalid", "calc_duplicate", "calc_fix_first", "calc_reset", "calc_reset_confirm",
    "calc_share", "calc_copied", "calc_copy_manual", "calc_state_ignored", "calc_sign",
    "calc_try", "calc_helpers", "calc_only_one",
    "calc_shared_notice", "calc_keep_shared", "calc_back_to_mine", "calc_example_confirm",
    "calc_help_toggle",
    "calc_names", "calc_result_title", "calc_standing", "calc_standing_total", "calc_tie_pair",
    "calc_tie_level", "calc_solo_score", "calc_chart_title", "calc_chart_player",
    "calc_chart_part",
)  # fmt: skip


def plain(text: Text, lang: str) -> str:
    """A label as every other page shows it, as text: its Markdown rendered, tags dropped and
    references decoded (``&amp;`` is "&", ``&lt;b&gt;`` is "<b>"), since the page sets it as
    text, never as HTML."""
    return inline(text.get(lang)).striptags().strip()


def page_payload(calc: Calculator, lang: str, ui: Callable[[str], str]) -> dict[str, Any]:
    """Model, labels and interface words for one calculator in one language."""
    return {
        "model": compile_calculator(calc),
        "declareWinner": calc.declare_winner,
        "inputs": {
            i.id: {"label": plain(i.label, lang), "help": plain(i.help, lang), "rule": i.rule}
            for i in calc.inputs
        },
        "terms": {t.id: plain(t.label, lang) for t in calc.terms},
        "settings": {
            s.id: {
                "label": plain(s.label, lang),
                "options": {o.id: plain(o.label, lang) for o in s.options or []},
            }
            for s in calc.settings
        },
        "tiebreakers": [plain(tb.label, lang) for tb in calc.tiebreakers],
        "examples": [
            {"id": e.id, "settings": e.settings, "players": e.players} for e in calc.examples
        ],
        "ui": {key.removeprefix("calc_"): ui(key) for key in UI_KEYS},
    }


def payload_json(payload: dict[str, Any]) -> str:
    """JSON safe inside a <script> element: no "<", ">" or "&" can close it or start markup."""
    text = json.dumps(payload, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
