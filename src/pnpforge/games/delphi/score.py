"""The Oracle of Delphi: who won (Delphi rulebook, ゲームの終了 and セットアップ).

A player can win only after completing every Zeus tile task (3 shrines, 3 statues, 3 offerings,
3 monsters; 8 tasks in the short game) and reaching Zeus in the final round. Among those, the most
oracle cards wins, then the most favour tokens, else they share the win. A progress sheet shows
each player's tasks done of each kind.
"""

from __future__ import annotations

from pathlib import Path

from pnpforge.gamekit import (
    N_,
    Count,
    Field,
    Flag,
    Phrase,
    PlayerEntry,
    PlayerScore,
    Rules,
    ScoreResult,
    Source,
    Strict,
    Table,
    TieBreak,
    folder_id,
    owned,
)

GAME = folder_id(Path(__file__).parent)  # the game's id: its folder's name

# Rulebook facts: 3 Zeus tiles of each kind per player; tasks are removed for a shorter game in this order.
KINDS = ("shrine", "statue", "offering", "monster")
PER_KIND = 3
REMOVAL_ORDER = ("statue", "shrine", "monster", "offering")
SHORT_GAME = 8


class Player(PlayerEntry):
    shrine: Count = 0
    statue: Count = 0
    offering: Count = 0
    monster: Count = 0
    zeus: Flag = False
    oracle_cards: Count = 0
    favour: Count = 0


class Input(Strict):
    game: str  # its game was found by it
    tasks: Count = len(KINDS) * PER_KIND
    players: list[Player]


FIELDS = [
    Field(
        "tasks",
        "Zeus tasks per player",
        "12 in the full game, 8 in the short game",
        default=12,
        per_player=False,
    ),
    Field("shrine", "shrines built", "a Zeus task each"),
    Field("statue", "statues raised", "a Zeus task each"),
    Field("offering", "offerings made", "a Zeus task each"),
    Field("monster", "monsters defeated", "a Zeus task each"),
    Field("zeus", "reached Zeus with every task done", "only such players can win", kind="bool"),
    Field("oracle_cards", "oracle cards", "first tie-break: the most wins"),
    Field("favour", "favour tokens", "second tie-break: the most wins; still tied, a shared win"),
]

PROGRESS = N_("Progress ({tasks} tasks)")
YES, NO = Phrase(N_("yes")), Phrase(N_("no"))
# the rule breaks, as templates (a `Phrase` each) said in the catalogs (locale/*.po)
TASK_COUNT = N_("a game has {low} to {high} Zeus tasks, not {tasks}")
KIND_TASKS = N_("{kind} tasks")
ZEUS_EARLY = N_("{name} is marked as at Zeus with tasks still open; Zeus is reached only after every task")

# the score sheet's words: the web page and `score --lang LANG` (Delphi rulebook, 12のタスク,
# ゲーム終了; the short game: セットアップ)
# words said as data (set-up keys and values, kinds, labels, names of fields): marked for the
# catalogs (locale/*.po), where each language says them in the game's words
DATA_WORDS = (
    N_("Zeus tasks per player"),
    N_("12 in the full game, 8 in the short game"),
    N_("shrines built"),
    N_("statues raised"),
    N_("offerings made"),
    N_("monsters defeated"),
    N_("a Zeus task each"),
    N_("reached Zeus with every task done"),
    N_("only such players can win"),
    N_("oracle cards"),
    N_("first tie-break: the most wins"),
    N_("favour tokens"),
    N_("second tie-break: the most wins; still tied, a shared win"),
    N_("No winner yet: nobody has completed every task and reached Zeus."),
    N_("shrine"),
    N_("statue"),
    N_("offering"),
    N_("monster"),
    N_("player"),
    N_("open"),
    N_("at Zeus"),
    N_("short"),
    N_("true"),
    N_("false"),
    N_("remove"),
    N_("favour"),
)


def required(tasks: int) -> dict[str, int]:
    """Tasks of each kind for a game of `tasks` Zeus tiles (one of a kind removed per task short)."""
    need = dict.fromkeys(KINDS, PER_KIND)
    removed = len(KINDS) * PER_KIND - tasks
    for index in range(removed):
        need[REMOVAL_ORDER[index % len(REMOVAL_ORDER)]] -= 1
    return need


def _check(data: Input, rules: Rules) -> dict[str, int]:
    full = len(KINDS) * PER_KIND
    if not SHORT_GAME <= data.tasks <= full:
        rules.error("task-count", ("tasks",), Phrase(TASK_COUNT, low=SHORT_GAME, high=full, tasks=data.tasks))
        rules.done()
    need = required(data.tasks)
    for i, p in enumerate(data.players):
        for key in (*KINDS, "oracle_cards", "favour"):
            rules.nonnegative(("players", i, key), getattr(p, key), owned(p.name, key.replace("_", " ")))
        for kind in KINDS:
            rules.at_most(
                "too-many-tasks",
                ("players", i, kind),
                getattr(p, kind),
                need[kind],
                owned(p.name, Phrase(KIND_TASKS, kind=Phrase.word(kind))),
            )
        if p.zeus and any(getattr(p, kind) < need[kind] for kind in KINDS):
            rules.error(
                "zeus-before-tasks",
                ("players", i, "zeus"),
                Phrase(ZEUS_EARLY, name=p.name),
            )
    rules.done()
    return need


def score(data: Input, source: Source) -> ScoreResult:
    need = _check(data, Rules(GAME, source))
    rows = [
        PlayerScore(p.name, {k: getattr(p, k) for k in KINDS}, info={"at Zeus": YES if p.zeus else NO})
        for p in data.players
    ]
    progress = Table(
        Phrase(PROGRESS, tasks=data.tasks),
        ["player", *KINDS, "open", "at Zeus"],
        [
            [
                p.name,
                *[f"{getattr(p, k)}/{need[k]}" for k in KINDS],
                sum(need[k] - getattr(p, k) for k in KINDS),
                YES if p.zeus else NO,
            ]
            for p in data.players
        ],
    )
    finished = [p.name for p in data.players if p.zeus]
    verdict = None if finished else "No winner yet: nobody has completed every task and reached Zeus."
    return ScoreResult.ranked(
        GAME,
        rows,
        [
            TieBreak.by("oracle cards", {p.name: p.oracle_cards for p in data.players}),
            TieBreak.by("favour tokens", {p.name: p.favour for p in data.players}),
        ],
        eligible=finished,
        verdict=verdict,
        tables=[progress],
        details={"required": need},
    )
