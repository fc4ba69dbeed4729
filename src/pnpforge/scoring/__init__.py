"""The score sheet engine: players, scoring items, totals, ranking with tie-breaks, and printing.

It never imports a game. A game plugs in with the `score` hook of its `GAME` (pnpforge.games), a
`Scorer` usually built from its `games/<id>/score.py`:

`model` (the score.py's `Input`)
    A pydantic model of the score file, derived from `inputs.Strict` (unknown keys are errors),
    with `game: Literal["<id>"]` and `players: list[...]` whose entries have a `name`. Use
    `inputs.Count` for counts (a non-whole number is malformed input; a negative one is left
    for the rules to refuse) and `inputs.Name` / `inputs.Flag`.
`score(input, source) -> ScoreResult`
    Check names used in other sections (`inputs.known_names`, InputError, exit 2), check the
    rules (`inputs.Rules`: stable codes, located; `Rules.done()` raises `RulesBroken`, exit 1),
    then fill a `PlayerScore` per player and build the result with `ScoreResult.ranked(...)`,
    giving the game's tie-breaks in order (`TieBreak.by(name, values)`).
`fields` (score.py's `FIELDS: list[prompts.Field]`)
    The questions `pnpforge score GAME --interactive` asks, each with its rule as help.
words (the message catalogs, pnpforge.i18n)
    Every English text of the sheet (labels, rules, choice values, breakdown keys, tie-breaks,
    notes, table titles and columns) is marked `N_("...")` in score.py (a word that arrives as data
    is listed once); a `Phrase` (a sentence with numbers or names inside) is said by its template,
    e.g. `N_("{name} has {money}")`, Japanese "{name}は{money}金" in locale/ja.po under the game's id.
    `GAME.translator(lang)` says them: the web page and `pnpforge score --lang LANG`. Rule breaks
    are Phrases too: `Rules.nonnegative` / `Rules.at_most` word their sentence themselves (the
    engine's messages); give them `owned(name, thing)` or a noun the game marks.
(The player-count range is `players` in the game's game.yaml, read by `catalog.players_range`.)

The engine (`run.score_source`) has already checked, before `score` runs: the game id, the
`Input` model, player names given once, and a player count the game allows.
"""

from pnpforge.scoring.inputs import (
    Count,
    Flag,
    Name,
    PlayerEntry,
    Rules,
    RulesBroken,
    Strict,
    known_names,
    owned,
)
from pnpforge.scoring.prompts import Field
from pnpforge.scoring.sheet import DRAW, Phrase, PlayerScore, ScoreResult, Table, TieBreak, rank

__all__ = [
    "DRAW",
    "Count",
    "Field",
    "Flag",
    "Name",
    "Phrase",
    "PlayerEntry",
    "PlayerScore",
    "Rules",
    "RulesBroken",
    "ScoreResult",
    "Strict",
    "Table",
    "TieBreak",
    "known_names",
    "owned",
    "rank",
]
