"""The page's own words in English and Japanese; the games' texts come from their folders.

The language is the `lang` query or form field when given, else the first of en/ja the browser's
Accept-Language names, else English.
"""

from __future__ import annotations

from collections.abc import Callable

from pnpforge import games
from pnpforge.i18n import languages

__all__ = ["LANGS", "WORDS", "pick", "said", "translator", "words"]

LANGS = languages()


def translator(game_id: str, lang: str) -> Callable[[str], str]:
    """A game's texts in `lang` (its catalog domain, then the engine's words)."""
    return games.load(game_id).translator(lang)


WORDS: dict[str, dict[str, str]] = {
    "games": {"en": "Games", "ja": "ゲーム"},
    "players": {"en": "players", "ja": "人"},
    "setup": {"en": "Set-up", "ja": "セットアップ"},
    "score": {"en": "Score", "ja": "得点"},
    "print": {"en": "Print", "ja": "印刷"},
    "player_count": {"en": "Players", "ja": "プレイヤー数"},
    "seed": {"en": "Seed (blank: random)", "ja": "シード(空欄でランダム)"},
    "options": {"en": "Options", "ja": "オプション"},
    "option_hint": {"en": "blank: the game's default", "ja": "空欄で既定値"},
    "option_default": {"en": "(the game's default)", "ja": "(既定値)"},
    "deal": {"en": "Deal", "ja": "配置を作る"},
    "dealt": {"en": "Dealt with seed", "ja": "シード"},
    "steps": {"en": "What goes where", "ja": "配置の手順"},
    "check": {"en": "Check", "ja": "チェック"},
    "setup_file": {
        "en": "Set-up file (paste, edit or upload)",
        "ja": "セットアップファイル(貼り付け・編集・アップロード)",
    },
    "upload": {"en": "or upload a file", "ja": "またはファイルを選ぶ"},
    "download": {"en": "Download", "ja": "ダウンロード"},
    "legal": {"en": "Legal set-up", "ja": "正しいセットアップです"},
    "violations": {"en": "rule violation(s)", "ja": "件のルール違反"},
    "warnings": {"en": "warning(s)", "ja": "件の警告"},
    "not_marked": {"en": "not on the picture", "ja": "図には表示されません"},
    "player": {"en": "Player", "ja": "プレイヤー"},
    "name": {"en": "Name", "ja": "名前"},
    "add_player": {"en": "+ Player", "ja": "+ プレイヤー"},
    "remove_player": {"en": "− Player", "ja": "− プレイヤー"},
    "total": {"en": "Total", "ja": "合計"},
    "place": {"en": "Place", "ja": "順位"},
    "count": {"en": "Count", "ja": "計算する"},
    "round": {"en": "Round", "ja": "ラウンド"},
    "next_round": {"en": "Next round (carry totals)", "ja": "次の決算へ(合計を持ち越す)"},
    "share": {"en": "Share", "ja": "共有"},
    "score_file": {"en": "Score file (YAML)", "ja": "得点ファイル(YAML)"},
    "table_png": {"en": "Table (PNG)", "ja": "表(PNG)"},
    "table_pdf": {"en": "Table (PDF)", "ja": "表(PDF)"},
    "load_score": {"en": "Continue from a score file", "ja": "得点ファイルから続ける"},
    "load": {"en": "Load", "ja": "読み込む"},
    "game_wide": {"en": "For the whole table", "ja": "テーブル全体"},
    "more": {"en": "More", "ja": "その他"},
    "fix": {"en": "Fix these first", "ja": "先にこれを直してください"},
    "inventory": {"en": "Components", "ja": "コンポーネント"},
    "component": {"en": "Component", "ja": "コンポーネント"},
    "pieces": {"en": "pieces", "ja": "個"},
    "sheets": {"en": "sheets", "ja": "枚"},
    "paper": {"en": "Paper", "ja": "用紙"},
    "language": {"en": "Language", "ja": "言語"},
    "duplex": {"en": "Double-sided", "ja": "両面印刷"},
    "duplex_long": {"en": "flip on long edge", "ja": "長辺とじ"},
    "duplex_short": {"en": "flip on short edge", "ja": "短辺とじ"},
    "build": {"en": "Build PDF", "ja": "PDF を作る"},
    "build_wait": {"en": "Building… one build at a time per game", "ja": "作成中…(ゲームごとに1件ずつ)"},
    "pages": {"en": "pages", "ja": "ページ"},
    "error": {"en": "Cannot use this input", "ja": "この入力は使えません"},
    "too_large": {"en": "The request is larger than", "ja": "リクエストが大きすぎます。上限"},
    "back": {"en": "All games", "ja": "ゲーム一覧"},
    "no_js": {"en": "Totals update as you type.", "ja": "入力すると合計が更新されます。"},
    "offline": {
        "en": "Offline: totals are not updating. Your numbers are kept; press Count when back online.",
        "ja": "オフラインです。合計は更新されません。入力は残っています。"
        "接続が戻ったら「計算する」を押してください。",
    },
    "whole_board": {"en": "Whole board", "ja": "盤面全体を表示"},
    "zoom_board": {"en": "Zoom in to read the labels", "ja": "拡大して文字を読む"},
    "board": {"en": "Board (scrolls)", "ja": "盤面(スクロールできます)"},
    "fill_in": {"en": "Fill in the counts to see the totals.", "ja": "数を入力すると合計が表示されます。"},
    "stopped": {
        "en": "This took longer than {seconds} s and was stopped. Try a smaller file.",
        "ja": "{seconds} 秒を超えたため中止しました。小さいファイルでお試しください。",
    },
    "build_stopped": {
        "en": "the build took longer than {seconds} s and was stopped",
        "ja": "PDF の作成が {seconds} 秒を超えたため中止しました",
    },
    "failed": {
        "en": "Something went wrong on the server; nothing was changed. Please try again.",
        "ja": "サーバーで問題が起きました。何も変更されていません。もう一度お試しください。",
    },
    "players_span": {
        "en": "{game} is played by {span} players, not {count}",
        "ja": "{game} のプレイヤー数は {span} 人です({count} 人ではありません)",
    },
    "bad_choice": {
        "en": "{key} {value!r}: expected one of {allowed}",
        "ja": "{key} {value!r}: {allowed} のいずれかを選んでください",
    },
    "no_file": {"en": "no such file", "ja": "そのファイルはありません"},
    # a component's kind in the inventory, the paper sizes and the PDF languages, as the pickers show them
    "kind:board": {"en": "board", "ja": "ボード"},
    "kind:card": {"en": "card", "ja": "カード"},
    "kind:die": {"en": "die", "ja": "ダイス"},
    "kind:sheet": {"en": "sheet", "ja": "シート"},
    "kind:tile": {"en": "tile", "ja": "タイル"},
    "kind:token": {"en": "token", "ja": "トークン"},
    "paper:a4": {"en": "a4", "ja": "A4"},
    "paper:letter": {"en": "letter", "ja": "レター"},
    "lang:en": {"en": "en", "ja": "英語"},
    "lang:ja": {"en": "ja", "ja": "日本語"},
}


def words(lang: str) -> dict[str, str]:
    return {key: texts.get(lang) or texts["en"] for key, texts in WORDS.items()}


def said(key: str, lang: str, /, **values: object) -> str:
    """One of the page's sentences in `lang`, its `{placeholders}` filled in."""
    texts = WORDS[key]
    return (texts.get(lang) or texts["en"]).format(**values)


def pick(asked: str | None, accept_language: str) -> str:
    """`asked` when it is a language the page has, else the browser's first en or ja, else English."""
    if asked in LANGS:
        return asked
    for part in accept_language.split(","):
        code = part.split(";")[0].strip().lower()[:2]
        if code in LANGS:
            return code
    return "en"
