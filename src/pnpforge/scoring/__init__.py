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
`words` (optional; score.py's `JA: dict[str, str]`)
    English text of the sheet (labels, rules, choice values, breakdown keys, tie-breaks, notes,
    table titles and columns) -> the game's Japanese words; a `Phrase` (a sentence with numbers
    or names inside) is looked up by its template, e.g. `"{name} has {money}": "{name}は{money}金"`.
    Read by the web page's Japanese sheet and `pnpforge score --lang ja` (scoring/lang.py). Rule
    breaks are Phrases too: `Rules.nonnegative` / `Rules.at_most` word their sentence themselves
    (said in Japanese once, in scoring/lang.py); give them `owned(name, thing)` or a noun, and
    put only the nouns in `JA`.
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
