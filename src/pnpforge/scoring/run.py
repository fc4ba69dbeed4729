"""From a score file (or interactive answers) to a `ScoreResult`, for any game with a `score.py`.

Order of checks: the file is read (syntax), the game found, the data typed by the game's `Input`
model, player names and the player count checked (all `InputError`, exit 2); then the game's
`score` applies its rules and may raise `RulesBroken` (exit 1).
"""

from __future__ import annotations

import re
import typing
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from pnpforge import catalog, games
from pnpforge.errors import InputError, Problem
from pnpforge.games import Scorer
from pnpforge.scoring.inputs import player_count, unique_names
from pnpforge.scoring.prompts import interview
from pnpforge.scoring.sheet import ScoreResult
from pnpforge.sourcefile import Source, read_yaml, validate

_UNKNOWN_KEY = re.compile(r"^unknown key '([^']+)'")


def calculator(game: catalog.GameFolder, file: str = "<command line>") -> Scorer[Any]:
    """The game's score calculator (its `GAME.score` hook); InputError naming `file` when it has none."""
    return games.of(game).scorer(file)


def title(game: catalog.GameFolder) -> str:
    name = catalog.game_info(game).get("title", game.id)
    return str(name.get("en", game.id) if isinstance(name, dict) else name)


def _keys_of(annotation: Any, into: set[str]) -> None:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
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
        rules = games.of(other)
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
                message = f"unknown key {match.group(1)!r} for {game}: it is a field of {', '.join(owners)}"
                problem = Problem(problem.file, problem.line, problem.col, message)
            problems.append(problem)
        raise InputError(problems) from None


def score_source(source: Source) -> ScoreResult:
    """Type-check, check names and the player count, then run the game's calculator."""
    game = catalog.game_of(source, "score file")
    module = calculator(game, source.file)
    data = _typed(module, source, game.id)
    names = [p.name for p in data.players]
    unique_names(source, names)
    player_count(source, len(names), catalog.players_range(game), game.id)
    result = module.score(data, source)
    result.title = result.title or title(game)
    return result


def score_file(path: str | Path) -> ScoreResult:
    return score_source(read_yaml(path))


def score_interactive(game_id: str, lang: str = "en") -> ScoreResult:
    """Ask for every number at the terminal (or from piped answers), then score as for a file;
    with `lang` "ja" the questions are asked in the game's Japanese words (scoring/lang.py)."""
    game = catalog.find_game(game_id)
    module = calculator(game)
    asked = (title(game), catalog.players_range(game), module.fields)
    if lang == "en":
        data = interview(game.id, *asked)
    else:
        from pnpforge.scoring import lang as language

        name, tr = language.game_words(game.id, lang)
        data = interview(game.id, name, *asked[1:], tr=tr, words=language.INTERVIEW_JA)
    return score_source(Source("<interactive>", data, {(): (0, 0)}))  # no line numbers to show
