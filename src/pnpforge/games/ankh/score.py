"""Ankh: Gods of Egypt: a conflict, region by region, and the winner (Ankh rulebook, 紛争, 勝利条件).

Regions are resolved in conflict order. A region where one god has figures is dominated: +1
devotion, +1 per monument of each type where that god controls more than every other controller.
Where several gods have figures there is a battle: battle cards are revealed, Plague of Locusts
resolves first, the other cards from the least devoted god up, then monument majorities (every
controller counts, present or not; only gods with figures still there gain), then strength =
figures + card strength (+ desert figures again with Drought, + any `bonus`): the strongest god
wins 1 devotion and kills every enemy figure; a tie at the top is won by the holder of the battle
tie-break token (once per conflict), else every figure there dies. Gods are never killed.

Devotion moves on the track: a token entering a space goes on top of its stack, and gains at the
same moment are made from the least devoted god up, so the stack order (the tie-break) stays
right. Card strengths come from `battle_cards.csv` (Drought +2 and Flood +0 from the rulebook; the
rest are assumptions kept there as data).

God powers that change devotion or deaths (エジプトの神々): Ra's radiant figures (+1 devotion when
Ra wins where one stands), Isis's protected figures (never killed), Anubis's trapped warriors (+1
strength each, at most +3); ankh powers (アンクの力): Glorious and Mighty (+1 devotion for a win by 2
or more; Mighty also costs the others 1), Commanding (+3 followers per win), Bountiful (Flood
doubled), Glowing (光り輝く: +1 strength per monument controlled in the region). A merged god (神々の
融合) has both gods' powers and plays the upper god's cards; `merge: true` merges the two least
devoted gods after the third conflict.

Stays Python, not game.yaml's `scoring:` (docs/scoring.md, "Score sheets as data"): a conflict is
resolved battle by battle, cards and god powers changing who wins and what each gains, a procedure the
data vocabulary of counts, expressions and majorities cannot say.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

from pnpforge.gamekit import (
    N_,
    BeforeValidator,
    Count,
    Field,
    Flag,
    Hex,
    InputError,
    Name,
    Path_,
    Phrase,
    PlayerEntry,
    PlayerScore,
    Rules,
    RulesBroken,
    ScoreResult,
    Source,
    Strict,
    Table,
    TieBreak,
    folder_id,
    hexgrid,
    kit,
    known_names,
    linked_setup,
    owned,
    quoted,
)
from pnpforge.gamekit import Key as Titled  # a score file key's label on the page (a catalog message)

from . import checks

GAME = folder_id(Path(__file__).parent)  # the game's id: its folder's name

HERE = Path(__file__).parent
MONUMENTS = ("obelisk", "temple", "pyramid")
MONUMENTS_PER_TYPE = 10  # Ankh rulebook, コンポーネント: 10 tokens of each monument
PLAGUE, BUILD, CYCLE, DROUGHT, FLOOD, MIRACLE = (
    "plague-of-locusts",
    "build-monument",
    "cycle-of-maat",
    "drought",
    "flood",
    "miracle",
)
TWO_CARDS_GOD = "amun"  # Mysterious Form: two battle cards in one battle per conflict
RADIANT_GOD, PROTECTOR_GOD, JUDGE_GOD = "ra", "isis", "anubis"
SUN_TOKENS = 3  # Ra starts with 3 sun tokens: at most 3 radiant figures
TRAPPED_MAX = 3  # Anubis: +1 strength per trapped warrior, at most +3
WIN_MARGIN = 2  # Glorious, Mighty: a win by 2 or more strength over the next strongest enemy
COMMANDING_FOLLOWERS = 3
MERGE_MIN_GODS = 3  # 神々の融合: only in games of 3 or more players
# Ankh powers (アンクの力), by level; all are accepted, only those acting in a conflict change its result.
POWERS = (
    "commanding",  # 指揮: +3 followers per battle won
    "inspiring",  # インスパイアリング: Build Monument costs at most 3 followers
    "bountiful",  # バウンティフル: Flood's followers doubled
    "revered",  # レバード: +1 follower per Gain Followers action
    "glorious",  # グロリアス: +1 devotion for a win by 2 or more
    "obelisk-attuned",  # オベリスク: move figures next to your obelisk when a battle starts
    "temple-attuned",  # テンプル・アトゥーン: god figure +1 strength per temple controlled anywhere
    "pyramid-attuned",  # ピラミッドアトゥーン: summon an extra figure beside each of your pyramids
    "mighty",  # マイティー: as Glorious, and every other god in the battle loses 1 devotion
    "worshipful",  # 敬具: +1 devotion at the end of a turn with 5 monuments
    "glowing",  # 光り輝く: +1 strength per monument you control in the battle region
    "magnificent",  # 壮麗な: +1 devotion at the end of a turn with 10 followers
)


def _cards_table() -> dict[str, dict[str, Any]]:
    """Card id → {name, strength by god}; names and ids are both accepted in score files."""
    strengths = kit.numbers(HERE, "battle_cards.csv", "strength")
    cards: dict[str, dict[str, Any]] = {}
    for (row, _), strength in zip(
        kit.rows(HERE, "battle_cards.csv", "card", "name_en", "god"), strengths, strict=True
    ):
        card = cards.setdefault(row["card"], {"name": row["name_en"], "strength": {}})
        card["strength"][row["god"]] = strength
    return cards


def _gods_table() -> dict[str, str]:
    """Every spelling a player may use for a god (id, English or Japanese name) → god id."""
    names: dict[str, str] = {}
    for row in [row for row, _ in kit.rows(HERE, "gods.csv")]:
        for spelling in (row["god"], row["name_en"], row.get("name_ja", "")):
            if spelling:
                names[spelling.lower()] = row["god"]
    return names


def player_names() -> list[str]:
    """What Ankh's players go by: their gods (Ankh rulebook, セットアップ: each player chooses a god)."""
    return [row["name_en"] for row in [row for row, _ in kit.rows(HERE, "gods.csv")]]


def _one_or_two(value: Any) -> Any:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return value
    raise ValueError("expected a battle card name, or a list of two for Amun's Mysterious Form")


Cards = Annotated[list[str], BeforeValidator(_one_or_two)]


class InRegion(Strict):
    """One god in one region: figures there, monuments controlled there, the card played."""

    figures: Count = Titled(0, title=N_("figures in the region"))
    # the god figure itself is among `figures` (gods are never killed)
    god: Flag = Titled(False, title=N_("the god figure among them"))
    desert: Count = Titled(0, title=N_("figures on desert (yellow)"))
    fertile: Count = Titled(0, title=N_("figures on fertile (green)"))
    obelisk: Count = Titled(0, title=N_("obelisks controlled"))
    temple: Count = Titled(0, title=N_("temples controlled"))
    pyramid: Count = Titled(0, title=N_("pyramids controlled"))
    card: Cards = Titled([], title=N_("battle card played"))
    bid: Count = Titled(0, title=N_("Plague of Locusts bid (followers)"))
    build: Literal["obelisk", "temple", "pyramid"] | None = Titled(None, title=N_("monument built"))
    bonus: Count = Titled(0, title=N_("extra strength"))
    radiant: Count = Titled(0, title=N_("radiant figures (Ra)"))  # carrying a sun token (光輝なもの)
    protected: Count = Titled(
        0, title=N_("protected figures (Isis)")
    )  # next to an enemy figure (保護するもの)


def _label(value: Any) -> Any:
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    if not isinstance(value, str) or not value.strip():
        raise ValueError("expected a region name or its conflict order number")
    return value.strip()


class Region(Strict):
    name: Annotated[str, BeforeValidator(_label)] = Titled(title=N_("region (its name or conflict number)"))
    gods: dict[str, InRegion] = {}


Power = Literal[POWERS]  # type: ignore[valid-type]


class Player(PlayerEntry):
    devotion: Count = 0
    forgotten: Flag = False
    used_cards: list[str] = []
    merged_with: Name | None = None  # the lower god merged into this one (神々の融合)
    powers: list[Power] = []  # ankh powers unlocked
    trapped: Count = 0  # Anubis: warriors trapped on the god dashboard


class Input(Strict):
    game: str  # its game was found by it
    players: list[Player]
    stack: list[Name] = []
    tiebreak_token: Name | None = None
    regions: list[Region] = []
    setup: str | dict[str, Any] | None = None  # an Ankh set-up file (path or inline) to read regions from
    top: Count | None = Titled(None, title=N_("top space of the devotion track"))
    final: Flag = False
    # the third conflict: merge the two least devoted gods after it
    merge: Flag = Titled(False, title=N_("merge the two least devoted gods (3rd conflict)"))


FIELDS = [
    Field(
        "final",
        "was this the last event of the game",
        "then the highest devotion wins",
        kind="bool",
        per_player=False,
    ),
    Field("devotion", "devotion (track space)", "the top space wins at once"),
    Field(
        "forgotten",
        "forgotten (left the game after the 4th conflict)",
        "the last god standing wins",
        kind="bool",
    ),
    Field(
        "merged_with",
        "god merged into this one after the 3rd conflict (blank if none)",
        "a merged god's two players win or lose together; list the merged god once",
        kind="text",
    ),
    Field(
        "stack",
        "gods sharing a space, top of the stack first",
        "comma-separated; blank if no two share a space",
        kind="names",
        per_player=False,
        after=True,
    ),
]

# What the conflict log and the notes say, as templates (a `Phrase` each) said in the catalogs
# (locale/*.po); the gods and battle cards by the names their data files print (GAME.names).
EMPTY, DOMINANCE, BATTLE = Phrase(N_("empty")), Phrase(N_("dominance")), Phrase(N_("battle"))  # outcomes
NOTHING = N_("no figures: nothing happens")
DOMINATES = N_("{god} dominates: +1, +{majority} for monument majorities")
LOCUSTS_TOOK_ALL = N_("every figure fell to the locusts: nobody wins")
WINS = N_("strength {strength}: {god} wins")
TOKEN_WINS = N_("strength {strength}: tie, {god} wins with the tie-break token")
ALL_LOSE = N_("strength {strength}: tie, everyone loses and every figure there dies")
AND = N_("{text}; {more}")  # a battle's result, then what the winner's powers add, one by one
RADIANT = N_("+1 radiant (Ra)")
PLUS_ONE = N_("+1 {power}")
MIGHTY_LOSS = N_("-1 for {losers} (Mighty)")
COMMANDING = N_("+{followers} followers (Commanding)")
MERGED = N_(
    "{upper} and {lower} merge into {upper}-{lower} on space {space}: {upper}'s token"
    " sits on {lower}'s, they move together, and their players win or lose together."
)
MERGED_BEFORE = N_("{name} is {name}-{lower}: both players win or lose with it.")
REACHED_TOP = N_("{god} reached the top of the devotion track ({top}) and wins at once.")
LAST_STANDING = N_("{god} is the last god standing.")
# the rule breaks, as templates (a `Phrase` each)
IN_REGION = N_("{what} in region {region}")
TERRAIN = N_(
    "{god} has {desert} on desert and {fertile} on fertile spaces "
    "but only {figures} figures in region {region}"
)
GOD_ALONE = N_("{god}'s god figure is in region {region} with no figures")
GOD_TWICE = N_("{god}'s god figure is in both {first} and {second}")
NO_FIGURES = N_("{god} plays a card in {region} with no figures")
TWO_CARDS = N_("{god} plays {count} cards in {region}; only Amun may play two, once per conflict")
USED = N_("{god} already played {card} and has not taken it back with Cycle of Ma'at")
BID = N_("{god} bids followers in {region} but nobody played Plague of Locusts")
BUILD_NO_CARD = N_("{god} builds a {monument} in {region} without Build Monument")
BUILD_WHAT = N_("{god} plays Build Monument in {region}: say which monument with `build:`")
NOT_HELD = N_("{god} has {what} in region {region}, but not {power}")
TOO_MANY_FIGURES = N_(
    "{god} has {count} {what} in region {region} but only {warriors} warriors and guardians"
)
TRAPPED = N_("{name} has trapped warriors, but only Anubis traps them (死者の裁判官)")
MERGE_FEW = N_("gods merge only in a game of {least} or more, not {count} (神々の融合)")
MERGE_TWICE = N_("the gods have already merged: they merge once, after the third conflict")
MONUMENTS_HELD = N_("{kind}s controlled on the board")
REGION_COLUMN = N_("region {label}")  # a region's column of the devotion table

# the score sheet's words, said as data (the questions, the score file's keys, the columns): marked for
# the catalogs (locale/*.po) (Ankh rulebook, 紛争, 支配, 戦闘解決, アンクの力, エジプトの神々, 神々の融合,
# 勝利条件, 忘れられた神; the deal's scenarios: セットアップ)
DATA_WORDS = (
    N_("was this the last event of the game"),
    N_("then the highest devotion wins"),
    N_("devotion (track space)"),
    N_("the top space wins at once"),
    N_("forgotten (left the game after the 4th conflict)"),
    N_("the last god standing wins"),
    N_("god merged into this one after the 3rd conflict (blank if none)"),
    N_("a merged god's two players win or lose together; list the merged god once"),
    N_("gods sharing a space, top of the stack first"),
    N_("comma-separated; blank if no two share a space"),
    N_("tiebreak token"),
    N_("top"),
    N_("merge"),
    N_("region"),
    N_("One god in one region: figures there, monuments controlled there, the card played."),
    N_("name"),
    N_("figures"),
    N_("god"),
    N_("desert"),
    N_("fertile"),
    N_("obelisk"),
    N_("temple"),
    N_("pyramid"),
    N_("card"),
    N_("bid"),
    N_("build"),
    N_("bonus"),
    N_("radiant"),
    N_("protected"),
    N_("before"),
    N_("stack order on the devotion track"),
    N_("No winner: every god is forgotten and Egypt turns atheist."),
    N_("No winner yet: give `final: true` after the last event to name the winner."),
    N_("Conflict, region by region"),
    N_("what"),
    N_("result"),
    N_("scenario"),
    N_("OldKingdom"),
    N_("MiddleKingdom"),
    N_("figures lost"),
    N_("followers"),
    N_("Glorious"),
    N_("Mighty"),
    N_("devotion"),
    N_("trapped warriors"),
    N_("radiant figures"),
    N_("protected figures"),
    N_("Ra's radiance (光輝なもの)"),
    N_("Isis's protection (保護するもの)"),
    N_("radiant figures (sun tokens) on the board"),
)


@dataclass
class Track:
    """The devotion track: a space per god plus a stacking order (a later arrival sits on top)."""

    space: dict[str, int]
    height: dict[str, int]
    top: int | None
    gained: dict[str, dict[str, int]] = field(default_factory=dict)
    winner: str | None = None  # the first god to reach the top space wins at once
    clock: int = 0  # arrivals so far: a later arrival sits higher in its stack

    def gain(self, amounts: dict[str, int], label: str) -> None:
        """Devotion gained at the same moment, applied from the least devoted god up."""
        for god in sorted((g for g, n in amounts.items() if n), key=self.order):
            if self.winner:
                return
            self.clock += 1
            self.space[god] += amounts[god]
            self.height[god] = self.clock
            self.gained.setdefault(god, {})
            self.gained[god][label] = self.gained[god].get(label, 0) + amounts[god]
            if self.top is not None and self.space[god] >= self.top:
                self.winner = god

    def order(self, god: str) -> tuple[int, int]:
        return (self.space[god], self.height[god])


@dataclass
class Outcome:
    """What happened in one region, for the log and the JSON details."""

    region: str
    kind: str
    text: str
    killed: dict[str, int] = field(default_factory=dict)
    strength: dict[str, int] = field(default_factory=dict)


def _majorities(monuments: dict[str, dict[str, int]], gods: list[str]) -> dict[str, int]:
    """Devotion from monument majorities: 1 per monument of a type where a god out-controls everyone."""
    gain = dict.fromkeys(gods, 0)
    for kind in MONUMENTS:
        held = monuments[kind]
        for god in gods:
            mine = held.get(god, 0)
            if mine and all(mine > n for other, n in held.items() if other != god):
                gain[god] += mine
    return gain


class Conflict:
    """Resolves the regions of one conflict event in order, keeping the track and the token."""

    def __init__(
        self, data: Input, ids: dict[str, str], cards: dict[str, dict[str, Any]], track: Track
    ) -> None:
        self.data = data
        self.ids = ids  # whose battle cards a god plays: a merged god plays the upper god's
        self.cards = cards
        self.track = track
        self.token = data.tiebreak_token
        self.token_used = False
        self.lost = dict.fromkeys(ids, 0)
        self.followers = dict.fromkeys(ids, 0)
        self.log: list[Outcome] = []
        players = {p.name: p for p in data.players}
        merged = {p.name: _gods_table().get((p.merged_with or "").lower(), "") for p in data.players}
        self.powers_of = {n: {ids[n], merged[n]} - {""} for n in ids}  # a merged god has both gods' powers
        self.ankh = {n: set(players[n].powers) for n in ids}
        self.trapped = {n: min(players[n].trapped, TRAPPED_MAX) for n in ids}

    def run(self) -> None:
        for region in self.data.regions:
            if self.track.winner:
                break
            present = [g for g, v in region.gods.items() if v.figures > 0]
            if not present:
                self.log.append(Outcome(region.name, EMPTY, Phrase(NOTHING)))
            elif len(present) == 1:
                self.dominate(region, present[0])
            else:
                self.battle(region, present)

    def _monuments(self, region: Region) -> dict[str, dict[str, int]]:
        return {kind: {g: getattr(v, kind) for g, v in region.gods.items()} for kind in MONUMENTS}

    def dominate(self, region: Region, god: str) -> None:
        majority = _majorities(self._monuments(region), [god])[god]
        self.track.gain({god: 1 + majority}, region.name)
        self.log.append(Outcome(region.name, DOMINANCE, Phrase(DOMINATES, god=god, majority=majority)))

    def _spared(self, god: str, v: InRegion) -> int:
        """Figures that cannot die here: the god figure, and Isis's protected figures."""
        protected = v.protected if PROTECTOR_GOD in self.powers_of[god] else 0
        return int(v.god) + protected

    def battle(self, region: Region, present: list[str]) -> None:
        here = {g: region.gods[g] for g in present}
        alive = {g: v.figures for g, v in here.items()}
        killed = dict.fromkeys(present, 0)
        played = {g: [self.card_id(c) for c in v.card] for g, v in here.items()}
        if any(PLAGUE in cs for cs in played.values()):
            bids = {g: v.bid for g, v in here.items()}
            best = max(bids.values())
            spared = [g for g, b in bids.items() if b == best]
            for g in present:
                if len(spared) > 1 or g != spared[0]:  # a tie for the highest bid spares nobody
                    dead = max(0, alive[g] - self._spared(g, here[g]))
                    killed[g] += dead
                    alive[g] -= dead
        monuments = self._monuments(region)
        for g in sorted(present, key=self.track.order):  # other cards: least devoted god first
            v = here[g]
            if BUILD in played[g] and v.build:
                monuments[v.build][g] = monuments[v.build].get(g, 0) + 1
            if FLOOD in played[g]:
                self.followers[g] += min(v.fertile, alive[g]) * (2 if "bountiful" in self.ankh[g] else 1)
        standing = [g for g in present if alive[g] > 0]
        self.track.gain(_majorities(monuments, standing), region.name)
        strength = {g: self._strength(g, here[g], alive[g], played[g], monuments) for g in standing}
        text, winner = self.resolve(strength)
        for g in present:
            if g != winner:
                dead = max(0, alive[g] - self._spared(g, here[g]))
                killed[g] += dead
                alive[g] -= dead
        if winner:
            for extra in self._won(winner, here[winner], alive[winner], strength, present, region.name):
                text = Phrase(AND, text=text, more=extra)
        dead_total = sum(killed.values())
        self.track.gain({g: dead_total for g in present if MIRACLE in played[g]}, region.name)
        for g, n in killed.items():
            self.lost[g] += n
        self.log.append(Outcome(region.name, BATTLE, text, killed, strength))

    def _strength(
        self, g: str, v: InRegion, alive: int, played: list[str], monuments: dict[str, dict[str, int]]
    ) -> int:
        """Figures + cards (Drought doubles desert figures) + bonus + Anubis's trapped + Glowing."""
        total = alive + sum(self.cards[c]["strength"].get(self.ids[g], 0) for c in played) + v.bonus
        if DROUGHT in played:
            total += min(v.desert, alive)  # doubled: each desert figure counts twice
        if JUDGE_GOD in self.powers_of[g]:
            total += self.trapped[g]
        if "glowing" in self.ankh[g]:
            total += sum(monuments[kind].get(g, 0) for kind in MONUMENTS)
        return total

    def _won(
        self, winner: str, v: InRegion, alive: int, strength: dict[str, int], present: list[str], label: str
    ) -> list[Phrase]:
        """The winner's 1 devotion, then Ra's radiance, Glorious and Mighty; Commanding's followers."""
        extra = []
        self.track.gain({winner: 1}, label)
        others = [strength.get(g, 0) for g in present if g != winner]  # a god wiped out counts 0
        margin = strength[winner] - max(others, default=0)
        gain = 0
        if RADIANT_GOD in self.powers_of[winner] and min(v.radiant, alive - int(v.god)) > 0:
            gain += 1
            extra.append(Phrase(RADIANT))
        for power in ("glorious", "mighty"):
            if power in self.ankh[winner] and margin >= WIN_MARGIN:
                gain += 1
                extra.append(Phrase(PLUS_ONE, power=Phrase(power.capitalize())))
        if gain:
            self.track.gain({winner: gain}, label)
        if "mighty" in self.ankh[winner] and margin >= WIN_MARGIN:
            losers = [g for g in present if g != winner]
            self.track.gain({g: -min(1, self.track.space[g]) for g in losers}, label)
            extra.append(Phrase(MIGHTY_LOSS, losers=losers))
        if "commanding" in self.ankh[winner]:
            self.followers[winner] += COMMANDING_FOLLOWERS
            extra.append(Phrase(COMMANDING, followers=COMMANDING_FOLLOWERS))
        return extra

    def resolve(self, strength: dict[str, int]) -> tuple[Phrase, str | None]:
        if not strength:
            return Phrase(LOCUSTS_TOOK_ALL), None
        best = max(strength.values())
        top = [g for g, s in strength.items() if s == best]
        shown = [f"{g} {s}" for g, s in strength.items()]
        if len(top) == 1:
            return Phrase(WINS, strength=shown, god=top[0]), top[0]
        if self.token in top and not self.token_used:
            self.token_used = True
            return Phrase(TOKEN_WINS, strength=shown, god=self.token), self.token
        return Phrase(ALL_LOSE, strength=shown), None

    def card_id(self, text: str) -> str:
        return card_id(text, self.cards)


def _column(label: str) -> str:
    return label if label == "merge" else Phrase(REGION_COLUMN, label=label)


def _gods(data: Input, source: Source, names: dict[str, str]) -> dict[str, str]:
    ids = {}
    problems = []
    known = sorted({v for v in names.values()})
    listed = {names.get(p.name.lower()) for p in data.players}
    for i, p in enumerate(data.players):
        god = names.get(p.name.lower())
        if god is None:
            problems.append(
                source.problem(
                    ("players", i, "name"), Phrase(checks.UNKNOWN_GOD, god=quoted(p.name), known=known)
                )
            )
        if p.merged_with is not None:
            other = names.get(p.merged_with.lower())
            at = ("players", i, "merged_with")
            if other is None:
                problems.append(
                    source.problem(at, Phrase(checks.UNKNOWN_GOD, god=quoted(p.merged_with), known=known))
                )
            elif other == god or other in listed:
                message = Phrase(
                    N_("{lower} is part of {name} now: list the merged god once"),
                    lower=p.merged_with,
                    name=p.name,
                )
                problems.append(source.problem(at, message))
        ids[p.name] = god or ""
    if problems:
        raise InputError(problems)
    return ids


def _spelling(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalnum())


def card_id(text: str, cards: dict[str, dict[str, Any]]) -> str:
    """A card's id from its id or English name, any case, spaces, hyphens or apostrophes."""
    key = _spelling(text)
    for card, info in cards.items():
        if key in (_spelling(card), _spelling(info["name"])):
            return card
    raise KeyError(text)


def _card_refs(data: Input, source: Source, cards: dict[str, dict[str, Any]]) -> None:
    spellings = {_spelling(c) for c in cards} | {_spelling(info["name"]) for info in cards.values()}
    expected = list(cards)
    refs: list[tuple[Path_, str]] = [
        (("regions", r, "gods", g, "card", k), c)
        for r, region in enumerate(data.regions)
        for g, v in region.gods.items()
        for k, c in enumerate(v.card)
    ]
    refs += [
        (("players", i, "used_cards", k), c)
        for i, p in enumerate(data.players)
        for k, c in enumerate(p.used_cards)
    ]
    problems = [
        source.problem(
            path,
            Phrase(N_("unknown battle card {card} (expected one of: {known})"), card=repr(c), known=expected),
        )
        for path, c in refs
        if _spelling(c) not in spellings
    ]
    if problems:
        raise InputError(problems)


def _check_counts(rules: Rules, at: Path_, god: str, v: InRegion, region: str) -> None:
    """Counts in one region: none negative, figures on terrain within the figures there."""
    for key in ("figures", "desert", "fertile", "bid", "bonus", "radiant", "protected", *MONUMENTS):
        rules.nonnegative(
            (*at, key), getattr(v, key), owned(god, Phrase(IN_REGION, what=Phrase.word(key), region=region))
        )
    if v.desert + v.fertile > v.figures:
        message = Phrase(
            TERRAIN, god=god, desert=v.desert, fertile=v.fertile, figures=v.figures, region=region
        )
        rules.error("terrain-count", at, message)
    if v.god and v.figures < 1:
        rules.error("god-figure", (*at, "god"), Phrase(GOD_ALONE, god=god, region=region))


class _CardCheck:
    """Battle cards over one conflict: used cards stay out until Cycle of Ma'at; Amun may double once."""

    def __init__(self, data: Input, conflict: Conflict, rules: Rules) -> None:
        self.conflict = conflict
        self.rules = rules
        self.used = {p.name: {conflict.card_id(c) for c in p.used_cards} for p in data.players}
        self.doubled: set[str] = set()

    def region(self, at: Path_, god: str, v: InRegion, region: Region) -> None:
        cards = [self.conflict.card_id(c) for c in v.card]
        name = region.name
        if cards and v.figures == 0:
            self.rules.error("card-without-figures", (*at, "card"), Phrase(NO_FIGURES, god=god, region=name))
        amun = TWO_CARDS_GOD in self.conflict.powers_of[god] and god not in self.doubled
        if len(cards) > 2 or (len(cards) == 2 and not amun):
            message = Phrase(TWO_CARDS, god=god, count=len(cards), region=name)
            self.rules.error("two-cards", (*at, "card"), message)
        if len(cards) == 2:
            self.doubled.add(god)
        again = [c for i, c in enumerate(cards) if c in self.used[god] or c in cards[:i]]
        if again:
            card = Phrase.word(self.conflict.cards[again[0]]["name"])
            self.rules.error("card-already-used", (*at, "card"), Phrase(USED, god=god, card=card))
        self.used[god] = set() if CYCLE in cards else self.used[god] | set(cards)
        everyone = {self.conflict.card_id(c) for w in region.gods.values() for c in w.card}
        if v.bid and PLAGUE not in everyone:
            message = Phrase(BID, god=god, region=name)
            self.rules.error("bid-without-plague", (*at, "bid"), message)
        if v.build and BUILD not in cards:
            message = Phrase(BUILD_NO_CARD, god=god, monument=Phrase.word(v.build), region=name)
            self.rules.error("build-without-card", (*at, "build"), message)
        if BUILD in cards and not v.build:
            message = Phrase(BUILD_WHAT, god=god, region=name)
            self.rules.error("build-what", (*at, "card"), message)


# A count that only one god's power gives: (key, god id, power's name, what the count is).
POWER_COUNTS = (
    ("radiant", RADIANT_GOD, "Ra's radiance (光輝なもの)", "radiant figures"),
    ("protected", PROTECTOR_GOD, "Isis's protection (保護するもの)", "protected figures"),
)


def _check_powers(rules: Rules, at: Path_, god: str, v: InRegion, region: str, powers: set[str]) -> None:
    """Radiant and protected figures: only that god's, never the god figure itself, at most the rest."""
    for key, owner, power, what in POWER_COUNTS:
        count = getattr(v, key)
        if count and owner not in powers:
            message = Phrase(
                NOT_HELD, god=god, what=Phrase.word(what), region=region, power=Phrase.word(power)
            )
            rules.error("power-not-held", (*at, key), message)
        elif count > v.figures - int(v.god):
            warriors = v.figures - int(v.god)
            message = Phrase(
                TOO_MANY_FIGURES,
                god=god,
                count=count,
                what=Phrase.word(what),
                region=region,
                warriors=warriors,
            )
            rules.error(f"{key}-count", (*at, key), message)


def _check_players(data: Input, rules: Rules, conflict: Conflict) -> None:
    for i, p in enumerate(data.players):
        rules.nonnegative(("players", i, "devotion"), p.devotion, owned(p.name, "devotion"))
        rules.nonnegative(("players", i, "trapped"), p.trapped, owned(p.name, "trapped warriors"))
        if p.trapped and JUDGE_GOD not in conflict.powers_of[p.name]:
            rules.error("power-not-held", ("players", i, "trapped"), Phrase(TRAPPED, name=p.name))
    sun = sum(v.radiant for region in data.regions for v in region.gods.values())
    rules.at_most("radiant-count", ("regions",), sun, SUN_TOKENS, "radiant figures (sun tokens) on the board")
    standing = [p for p in data.players if not p.forgotten]
    if data.merge and len(standing) < MERGE_MIN_GODS:
        message = Phrase(MERGE_FEW, least=MERGE_MIN_GODS, count=len(standing))
        rules.error("merge-needs-three", ("merge",), message)
    if data.merge and any(p.merged_with for p in data.players):
        rules.error(
            "merge-twice",
            ("merge",),
            Phrase(MERGE_TWICE),
        )


def _check(data: Input, source: Source, conflict: Conflict) -> None:
    rules = Rules(GAME, source)
    cards = _CardCheck(data, conflict, rules)
    god_region: dict[str, str] = {}
    built = dict.fromkeys(MONUMENTS, 0)
    _check_players(data, rules, conflict)
    for r, region in enumerate(data.regions):
        for god, v in region.gods.items():
            at = ("regions", r, "gods", god)
            _check_counts(rules, at, god, v, region.name)
            _check_powers(rules, at, god, v, region.name, conflict.powers_of[god])
            for kind in MONUMENTS:
                built[kind] += getattr(v, kind)
            if v.god and god in god_region:
                message = Phrase(GOD_TWICE, god=god, first=god_region[god], second=region.name)
                rules.error("god-figure", (*at, "god"), message)
            if v.god:
                god_region[god] = region.name
            cards.region(at, god, v, region)
    for kind, n in built.items():
        rules.at_most(
            "too-many-monuments",
            ("regions",),
            n,
            MONUMENTS_PER_TYPE,
            Phrase(MONUMENTS_HELD, kind=Phrase.word(kind)),
        )
    rules.done()


PLAYED = ("card", "bid", "build", "bonus", "radiant")  # what a score file adds to a set-up


def _pieces(loaded: Any, data: Input, ids: dict[str, str], source: Source) -> dict[int, str]:
    """Seat number in the set-up → the score file's name for that god."""
    seats = {s.seat: s.god for s in loaded.setup.seats}
    if loaded.setup.players != len(data.players):
        message = Phrase(
            N_("the set-up is for {players} players, this file lists {count}"),
            players=loaded.setup.players,
            count=len(data.players),
        )
        raise InputError([source.problem(("players",), message)])
    if not seats:  # no seats in the set-up: player 1 is the first god listed here
        return {i + 1: p.name for i, p in enumerate(data.players)}
    by_god = {ids[p.name]: p.name for p in data.players}
    missing = [god for god in seats.values() if god not in by_god]
    if missing:
        message = Phrase(N_("the set-up seats {gods}, who is not listed in players"), gods=list(missing))
        raise InputError([source.problem(("players",), message)])
    return {seat: by_god[god] for seat, god in seats.items()}


def _protectors(data: Input, ids: dict[str, str]) -> set[str]:
    """The gods with Isis's power: Isis, or a god Isis merged into."""
    merged = {p.name: _gods_table().get((p.merged_with or "").lower()) for p in data.players}
    return {name for name in ids if PROTECTOR_GOD in (ids[name], merged[name])}


def _protected(
    pieces: list[Any],
    who: dict[int, str],
    walls: set[frozenset[Hex]],
    number: dict[Hex, int],
    protectors: set[str],
) -> list[tuple[Hex, str]]:
    """Isis's warriors next to an enemy figure in the same region (保護するもの): (cell, god) each."""
    figures = {p.at: who[p.player] for p in pieces if p.player is not None and p.piece in ("warrior", "god")}
    found = []
    for p in pieces:
        if p.player is None or p.piece != "warrior" or who[p.player] not in protectors or p.at not in number:
            continue
        near = [
            n
            for n in hexgrid.neighbours(p.at)
            if frozenset((p.at, n)) not in walls and number.get(n) == number[p.at]
        ]
        if any(n in figures and figures[n] != who[p.player] for n in near):
            found.append((p.at, who[p.player]))
    return found


def regions_from_setup(data: Input, source: Source, ids: dict[str, str]) -> list[Region]:
    """The conflict's regions read off a set-up file: figures, terrain under them, monuments.

    Regions come in conflict order (the set-up's `conflict_order` tokens); the score file's own
    `regions` entries, named by token number, add only what was played there (cards, bids, builds).
    """
    assert data.setup is not None
    loaded = linked_setup(source, ("setup",), data.setup, GAME)
    report = checks.check(loaded.setup, loaded.source)
    if not report.valid:
        raise RulesBroken(report)
    board = checks.board(loaded.setup)
    walls = set(board.river) | {frozenset(side) for caravan in loaded.setup.caravans for side in caravan}
    found = checks.regions(board, walls)
    if not loaded.setup.conflict_order:
        raise InputError(
            [
                source.problem(
                    ("setup",), Phrase(N_("the set-up gives no conflict_order: regions need their order"))
                )
            ]
        )
    number = {}
    for token in loaded.setup.conflict_order:
        number.update({cell: token.token for cell in next(r for r in found if token.region in r)})
    who = _pieces(loaded, data, ids, source)
    built: dict[int, dict[str, dict[str, int]]] = {t.token: {} for t in loaded.setup.conflict_order}
    for piece in loaded.setup.pieces:
        if piece.player is None or piece.at not in number:
            continue  # neutral monuments count for nobody
        entry = built[number[piece.at]].setdefault(who[piece.player], {})
        if piece.piece in ("warrior", "god"):
            entry["figures"] = entry.get("figures", 0) + 1
            terrain = board.terrain[piece.at]
            entry[terrain] = entry.get(terrain, 0) + 1
            entry["god"] = entry.get("god", 0) or int(piece.piece == "god")
        else:
            entry[piece.piece] = entry.get(piece.piece, 0) + 1
    for cell, name in _protected(loaded.setup.pieces, who, walls, number, _protectors(data, ids)):
        entry = built[number[cell]][name]
        entry["protected"] = entry.get("protected", 0) + 1
    given = {r.name: (i, r) for i, r in enumerate(data.regions)}
    problems = [
        source.problem(
            ("regions", i, "name"),
            Phrase(N_("no region with conflict order token {token} in the set-up"), token=name),
        )
        for name, (i, _) in given.items()
        if not name.isdigit() or int(name) not in built
    ]
    for i, region in given.values():
        for god, v in region.gods.items():
            extra = sorted(v.model_fields_set - set(PLAYED))
            if extra:
                message = Phrase(
                    N_("{keys} come(s) from the set-up file; here give only {played}"),
                    keys=list(extra),
                    played=list(PLAYED),
                )
                problems.append(source.problem(("regions", i, "gods", god, extra[0]), message))
    if problems:
        raise InputError(problems)
    out = []
    for token in sorted(built):
        gods = {
            name: InRegion(**{**counts, "god": bool(counts.get("god"))})
            for name, counts in built[token].items()
        }
        if str(token) in given:
            for god, played in given[str(token)][1].gods.items():
                base = gods.get(god, InRegion())
                gods[god] = base.model_copy(update={k: getattr(played, k) for k in played.model_fields_set})
        out.append(Region(name=str(token), gods=gods))
    return out


def score(data: Input, source: Source) -> ScoreResult:
    names = [p.name for p in data.players]
    refs: list[tuple[Path_, str]] = [(("stack", i), n) for i, n in enumerate(data.stack)]
    if data.tiebreak_token:
        refs.append((("tiebreak_token",), data.tiebreak_token))
    refs += [(("regions", r, "gods", g), g) for r, region in enumerate(data.regions) for g in region.gods]
    known_names(source, refs, names, "god")
    ids = _gods(data, source, _gods_table())
    if data.setup is not None:
        data.regions = regions_from_setup(data, source, ids)
    cards = _cards_table()
    _card_refs(data, source, cards)
    stacked = {n: len(data.stack) - i for i, n in enumerate(data.stack)}  # top of the stack listed first
    space = {p.name: p.devotion for p in data.players}
    track = Track(space, {n: stacked.get(n, 0) for n in names}, data.top, clock=len(data.stack))
    conflict = Conflict(data, ids, cards, track)
    _check(data, source, conflict)
    conflict.run()
    merged = merge(data, track) if data.merge and not track.winner else None
    return _result(data, track, conflict, merged)


def merge(data: Input, track: Track) -> tuple[str, str]:
    """神々の融合: the two least devoted gods merge; the upper one's token drops onto the lower one's.

    Returns (upper, lower). The upper god's token sits on top of the lower's, on the lower's space.
    """
    standing = sorted((p.name for p in data.players if not p.forgotten), key=track.order)
    lower, upper = standing[0], standing[1]
    track.clock += 1
    drop = track.space[lower] - track.space[upper]
    track.space[upper] = track.space[lower]
    track.height[upper] = track.clock
    if drop:
        track.gained.setdefault(upper, {})["merge"] = drop
    return upper, lower


def _result(data: Input, track: Track, conflict: Conflict, merged: tuple[str, str] | None) -> ScoreResult:
    labels = [r.name for r in data.regions] + (["merge"] if merged else [])
    rows = []
    for p in data.players:
        gains = track.gained.get(p.name, {})
        breakdown = {"before": p.devotion, **{_column(r): gains.get(r, 0) for r in labels}}
        info: dict[str, int | str] = {"figures lost": conflict.lost[p.name]}
        if any(conflict.followers.values()):
            info["followers"] = conflict.followers[p.name]
        rows.append(PlayerScore(p.name, breakdown, info=info))
    standing = [p.name for p in data.players if not p.forgotten]
    notes = []
    if merged:
        upper, lower = merged
        notes.append(Phrase(MERGED, upper=upper, lower=lower, space=track.space[upper]))
        standing.remove(lower)
    notes += [Phrase(MERGED_BEFORE, name=p.name, lower=p.merged_with) for p in data.players if p.merged_with]
    eligible: list[str] = []
    verdict = None
    if track.winner:
        eligible = [track.winner]
        notes.append(Phrase(REACHED_TOP, god=track.winner, top=data.top))
    elif len(standing) == 1:
        eligible = standing
        notes.append(Phrase(LAST_STANDING, god=standing[0]))
    elif not standing:
        verdict = "No winner: every god is forgotten and Egypt turns atheist."
    elif data.final:
        eligible = standing
    else:
        verdict = "No winner yet: give `final: true` after the last event to name the winner."
    log = Table(
        "Conflict, region by region",
        ["region", "what", "result"],
        [[o.region, o.kind, o.text] for o in conflict.log],
    )
    details = {
        "regions": [
            {"region": o.region, "kind": o.kind, "result": o.text, "strength": o.strength, "killed": o.killed}
            for o in conflict.log
        ],
        "figures_lost": conflict.lost,
        "followers_gained": conflict.followers,
        "tiebreak_token_used": conflict.token_used,
        "merged": {"upper": merged[0], "lower": merged[1]} if merged else None,
    }
    stack = TieBreak("stack order on the devotion track", lambda god: track.height[god])
    return ScoreResult.ranked(
        GAME,
        rows,
        [stack],
        eligible=eligible,
        notes=notes,
        tables=[log] if conflict.log else [],
        details=details,
        verdict=verdict,
    )
