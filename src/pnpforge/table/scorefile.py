"""From a score file (or interactive answers) to a `ScoreResult`, for any game with a `Scorer` hook.

Order of checks: the file is read (syntax), the game found, the data typed by the game's `Input`
model, player names and the player count checked (all `InputError`, exit 2); then the game's
`score` applies its rules and may raise `RulesBroken` (exit 1).
"""

from __future__ import annotations

import re
import typing
from pathlib import Path
from typing import Any

from pnpforge import catalog, contract
from pnpforge.contract import Scorer
from pnpforge.errors import InputError, Problem
from pnpforge.i18n import N_
from pnpforge.phrase import Phrase
from pnpforge.scoring.inputs import player_count, unique_names
from pnpforge.scoring.prompts import interview
from pnpforge.scoring.sheet import ScoreResult
from pnpforge.sourcefile import Source, is_model, read_yaml, validate

_UNKNOWN_KEY = re.compile(r"^unknown key '([^']+)'")
ANOTHER_GAMES_KEY = N_("unknown key {key} for {game}: it is a field of {owners}")


def calculator(game: catalog.GameFolder, file: str = "<command line>") -> Scorer[Any]:
    """The game's score calculator (its `GAME.score` hook); InputError naming `file` when it has none."""
    return contract.of(game).scorer(file)


def title(game: catalog.GameFolder) -> str:
    name = catalog.game_info(game).get("title", game.id)
    return str(name.get("en", game.id) if isinstance(name, dict) else name)


def _keys_of(annotation: Any, into: set[str]) -> None:
    if is_model(annotation):
        for name, info in annotation.model_fields.items():
            into.add(info.alias or name)
            _keys_of(info.annotation, into)
        return
    for arg in typing.get_args(annotation):
        _keys_of(arg, into)


def _owners_of(key: str, game: str) -> list[str]:
    """Other games whose score files use `key`: a field pasted from the wrong game gets a clear hint."""
    owners = []
    for other in catalog.games():
        if other.id == game:
            continue
        rules = contract.of(other)
        keys: set[str] = set()
        if rules.score is not None:
            _keys_of(rules.scorer().model, keys)
        if key in keys:
            owners.append(other.id)
    return owners


def _typed(scorer: Scorer[Any], source: Source, game: str) -> Any:
    try:
        return validate(scorer.model, source)
    except InputError as error:
        problems = []
        for problem in error.problems:
            match = _UNKNOWN_KEY.match(problem.message)
            owners = _owners_of(match.group(1), game) if match else []
            if match and owners:
                message = Phrase(ANOTHER_GAMES_KEY, key=repr(match.group(1)), game=game, owners=owners)
                problem = Problem(problem.file, problem.line, problem.col, message)
            problems.append(problem)
        raise InputError(problems) from None


def score_source(source: Source) -> ScoreResult:
    """Type-check, check names and the player count, then run the game's calculator."""
    game = catalog.game_of(source, "score file")
    module = calculator(game, source.file)
    with contract.of(game).speaking():  # the game's own input problems are said in its words
        data = _typed(module, source, game.id)
        names = [p.name for p in data.players]
        unique_names(source, names)
        player_count(source, len(names), catalog.players_range(game), game.id)
        result = module.score(data, source)
    result.title = result.title or title(game)
    return result


def score_file(path: str | Path) -> ScoreResult:
    return score_source(read_yaml(path, "score"))


def sheet_text(result: ScoreResult, lang: str) -> str:
    """The sheet as `pnpforge score FILE --lang LANG` prints it: in the game's words, titled with the
    game's name in `lang` (game.yaml)."""
    from pnpforge.scoring import render

    if lang == "en":
        return render.text(result)
    game = contract.load(result.game)
    return render.text(result, game.translator(lang), title=game.title(lang))


def score_interactive(game_id: str, lang: str = "en") -> ScoreResult:
    """Ask for every number at the terminal (or from piped answers), then score as for a file;
    the questions are asked in `lang`, in the game's own words (its catalog domain)."""
    game = catalog.find_game(game_id)
    module = calculator(game)
    rules = contract.of(game)
    asked = (rules.title(lang), catalog.players_range(game), module.fields)
    data = interview(game.id, *asked, tr=rules.translator(lang))
    return score_source(Source("<interactive>", data, {(): (0, 0)}))  # no line numbers to show
