"""The five games and the scoring/checking engine in the pseudo-locale `xx`: nothing reaches a user
untranslated.

Each case runs the real CLI (`validate`, `setup --draw`, `score`, `score GAME --interactive`) with
`--lang xx`, where every catalog message comes back «wrapped and accented», and asserts that no English
word is left outside a «…» span once the data put in is taken out: the file's own values (player
names, ids, numbers), file names, violation codes (a stable contract, English in every language), the
game's title (game.yaml) and the names the game's kit prints for its ids (gods.csv, areas.yaml: the
spec's text, not ours). The same commands in English and Japanese are covered by test_score_lang.py
and test_board_picture_lang.py.
"""

from __future__ import annotations

import copy
import html
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import untranslated
from test_delphi_setup import BASE as DELPHI_BASE
from test_delphi_setup import CASES as DELPHI_CASES
from test_good_shepherds_setup import state as shepherd_state
from test_good_shepherds_setup import u as shepherd_unit
from test_score_lang import BROKEN, ILLEGAL

from pnpforge import catalog, contract
from pnpforge.cli import main
from pnpforge.sourcefile import read_yaml_text
from pnpforge.table.setupfile import deal_setup, dump_yaml

GAMES = sorted(ILLEGAL)
REPO = Path(__file__).resolve().parents[1]
CODE = re.compile(r"\[[a-z0-9-]+\]")  # a violation's code: `error [tile-overlap]`


def _values(data: Any) -> set[str]:
    """Every word among the values of a set-up or score file (not its keys): the data the user wrote."""
    if isinstance(data, dict):
        return {w for v in data.values() for w in _values(v)}
    if isinstance(data, list):
        return {w for v in data for w in _values(v)}
    return set(re.findall(r"[A-Za-z][A-Za-z'’-]*", str(data))) if data is not None else set()


def _kit_words(game_id: str) -> set[str]:
    """The game's title (game.yaml) and the names its kit prints for its ids, as its data files spell
    them in English: what the output may show as they are."""
    game = contract.load(game_id)
    names = game.names("en") if game.names else {}
    said = " ".join([game.title("en"), *names, *names.values()])
    return set(re.findall(r"[A-Za-z][A-Za-z'’-]*", said))


def _english(output: str, game_id: str, data: Any, *paths: Path) -> list[str]:
    """The English words left in `output` outside the catalog's «…», once the data is taken out."""
    for path in paths:
        output = output.replace(str(path), " ")
    output = CODE.sub(" ", html.unescape(output))
    data_words = _values(data) | _kit_words(game_id)
    return [word for word in untranslated(output) if word not in data_words]


def _run(*args: str, input: str | None = None) -> Any:
    return CliRunner().invoke(main, list(args), input=input)


# -- validate ---------------------------------------------------------------------------------------


def _delphi_everything() -> str:
    """Delphi's dealt board broken every way test_delphi_setup.py breaks it, all at once (each breaker
    that still finds what it breaks once the others have run)."""
    data = copy.deepcopy(DELPHI_BASE)
    for _, breaker in DELPHI_CASES.values():
        try:
            breaker(data)
        except (StopIteration, IndexError, KeyError, ValueError):
            continue  # an earlier breaker already took what this one changes
    return dump_yaml(data)


def _gods_everything() -> str:
    """A dealt Gods opening with an overlap, a broken layout and the game-end tile out of place."""
    data = deal_setup("gods", 3, 1, {})
    data["board"][0]["at"] = data["board"][1]["at"]
    data["stack"].remove("game-end")
    data["stack"].insert(0, "game-end")
    return dump_yaml(data)


def _ankh_everything() -> str:
    """Ankh's broken set-up (a god twice, an empty caravan) with pieces stacked on one space too."""
    text = ILLEGAL["ankh"][0]()
    data = read_yaml_text(text, "ankh.yaml").data
    data["pieces"][1]["at"] = data["pieces"][0]["at"]
    data["conflict_order"] = data["conflict_order"][:1]
    return dump_yaml(data)


def _shepherds_everything() -> str:
    """Good Shepherds' farm with the units test_good_shepherds_setup.py breaks the rules with, at once."""
    six = [shepherd_unit([q, 0], "pasture", 1 + q % 2) for q in range(6)]  # a group of six pastures
    more = [
        shepherd_unit([0, 3], "hut", 2),  # beside player 1's starting hut
        shepherd_unit([3, 3], "sheep"),
        shepherd_unit([4, 3], "pasture", 2),  # next to a sheep, not crossed out
        shepherd_unit([4, 5], "pasture", destroyed=True),  # crossed out with no sheep beside it
        shepherd_unit([8, 3], "sheep", 2),  # on player 2's starting hut
    ]
    return dump_yaml(shepherd_state(*six, *more))


def _quo_vadis_everything() -> str:
    """A 4-player Quo Vadis map given 3 players, a tile moved off the map and a tile placed twice."""
    data = deal_setup("quo-vadis", 4, 1, {})
    data["players"] = 3
    data["map"][-1]["at"] = [9, 0]
    data["map"][9]["tile"] = data["map"][8]["tile"]
    return dump_yaml(data)


ILLEGAL_SETUPS = {
    "ankh": [ILLEGAL["ankh"][0], _ankh_everything],
    "delphi": [ILLEGAL["delphi"][0], _delphi_everything],
    "gods": [ILLEGAL["gods"][0], _gods_everything],
    "good-shepherds": [ILLEGAL["good-shepherds"][0], _shepherds_everything],
    "quo-vadis": [ILLEGAL["quo-vadis"][0], _quo_vadis_everything],
}


@pytest.mark.parametrize("game", GAMES)
def test_validate_says_every_violation_in_the_language(game: str, pseudo_locale: str, tmp_path: Path) -> None:
    path = tmp_path / "setup.yaml"
    codes: set[str] = set()
    for make in ILLEGAL_SETUPS[game]:
        text = make()
        path.write_text(text, encoding="utf-8")
        said = _run("validate", str(path), "--lang", pseudo_locale)
        assert said.exit_code == 1, said.output
        codes |= set(CODE.findall(said.output))
        data = read_yaml_text(text, "setup.yaml").data
        assert _english(said.output, game, data, path) == [], said.output
        assert "«" in said.output.splitlines()[-1]  # the closing count is said too
    assert len(codes) >= 4, codes  # several rules broken, each said


@pytest.mark.parametrize("game", GAMES)
def test_a_legal_set_up_is_said_legal_in_the_language(game: str, pseudo_locale: str, tmp_path: Path) -> None:
    low, _ = catalog.players_range(catalog.find_game(game))
    path = tmp_path / "dealt.yaml"
    path.write_text(dump_yaml(deal_setup(game, low, 11, {})), encoding="utf-8")
    said = _run("validate", str(path), "--lang", pseudo_locale)
    assert said.exit_code == 0 and "«" in said.output, said.output
    assert _english(said.output, game, {}, path) == [], said.output


# -- setup --draw -----------------------------------------------------------------------------------


def _svg_texts(svg: str) -> str:
    return "\n".join(html.unescape(t) for t in re.findall(r"<text[^>]*>([^<]*)</text>", svg))


@pytest.mark.parametrize("game", GAMES)
def test_the_drawn_board_s_title_and_legend_are_in_the_language(
    game: str, pseudo_locale: str, tmp_path: Path
) -> None:
    low, _ = catalog.players_range(catalog.find_game(game))
    svg = tmp_path / "board.svg"
    dealt = _run("setup", game, "-p", str(low), "--seed", "11", "--draw", str(svg), "--lang", pseudo_locale)
    assert dealt.exit_code == 0, dealt.output
    texts = _svg_texts(svg.read_text(encoding="utf-8"))
    assert texts.splitlines()[0].startswith("«"), texts  # the title
    data = read_yaml_text(dealt.stdout, "dealt.yaml").data
    assert _english(texts, game, data) == [], texts
    english = tmp_path / "english.svg"
    _run("setup", game, "-p", str(low), "--seed", "11", "--draw", str(english))
    assert "«" not in english.read_text(encoding="utf-8")  # English is the text as written


# -- score ------------------------------------------------------------------------------------------

TIED = (  # two tie-breaks: Ann and Cy tie on points, crystals decide; Ann and Bob tie on everything
    "game: gods\nplayers:\n  - {name: Ann, villages: 1, temples: 1, crystals: 3}\n"
    "  - {name: Bob, villages: 1, temples: 1, crystals: 1}\n"
    "  - {name: Cy, villages: 1, temples: 1, crystals: 2}\n",
    "game: gods\nplayers:\n  - {name: Ann, villages: 2, temples: 1, crystals: 2}\n"
    "  - {name: Bob, villages: 2, temples: 1, crystals: 2}\n",
)


@pytest.mark.parametrize("game", GAMES)
def test_the_score_sheet_is_in_the_language(game: str, pseudo_locale: str) -> None:
    path = catalog.BUNDLED_DIR / game / "example-score.yaml"
    said = _run("score", str(path), "--lang", pseudo_locale)
    assert said.exit_code == 0, said.output
    data = read_yaml_text(path.read_text(encoding="utf-8"), path.name).data
    assert _english(said.output, game, data, path) == [], said.output
    assert "«" in said.output.splitlines()[0]  # "Title: «score sheet»"


@pytest.mark.parametrize("text", TIED, ids=["decided", "draw"])
def test_the_tie_break_is_said_in_the_language(text: str, pseudo_locale: str, tmp_path: Path) -> None:
    path = tmp_path / "tied.yaml"
    path.write_text(text, encoding="utf-8")
    said = _run("score", str(path), "--lang", pseudo_locale)
    assert said.exit_code == 0, said.output
    verdict = said.output.splitlines()[-1]
    assert verdict.startswith("«") and "Ann" in verdict, verdict
    assert _english(said.output, "gods", read_yaml_text(text, "tied.yaml").data) == [], said.output
    english = _run("score", str(path)).output.splitlines()[-1]
    assert english.startswith(("Winner: Ann (tied on", "Draw: Ann and Bob share the win")), english


@pytest.mark.parametrize("game", GAMES)
def test_rule_breaks_of_an_impossible_score_file_are_in_the_language(
    game: str, pseudo_locale: str, tmp_path: Path
) -> None:
    path = tmp_path / "broken.yaml"
    path.write_text(BROKEN[game][0], encoding="utf-8")
    said = _run("score", str(path), "--lang", pseudo_locale)
    assert said.exit_code == 1, said.output
    lines = said.output.splitlines()
    assert len(lines) >= 3 and all("«" in line for line in lines), said.output
    data = read_yaml_text(BROKEN[game][0], "broken.yaml").data
    assert _english(said.output, game, data, path) == [], said.output


def _answers(game: str) -> tuple[str, set[str]]:
    """Answers to every question `score GAME -i` asks (two players), and the choices it offers."""
    scorer = contract.load(game).scorer()
    low, high = catalog.players_range(catalog.find_game(game))
    count = max(low, 2)

    def answer(kind: str, choices: tuple[str, ...], size: int) -> str:
        return {"int": "1", "bool": "n", "choice": choices[0] if choices else "", "ints": "1 " * size}.get(
            kind, ""
        )

    names = list(scorer.player_names()) or ["Ann", "Bob", "Cy", "Dee", "Eve"]  # Ankh's players are gods
    lines = [] if low == high else [str(count)]
    lines += [answer(f.kind, f.choices, f.size) for f in scorer.fields if not f.per_player and not f.after]
    for name in names[:count]:
        lines.append(name)
        lines += [answer(f.kind, f.choices, f.size) for f in scorer.fields if f.per_player]
    lines += [answer(f.kind, f.choices, f.size) for f in scorer.fields if not f.per_player and f.after]
    choices = {c for f in scorer.fields for c in f.choices}
    return "\n".join(lines) + "\n", choices


@pytest.mark.parametrize("game", GAMES)
def test_the_interactive_questions_are_in_the_language(game: str, pseudo_locale: str) -> None:
    answers, choices = _answers(game)
    said = _run("score", game, "--interactive", "--lang", pseudo_locale, input=answers)
    assert said.exit_code in (0, 1), said.output  # scored, or the answers broke a rule (said too)
    asked = said.stderr
    assert asked.startswith("«"), asked  # "Scoring {title}. …"
    typed = _values(answers.split()) | _values(sorted(choices))
    output = (asked + said.stdout).replace("<interactive>", " ")  # the file name a typed sheet goes by
    assert _english(output, game, sorted(typed)) == [], output


def test_the_language_choices_come_from_the_catalogs(pseudo_locale: str) -> None:
    """`--lang` offers every language with a compiled catalog (here the pseudo-locale too)."""
    shown = _run("validate", "--help").output
    assert "xx" in shown and "ja" in shown
    refused = _run("validate", "x.yaml", "--lang", "zz")
    assert refused.exit_code == 2 and "zz" in refused.output


def test_setup_and_caravans_speak_the_terminal_language(
    pseudo_locale: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What `setup -o` and `caravans` say in the terminal follows PNPFORGE_LANG (no --lang of its own)."""
    monkeypatch.setenv("PNPFORGE_LANG", pseudo_locale)
    out, svg = tmp_path / "ankh.yaml", tmp_path / "ankh.svg"
    dealt = _run("setup", "ankh", "-p", "2", "--seed", "1", "-o", str(out), "--draw", str(svg))
    assert dealt.exit_code == 0, dealt.output
    assert _english(dealt.stderr, "ankh", {}, out, svg) == [], dealt.stderr
    listed = _run("caravans", str(out))
    assert listed.exit_code == 0 and len(listed.stdout.splitlines()) > 1, listed.output
    data = read_yaml_text(out.read_text(encoding="utf-8"), "ankh.yaml").data
    assert _english(listed.stdout, "ankh", data, out) == [], listed.stdout
    monkeypatch.delenv("PNPFORGE_LANG")
    assert _run("caravans", str(out)).stdout.splitlines()[-1].endswith("legal caravan(s)")


# -- a file the rules cannot read (exit 2): the game's own problems, in the game's words -------------


def _gods_twice(data: dict[str, Any]) -> None:
    data["gods"][1] = data["gods"][0]
    data["bag"] = ["game-end"]


def _ankh_unknown(data: dict[str, Any]) -> None:
    data["seats"][0]["god"] = "zeus"
    data["guardians"][0] = "dragon"
    data["pieces"][0]["player"] = data["players"] + 1


def _delphi_unknown(data: dict[str, Any]) -> None:
    data["board"]["tiles"][0]["tile"] = "nowhere"


def _quo_vadis_unknown(data: dict[str, Any]) -> None:
    data["map"][0]["tile"] = "z9-9"
    data["centre"] = [40, 40]


def _shepherds_unknown(data: dict[str, Any]) -> None:
    data["units"] = [
        {"at": [99, 99], "unit": "sheep", "player": 1},
        {"at": [1, 3], "unit": "hut", "player": 1, "destroyed": True},
    ]


BAD_INPUT = {
    "ankh": _ankh_unknown,
    "delphi": _delphi_unknown,
    "gods": _gods_twice,
    "good-shepherds": _shepherds_unknown,
    "quo-vadis": _quo_vadis_unknown,
}


@pytest.mark.parametrize("game", GAMES)
def test_a_set_up_s_own_mistakes_are_said_in_the_game_s_words(game: str, pseudo_locale: str) -> None:
    """The problems a game's rules find in a file they cannot use carry the game's catalog domain
    (InputError.domain), and every one of them is a message of it."""
    from pnpforge import i18n
    from pnpforge.errors import InputError
    from pnpforge.table.setupfile import check_loaded, load_source

    low, _ = catalog.players_range(catalog.find_game(game))
    data = deal_setup(game, low, 11, {})
    BAD_INPUT[game](data)
    with pytest.raises(InputError) as raised:
        check_loaded(load_source(read_yaml_text(dump_yaml(data), "bad.yaml")))
    assert raised.value.domain == game
    tr = i18n.translator(pseudo_locale, raised.value.domain)
    said = "\n".join(tr(p.message) for p in raised.value.problems)
    assert said.count("«") >= len(raised.value.problems), said
    assert _english(said, game, data) == [], said
