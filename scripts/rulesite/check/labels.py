"""Interface wording: the label keys the templates and the calculator use, and their placeholders.

Labels live in ``data/site.yaml`` (``labels:``), so they are data: an editor's text, not code.
A label is one line of Markdown in each language with ``{name}`` placeholders, and it may use
only the placeholders its key lists here (the values the templates supply). Anything else in
braces is an error at validation, with its file and line, instead of a crash or a leak at build.

A label that counts something (``{count} rulings``) may have a singular twin, the same key with
``_singular`` after it (``{count} ruling``), which the pages use when the count is one; its
placeholders are its base's. Chinese, with no plural, gives both the same text.
"""

from __future__ import annotations

import difflib
import re

from rulesite.errors import Document, KeyPath, Problem
from rulesite.model import Text, and_list

LABEL_PLACEHOLDERS: dict[str, frozenset[str]] = {
    "title_quoted": frozenset({"title"}),
    "page_overview": frozenset(),
    "page_rules": frozenset(),
    "page_faq": frozenset(),
    "page_games": frozenset(),
    "game_pages": frozenset(),
    "rules_title": frozenset({"title"}),
    "faq_title": frozenset({"title"}),
    "games_intro": frozenset({"count"}),
    "home_games": frozenset(),
    "col_game": frozenset(),
    "col_players": frozenset(),
    "col_minutes": frozenset(),
    "col_weight": frozenset(),
    "card_heading": frozenset(),
    "card_rank": frozenset(),
    "card_weight": frozenset(),
    "card_best": frozenset(),
    "card_players": frozenset(),
    "card_time": frozenset(),
    "card_mechanics": frozenset(),
    "card_edition": frozenset(),
    "card_online": frozenset({"platform"}),
    "card_year": frozenset(),
    "card_age": frozenset(),
    "card_snapshot": frozenset(),
    "card_verified": frozenset({"date"}),
    "card_bgg_link": frozenset(),
    "age_value": frozenset({"age"}),
    "edition_unconfirmed": frozenset(),
    "edition_published": frozenset(),
    "edition_announced": frozenset(),
    "edition_none": frozenset(),
    "online_unconfirmed": frozenset({"platform"}),
    "online_available": frozenset({"platform"}),
    "online_unavailable": frozenset({"platform"}),
    "summary_line": frozenset({"players", "time", "weight"}),
    "background_heading": frozenset(),
    "decisions_heading": frozenset(),
    "decision_players_q": frozenset({"title"}),
    "decision_players_a": frozenset({"best", "players", "time", "title"}),
    "decision_online_unconfirmed": frozenset({"platform"}),
    "decision_online_available": frozenset({"platform"}),
    "decision_online_unavailable": frozenset({"platform"}),
    "decision_special_modes": frozenset({"mechanics"}),
    "decision_complexity_q": frozenset({"title"}),
    "decision_complexity_a": frozenset({"edition", "mechanics", "weight"}),
    "decision_learn_q": frozenset({"title"}),
    "decision_learn_none": frozenset({"platform"}),
    "decision_learn_some": frozenset(),
    "learning_rules": frozenset(),
    "learning_strategy": frozenset(),
    "learning_online": frozenset(),
    "sources_heading": frozenset(),
    "edition_label": frozenset(),
    "excludes_label": frozenset(),
    "notes_label": frozenset(),
    "sources_label": frozenset(),
    "source_background": frozenset(),
    "source_version": frozenset({"version"}),
    "source_reference": frozenset(),
    "source_rules": frozenset(),
    "source_faq": frozenset(),
    "source_errata": frozenset(),
    "source_community": frozenset(),
    "source_ruling": frozenset(),
    "cite_source": frozenset(),
    "cite_sources": frozenset(),
    "cite_where": frozenset({"source", "where"}),
    "cite_join": frozenset(),
    "cite_verified": frozenset({"date"}),
    "cite_unrecorded": frozenset(),
    "stale_flag": frozenset({"days"}),
    "source_issued": frozenset({"date"}),
    "rules_lead": frozenset({"edition"}),
    "rules_see_faq": frozenset(),
    "setup_players": frozenset(),
    "setup_yes": frozenset(),
    "setup_no": frozenset(),
    "faq_lead": frozenset({"count"}),
    "faq_lead_singular": frozenset({"count"}),
    "faq_topics": frozenset(),
    "faq_see_rules": frozenset(),
    "page_score": frozenset(),
    "score_title": frozenset({"title"}),
    "score_lead": frozenset(),
    "score_open": frozenset(),
    "calc_rules_link": frozenset(),
    "calc_examples": frozenset(),
    "calc_try": frozenset(),
    "calc_noscript": frozenset(),
    "calc_players": frozenset(),
    "calc_player_default": frozenset({"n"}),
    "calc_name_label": frozenset({"n"}),
    "calc_field_label": frozenset({"field", "player"}),
    "calc_field": frozenset(),
    "calc_breakdown": frozenset(),
    "calc_total": frozenset(),
    "calc_rank": frozenset(),
    "calc_winner": frozenset(),
    "calc_winner_line": frozenset({"names"}),
    "calc_tie_broken": frozenset({"by"}),
    "calc_then": frozenset(),
    "calc_tie_shared": frozenset({"names"}),
    "calc_tie_undecided": frozenset({"names"}),
    "calc_list_join": frozenset(),
    "calc_invalid": frozenset({"field", "max", "min"}),
    "calc_duplicate": frozenset({"field"}),
    "calc_fix_first": frozenset(),
    "calc_reset": frozenset(),
    "calc_reset_confirm": frozenset(),
    "calc_share": frozenset(),
    "calc_copied": frozenset(),
    "calc_copy_manual": frozenset(),
    "calc_state_ignored": frozenset(),
    "calc_sign": frozenset({"field"}),
    "calc_helpers": frozenset(),
    "calc_only_one": frozenset({"field"}),
    "calc_shared_notice": frozenset(),
    "calc_keep_shared": frozenset(),
    "calc_back_to_mine": frozenset(),
    "calc_example_confirm": frozenset(),
    "calc_help_toggle": frozenset({"field"}),
    "colon": frozenset(),
    "page_home": frozenset(),
    # The glossary (rules page section and site-wide page)
    "glossary_heading": frozenset(),
    "glossary_aliases": frozenset(),
    "glossary_rules": frozenset(),
    "page_glossary": frozenset(),
    "glossary_intro": frozenset({"count"}),
    # Jump lists, the topic index, the games index's filters, the ¶ share links
    "jump_label": frozenset(),
    "jump_sections": frozenset({"count"}),
    "jump_sections_singular": frozenset({"count"}),
    "jump_questions": frozenset({"count"}),
    "jump_questions_singular": frozenset({"count"}),
    "jump_topics": frozenset({"count"}),
    "page_topics": frozenset(),
    "topics_intro": frozenset({"count", "rulings"}),
    "home_topics": frozenset(),
    "games_pages": frozenset({"title"}),
    "filter_heading": frozenset(),
    "filter_players": frozenset(),
    "filter_time": frozenset(),
    "filter_weight": frozenset(),
    "filter_mechanic": frozenset(),
    "filter_any": frozenset(),
    "filter_minutes": frozenset({"minutes"}),
    "filter_weight_max": frozenset({"weight"}),
    "filter_reset": frozenset(),
    "filter_sort_hint": frozenset(),
    "filter_shown": frozenset({"shown", "total"}),
    "filter_none": frozenset(),
    "permalink_copied": frozenset(),
    "permalink_copy_failed": frozenset(),
    "modules_label": frozenset(),
    "module_item": frozenset({"kind", "name", "scope"}),
    "module_kind_expansion": frozenset(),
    "module_kind_variant": frozenset(),
    "module_kind_mode": frozenset(),
    "module_kind_promo": frozenset(),
    "module_kind_kickstarter": frozenset(),
    "module_covered": frozenset(),
    "module_not_covered": frozenset(),
    "module_tag": frozenset({"name"}),
    "modules_filter": frozenset(),
    "modules_filter_hint": frozenset(),
    # What changed (overview) and the Atom feeds
    "changes_heading": frozenset(),
    "changes_feed": frozenset(),
    "change_kind_errata": frozenset(),
    "change_kind_clarification": frozenset(),
    "change_kind_added": frozenset(),
    "change_kind_corrected": frozenset(),
    "change_kind_verified": frozenset(),
    "change_rules": frozenset(),
    "change_faq": frozenset(),
    "change_cites": frozenset(),
    "change_cite_where": frozenset({"source", "where"}),
    "feed_title": frozenset({"site"}),
    "feed_entry_title": frozenset({"kind", "title"}),
    # The offline page (templates/theme/offline.html, via the generated config)
    "offline_title": frozenset(),
    "offline_text": frozenset(),
    "offline_retry": frozenset(),
    # Game nights remembered (calculator-history.js) and the printed score pad
    "page_history": frozenset(),
    "history_title": frozenset(),
    "history_lead": frozenset(),
    "history_noscript": frozenset(),
    "history_calculators": frozenset(),
    "hist_finish": frozenset(),
    "hist_new_game": frozenset(),
    "hist_undo": frozenset(),
    "hist_saved": frozenset({"date"}),
    "hist_already": frozenset(),
    "hist_nothing": frozenset(),
    "hist_fix_first": frozenset(),
    "hist_cleared": frozenset(),
    "hist_restored": frozenset(),
    "hist_heading": frozenset(),
    "hist_all": frozenset(),
    "hist_empty": frozenset(),
    "hist_plays": frozenset({"n"}),
    "hist_col_name": frozenset(),
    "hist_col_wins": frozenset(),
    "hist_col_plays": frozenset(),
    "hist_col_best": frozenset(),
    "hist_col_date": frozenset(),
    "hist_col_game": frozenset(),
    "hist_col_result": frozenset(),
    "hist_col_winner": frozenset(),
    "hist_best": frozenset({"date", "name", "score"}),
    "hist_no_winner": frozenset(),
    "hist_tie": frozenset({"names"}),
    "hist_list_join": frozenset(),
    "hist_by_game": frozenset(),
    "hist_by_name": frozenset(),
    "hist_every_play": frozenset(),
    "hist_export_csv": frozenset(),
    "hist_export_json": frozenset(),
    "hist_import": frozenset(),
    "hist_imported": frozenset({"added", "same"}),
    "hist_import_bad": frozenset({"reason"}),
    "hist_bad_json": frozenset(),
    "hist_bad_shape": frozenset(),
    "hist_bad_version": frozenset(),
    "hist_damaged": frozenset(),
    "hist_newer": frozenset(),
    "hist_download_raw": frozenset(),
    "hist_start_over": frozenset(),
    "hist_start_over_confirm": frozenset(),
    "hist_blocked": frozenset(),
    "hist_storage_off": frozenset(),
    "hist_csv_date": frozenset(),
    "hist_csv_game": frozenset(),
    "hist_csv_calculator": frozenset(),
    "hist_csv_player": frozenset(),
    "hist_csv_total": frozenset(),
    "hist_csv_rank": frozenset(),
    "hist_csv_winner": frozenset(),
    "pad_caption": frozenset({"title"}),
    "pad_counts": frozenset(),
    "pad_subtotal": frozenset({"items"}),
    "pad_divide": frozenset({"n"}),
    "pad_fewer": frozenset({"field"}),
    "pad_total_min": frozenset({"min"}),
    "pad_qr": frozenset(),
    # The calculator's result at a glance (issue 19)
    "calc_names": frozenset(),
    "calc_result_title": frozenset(),
    "calc_standing": frozenset({"name", "rank", "total"}),
    "calc_standing_total": frozenset({"name", "total"}),
    "calc_tie_pair": frozenset({"by", "lower", "lower_value", "total", "upper", "upper_value"}),
    "calc_tie_level": frozenset({"names", "rank", "total"}),
    "calc_solo_score": frozenset({"total"}),
    "calc_chart_title": frozenset(),
    "calc_chart_player": frozenset({"parts", "player", "total"}),
    "calc_chart_part": frozenset({"line", "value"}),
    "calc_leaves_out": frozenset(),
    # The player aid and the setup checklist on the rules page (assets/setup-checklist.js)
    "aid_label": frozenset(),
    "aid_rounds": frozenset({"count"}),
    "aid_each_round": frozenset(),
    "aid_diagram": frozenset({"phases"}),
    "aid_repeat": frozenset({"count"}),
    "aid_scoring": frozenset(),
    "aid_ties": frozenset({"by"}),
    "aid_then": frozenset(),
    "checklist_title": frozenset(),
    "checklist_players": frozenset(),
    "checklist_progress": frozenset({"done", "total"}),
    "checklist_reset": frozenset(),
    "checklist_confirm": frozenset(),
    "checklist_hint": frozenset(),
    # Saving games for offline reading (assets/offline-save.js), the print footer, feedback links
    "offline_save": frozenset(),
    "offline_saving": frozenset({"done", "total"}),
    "offline_saved": frozenset(),
    "offline_badge": frozenset(),
    "offline_failed": frozenset({"failed"}),
    "offline_save_all": frozenset(),
    "offline_saved_games": frozenset(),
    "print_address": frozenset({"url"}),
    "print_built": frozenset({"date"}),
    "feedback_ruling": frozenset(),
    # Each game's glossary page, each topic's page, the games index, search's empty state
    "glossary_game_title": frozenset({"title"}),
    "glossary_game_intro": frozenset({"count"}),
    "glossary_game_intro_singular": frozenset({"count"}),
    # count: the games (it picks the singular, "from 1 game"); terms: glossary_game_count's text.
    "glossary_index_intro": frozenset({"count", "terms"}),
    "glossary_index_intro_singular": frozenset({"count", "terms"}),
    "glossary_game_count": frozenset({"count"}),
    "glossary_game_count_singular": frozenset({"count"}),
    "jump_terms": frozenset({"count"}),
    "jump_terms_singular": frozenset({"count"}),
    "topic_title": frozenset({"topic"}),
    "topic_intro": frozenset({"count"}),
    "topic_intro_singular": frozenset({"count"}),
    "topics_index_intro": frozenset({"count", "rulings"}),
    "topics_index_intro_singular": frozenset({"count", "rulings"}),
    "topic_count": frozenset({"count"}),
    "topic_count_singular": frozenset({"count"}),
    "home_all_games": frozenset({"count"}),
    "filter_have_minutes": frozenset({"minutes"}),
    "filter_have_hours": frozenset({"hours"}),
    "filter_best": frozenset(),
    "games_plain_intro": frozenset(),
    "search_empty_hint": frozenset(),
    "topic_parts": frozenset(),
    # Not words: the locale (BCP 47) the games index sorts names by (Chinese: by pinyin)
    "sort_locale": frozenset(),
}
"""Every label key, with the placeholders its text may use."""

SINGULAR = "_singular"
"""What a label key's singular twin adds to it: used when the label's ``count`` is one."""

_PLACEHOLDER = re.compile(r"\{([a-z_]+)\}")


def placeholders(text: str) -> list[str]:
    """The placeholder names in a label text, in order."""
    return _PLACEHOLDER.findall(text)


def check_labels(
    labels: dict[str, Text], doc: Document, languages: tuple[str, ...]
) -> list[Problem]:
    """Every label key known and present; only the key's own placeholders; no stray braces.

    ``languages`` are the site's language codes; a language a label lacks is reported with the
    other texts' missing languages (``catalog.py``)."""
    problems: list[Problem] = []
    for key, text in labels.items():
        allowed = LABEL_PLACEHOLDERS.get(key)
        if allowed is None:
            problems.append(doc.problem(("labels", key), _unknown_key(key)))
            continue
        for lang in languages:
            if lang in text.languages():
                problems.extend(_check_text(text.get(lang), allowed, doc, ("labels", key, lang)))
    every = and_list(languages)
    for key in sorted(set(LABEL_PLACEHOLDERS) - set(labels)):
        problems.append(doc.problem(("labels",), f"missing label {key!r} ({every})"))
    return problems


def _unknown_key(key: str) -> str:
    close = difflib.get_close_matches(key, LABEL_PLACEHOLDERS, n=1)
    hint = f"did you mean {close[0]!r}?" if close else "see scripts/rulesite/check/labels.py"
    return f"unknown label {key!r}; no template uses it ({hint})"


def _check_text(text: str, allowed: frozenset[str], doc: Document, path: KeyPath) -> list[Problem]:
    problems = []
    usable = ", ".join(f"{{{name}}}" for name in sorted(allowed)) or "none"
    for name in placeholders(text):
        if name not in allowed:
            message = f"unknown placeholder {{{name}}} (this label can use: {usable})"
            problems.append(doc.problem(path, message))
    stray = _STRAY_BRACES.search(_PLACEHOLDER.sub("", text))
    if stray:
        message = (
            f"{stray.group(0)!r} is not a placeholder: braces only surround a name "
            f"(this label can use: {usable})"
        )
        problems.append(doc.problem(path, message))
    return problems


_STRAY_BRACES = re.compile(r"\{[^{}]{0,40}\}?|\}")
