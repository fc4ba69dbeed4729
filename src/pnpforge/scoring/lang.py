"""A score sheet in another language: a game's score.py `JA` table applied to its texts (pnpforge.lang),
and the words the score engine itself owns.

English is what every calculator writes; Japanese comes from the optional `JA` table in the game's
score.py (English text -> Japanese, a `Phrase` looked up by its template) and, for the words no game
owns (the winner sentence, the table's headings, the engine's own rule breaks), from this module. A
text no table holds stays English. Used by the web page (`pnpforge serve`, `?lang=ja`) and
`pnpforge score --lang ja`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from pnpforge import lang as language
from pnpforge.lang import checks_table, game_title
from pnpforge.scoring.inputs import NEGATIVE, OWNED, TOO_MANY
from pnpforge.scoring.sheet import DRAW, ScoreResult
from pnpforge.validator.report import Report

# the winner sentence of `render.verdict` in Japanese
VERDICT_JA = {
    "none": "勝者なし。",
    "win": "勝者: {names}({top}点)。",
    "tiebreak": "勝者: {names}({top}点で同点、{tiebreak}で決定)。",
    "draw": "引き分け: {names}が勝利を分け合います({top}点で同点、{tried}でも差がつきませんでした)。",
    "no_tiebreak": "タイブレーク",
}

# the headings of `render.text` in Japanese
SHEET_JA = {
    "score sheet": "得点表",
    "player": "プレイヤー",
    "total": "合計",
    "not scored": "{count}件のルール違反。得点は計算していません",
}

# the questions of `pnpforge score GAME --interactive` (scoring/prompts.py `WORDS`) in Japanese
INTERVIEW_JA = {
    "intro": "{title}の得点を計算します。各ルールは最初の質問で示します。",
    "players": "プレイヤー数({low}-{high})",
    "name": "プレイヤー{number}の名前",
    "player": "プレイヤー {number}",
    "numbers": "{size}個の数",
}

# the rule breaks the engine itself words (scoring/inputs.py `Rules.nonnegative`, `at_most`, `owned`);
# the game's nouns inside them come from its `JA` table
RULES_JA = {
    NEGATIVE: "{what}が{value}です。数は負にできません",
    TOO_MANY: "{what}が{value}です。このゲームで認められる{limit}を超えています",
    OWNED: "{name}の{thing}",
}


def translator(table: Mapping[str, str], lang: str) -> Callable[[str], str]:
    """A game's score text in `lang` (pnpforge.lang.translator), the engine's own rule-break sentences
    (`RULES_JA`) known to every game; a game's table may reword them."""
    return language.translator({**RULES_JA, **table}, lang)


def verdict(result: ScoreResult, lang: str, tr: Callable[[str], str]) -> str:
    """`render.verdict`'s sentence for a ScoreResult in `lang`, the tie-break named in the game's words."""
    from pnpforge.scoring import render

    if lang != "ja":
        return render.verdict(result)
    if result.verdict:
        return tr(result.verdict)
    if not result.winners:
        return VERDICT_JA["none"]
    names = "と".join(result.winners)
    top = next(p.total for p in result.players if p.name == result.winners[0])
    if result.tiebreak is None:
        return VERDICT_JA["win"].format(names=names, top=top)
    if result.tiebreak == DRAW:
        tried = "・".join(tr(t) for t in result.tried) or VERDICT_JA["no_tiebreak"]
        return VERDICT_JA["draw"].format(names=names, top=top, tried=tried)
    return VERDICT_JA["tiebreak"].format(names=names, top=top, tiebreak=tr(result.tiebreak))


def game_words(game_id: str, lang: str, checks: bool = False) -> tuple[str, Callable[[str], str]]:
    """A bundled or local game's title in `lang` (game.yaml) and its translator (score.py's `JA`; with
    `checks`, also checks.py's, for a score file's linked set-up whose violations stop the scoring)."""
    from pnpforge import games

    game = games.load(game_id)
    own = game.scorer().words() if game.score is not None else {}
    table = {**(checks_table(game_id) if checks else {}), **own}
    return game_title(game_id, lang), translator(table, lang)


def sheet_text(result: ScoreResult, lang: str) -> str:
    """`render.text` in `lang`: what `pnpforge score FILE --lang ja` prints."""
    from pnpforge.scoring import render

    if lang != "ja":
        return render.text(result)
    title, tr = game_words(result.game, lang)
    return render.text(result, tr=tr, words=SHEET_JA, said=verdict(result, lang, tr), title=title)


def report_text(report: Report, file: str, game_id: str, lang: str) -> str:
    """`render.report_text` in `lang`: rule breaks a game wrote as a `Phrase` are said in its words."""
    from pnpforge.scoring import render

    if lang != "ja":
        return render.report_text(report, file)
    _, tr = game_words(game_id, lang, checks=True)
    return render.report_text(report, file, tr=tr, words=SHEET_JA)
