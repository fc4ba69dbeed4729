"""Ankh: god powers and ankh powers that change devotion or deaths, and the merging of gods.

Each test quotes the Ankh rulebook's words it checks (エジプトの神々, アンクの力, 神々の融合).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_score_ankh import SETUP

from pnpforge.errors import InputError
from pnpforge.scoring import RulesBroken, ScoreResult
from pnpforge.sourcefile import read_yaml_text
from pnpforge.table.scorefile import score_file, score_source


def score(text: str) -> ScoreResult:
    return score_source(read_yaml_text("game: ankh\n" + text, "conflict.yaml"))


def gained(result: ScoreResult) -> dict[str, int]:
    return {p.name: int(p.total or 0) - p.breakdown["before"] for p in result.players}


def battle(ra_or_isis: str, amun: str, players: str = "") -> ScoreResult:
    first = ra_or_isis.split(":")[0]
    players = players or f"players: [{{name: {first}, devotion: 5}}, {{name: Amun, devotion: 6}}]\n"
    return score(f"{players}regions:\n  - name: 1\n    gods:\n      {ra_or_isis}\n      {amun}\n")


def breaks(text: str) -> set[str]:
    with pytest.raises(RulesBroken) as info:
        score(text)
    return info.value.report.codes()


def test_ra_gains_one_extra_devotion_when_winning_where_a_radiant_figure_stands() -> None:
    # 「少なくとも一つの光輝なものフィギュアが存在する領域でバトルに勝つたびに、
    #  ラーは1つの追加の信心を獲得します(同じバトルでより多くの光輝なもののフィギュアが
    #  存在する場合でも、1つの追加の信心だけが得られます)」
    assert gained(battle("Ra: {figures: 3, radiant: 2}", "Amun: {figures: 1}")) == {"Ra": 2, "Amun": 0}
    assert gained(battle("Ra: {figures: 3}", "Amun: {figures: 1}")) == {"Ra": 1, "Amun": 0}
    lost = battle("Ra: {figures: 1, radiant: 1}", "Amun: {figures: 3}")  # Ra loses: radiance gives nothing
    assert gained(lost) == {"Ra": 0, "Amun": 1}


def test_a_radiant_figure_killed_by_the_locusts_gives_no_extra_devotion() -> None:
    # Amun's plague: every warrior and guardian except the highest bidder's dies; Ra's god figure (never
    # killed) and his Drought still win, but no radiant figure stands in the region any more.
    result = battle(
        "Ra: {figures: 3, god: true, desert: 1, radiant: 2, card: Drought}",
        "Amun: {figures: 1, card: Plague of Locusts, bid: 1}",
    )
    assert result.details["figures_lost"] == {"Ra": 2, "Amun": 1}  # Amun then loses the battle
    assert gained(result) == {"Ra": 1, "Amun": 0}  # Ra 1 + 2 (Drought) + 1 (desert) beats Amun 1 + 1


def test_only_ra_has_radiant_figures_and_never_more_than_his_warriors_or_three_suns() -> None:
    # 「ラープレイヤーはゴッドダッシュボードに3つの太陽トークンから始まります」;
    # suns go on warriors or guardians.
    assert breaks(
        "players: [{name: Ra}, {name: Amun}]\nregions: [{name: 1, gods: {Amun: {figures: 2, radiant: 1}}}]\n"
    ) == {"power-not-held"}
    assert breaks(
        "players: [{name: Ra}, {name: Amun}]\n"
        "regions: [{name: 1, gods: {Ra: {figures: 2, god: true, radiant: 2}}}]\n"
    ) == {"radiant-count"}
    four = (
        "regions: [{name: 1, gods: {Ra: {figures: 2, radiant: 2}}},"
        " {name: 2, gods: {Ra: {figures: 2, radiant: 2}}}]\n"
    )
    assert breaks("players: [{name: Ra}, {name: Amun}]\n" + four) == {"radiant-count"}


def test_isis_protected_figures_are_not_killed_when_she_loses() -> None:
    # 「敵フィギュア(同じ地域で)に隣接するスペースを占有するイシスプレイヤーに属する
    #  各フィギュアは保護されているとみなされます。保護されたフィギュアは殺されません。」
    # Amun's Miracle counts only the figures really killed.
    result = battle("Isis: {figures: 3, protected: 2}", "Amun: {figures: 5, card: Miracle}")
    assert result.details["figures_lost"] == {"Isis": 1, "Amun": 0}
    assert gained(result) == {"Isis": 0, "Amun": 2}  # 1 for the win + 1 Miracle for the one killed
    unprotected = battle("Isis: {figures: 3}", "Amun: {figures: 5, card: Miracle}")
    assert unprotected.details["figures_lost"]["Isis"] == 3 and gained(unprotected)["Amun"] == 4


def test_isis_protection_holds_in_a_lost_tie_and_against_the_locusts() -> None:
    tie = battle("Isis: {figures: 2, protected: 1}", "Amun: {figures: 2}")  # nobody holds the token
    assert tie.details["figures_lost"] == {"Isis": 1, "Amun": 2}
    locusts = battle(
        "Isis: {figures: 4, protected: 3}", "Amun: {figures: 1, card: Plague of Locusts, bid: 2}"
    )
    assert locusts.details["figures_lost"]["Isis"] == 1  # the plague kills only the unprotected one
    assert breaks(
        "players: [{name: Ra}, {name: Amun}]\nregions: [{name: 1, gods: {Ra: {figures: 2, protected: 1}}}]\n"
    ) == {"power-not-held"}


def test_anubis_gains_one_strength_per_trapped_warrior_up_to_three() -> None:
    # 「戦闘の解決では、アヌビスは閉じ込めた戦士ごとに最大+3の強さまで+1の強さを得ます」
    players = "players: [{name: Anubis, devotion: 5, trapped: %d}, {name: Amun, devotion: 6}]\n"
    two = battle("Anubis: {figures: 1}", "Amun: {figures: 3}", players % 2)
    assert two.details["regions"][0]["strength"] == {"Anubis": 3, "Amun": 3}
    five = battle("Anubis: {figures: 1}", "Amun: {figures: 3}", players % 5)
    assert five.details["regions"][0]["strength"]["Anubis"] == 4 and gained(five)["Anubis"] == 1
    assert breaks("players: [{name: Ra, trapped: 1}, {name: Amun}]\n") == {"power-not-held"}


def test_glorious_and_mighty_reward_a_win_by_two_or_more() -> None:
    # Glorious: 「戦いに勝利し、その強さが次に強い敵より2以上高い場合、1つの追加の信心を獲得します」
    # Mighty: the same, 「その戦闘に参加していた他のすべてのプレイヤーは1つの信心を失います」; both stack.
    players = (
        "players: [{name: Ra, devotion: 5, powers: [%s]}, {name: Amun, devotion: 6},"
        " {name: Isis, devotion: 4}]\n"
    )
    three = "Amun: {figures: 2}\n      Isis: {figures: 1}"
    by_two = battle("Ra: {figures: 4}", three, players % "glorious")
    assert gained(by_two) == {"Ra": 2, "Amun": 0, "Isis": 0}
    by_one = battle("Ra: {figures: 3}", three, players % "glorious")
    assert gained(by_one) == {"Ra": 1, "Amun": 0, "Isis": 0}
    both = battle("Ra: {figures: 4}", three, players % "glorious, mighty")
    assert gained(both) == {"Ra": 3, "Amun": -1, "Isis": -1}


def test_commanding_bountiful_and_glowing() -> None:
    # Commanding: 「バトルに勝つたびに、彼らは共通スペースから3信者を得ます」;
    # Bountiful: 「フラッドカードを解くたびに、信者の数を2倍にする」;
    # 光り輝く: 「バトル地域でコントロールするそれぞれの記念碑に対して+1の強さ」.
    players = (
        "players: [{name: Isis, devotion: 5, powers: [commanding, bountiful, glowing]},"
        " {name: Amun, devotion: 6}]\n"
    )
    result = battle(
        "Isis: {figures: 2, fertile: 2, card: Flood, temple: 1, pyramid: 1}", "Amun: {figures: 3}", players
    )
    assert result.details["regions"][0]["strength"] == {"Isis": 4, "Amun": 3}
    assert result.details["followers_gained"] == {"Isis": 4 + 3, "Amun": 0}


def test_the_two_least_devoted_gods_merge_after_the_third_conflict() -> None:
    # 「[信心] トラックで2番目に低い位置にある神が、融合する上位の神で、
    #  …1番目に低い位置にある神が、融合する下位の神です」;
    # 「融合する上位の神のアンクトークンを移動し、融合する下位の神のアンクトークンの上に配置します」.
    # The rulebook's example: Amun and Ra are lowest, Ra the lowest, so Amun drops onto Ra.
    result = score(
        "players: [{name: Osiris, devotion: 9}, {name: Isis, devotion: 8}, {name: Amun, devotion: 4},"
        " {name: Ra, devotion: 3}]\nmerge: true\n"
    )
    assert result.details["merged"] == {"upper": "Amun", "lower": "Ra"}
    amun = next(p for p in result.players if p.name == "Amun")
    assert amun.breakdown == {"before": 4, "merge": -1} and amun.total == 3
    assert "Amun-Ra" in result.notes[0]
    on_a_stack = score(
        "players: [{name: Osiris, devotion: 9}, {name: Isis, devotion: 3}, {name: Amun, devotion: 3}]\n"
        "stack: [Isis, Amun]\nmerge: true\n"  # Amun is under Isis on space 3: Amun is the lowest
    )
    assert on_a_stack.details["merged"] == {"upper": "Isis", "lower": "Amun"}


def test_merging_needs_three_gods() -> None:
    # 「3人以上のプレーヤーが参加するゲームにおいてのみ」
    assert breaks("players: [{name: Amun, devotion: 3}, {name: Ra, devotion: 4}]\nmerge: true\n") == {
        "merge-needs-three"
    }


def test_a_merged_god_has_both_gods_powers_and_plays_the_upper_gods_cards() -> None:
    # 「融合された神には、両神の特別な神格があります」;
    # 「バトル中の決定は、双方のプレイヤーがより高い神のバトルカードを使って行います」
    players = "players: [{name: Amun, devotion: 5, merged_with: Ra}, {name: Isis, devotion: 6}]\n"
    result = battle(
        "Amun: {figures: 3, radiant: 1, card: [Drought, Cycle of Ma'at]}", "Isis: {figures: 2}", players
    )
    assert gained(result) == {"Amun": 2, "Isis": 0}  # Ra's radiance, and Amun's two cards
    assert result.details["regions"][0]["strength"]["Amun"] == 3 + 2 + 1
    assert any("Amun-Ra" in note for note in result.notes)
    with pytest.raises(InputError, match="list the merged god once"):
        score("players: [{name: Amun, merged_with: Ra}, {name: Ra}]\n")


@pytest.mark.parametrize(("god", "lost"), [("isis", 0), ("ra", 1)])
def test_protection_is_read_off_a_set_up_file(tmp_path: Path, god: str, lost: int) -> None:
    # Amun's warrior on [5, 2] stands next to seat 1's warrior on [4, 2], both in region 1: Isis's
    # warrior there is protected and survives the lost battle; Ra's, with no such power, dies.
    board = SETUP.replace("god: ra", f"god: {god}").replace(
        "{piece: warrior, at: [3, 4], player: 2}", "{piece: warrior, at: [5, 2], player: 2}"
    )
    (tmp_path / "board.yaml").write_text(board, encoding="utf-8")
    name = god.capitalize()
    (tmp_path / "conflict.yaml").write_text(
        f"game: ankh\nsetup: board.yaml\nplayers: [{{name: {name}}}, {{name: Amun}}, {{name: Anubis}}]\n"
        "regions:\n  - name: 1\n    gods: {Amun: {card: drought}}\n",
        encoding="utf-8",
    )
    result = score_file(tmp_path / "conflict.yaml")
    assert result.details["regions"][0]["strength"] == {name: 2, "Amun": 3}
    assert result.details["figures_lost"][name] == lost
