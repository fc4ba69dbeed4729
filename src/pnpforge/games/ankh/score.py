"""Ankh: Gods of Egypt: a conflict, region by region, and the winner (seed 001, 紛争, 勝利条件).

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
right. Card strengths come from `battle_cards.csv` (Drought +2 and Flood +0 from the seed; the
rest are assumptions kept there as data).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator

from pnpforge.errors import InputError
from pnpforge.scoring import (
    Count,
    Field,
    Flag,
    Name,
    PlayerEntry,
    PlayerScore,
    Rules,
    ScoreResult,
    Strict,
    Table,
    TieBreak,
)
from pnpforge.scoring.inputs import RulesBroken, known_names
from pnpforge.scoring.linked import linked_setup
from pnpforge.sourcefile import Path_, Source, read_csv

HERE = Path(__file__).parent
MONUMENTS = ("obelisk", "temple", "pyramid")
MONUMENTS_PER_TYPE = 10  # seed, コンポーネント: 10 tokens of each monument
PLAGUE, BUILD, CYCLE, DROUGHT, FLOOD, MIRACLE = (
    "plague-of-locusts",
    "build-monument",
    "cycle-of-maat",
    "drought",
    "flood",
    "miracle",
)
TWO_CARDS_GOD = "amun"  # Mysterious Form: two battle cards in one battle per conflict


def _cards_table() -> dict[str, dict[str, Any]]:
    """Card id → {name, strength by god}; names and ids are both accepted in score files."""
    table = read_csv(HERE / "battle_cards.csv")
    cards: dict[str, dict[str, Any]] = {}
    for row in table.rows:
        card = cards.setdefault(row["card"], {"name": row["name_en"], "strength": {}})
        card["strength"][row["god"]] = int(row["strength"])
    return cards


def _gods_table() -> dict[str, str]:
    """Every spelling a player may use for a god (id, English name) → god id."""
    names: dict[str, str] = {}
    for row in read_csv(HERE / "gods.csv").rows:
        names[row["god"].lower()] = row["god"]
        names[row["name_en"].lower()] = row["god"]
    return names


def _one_or_two(value: Any) -> Any:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return value
    raise ValueError("expected a battle card name, or a list of two for Amun's Mysterious Form")


Cards = Annotated[list[str], BeforeValidator(_one_or_two)]


class InRegion(Strict):
    """One god in one region: figures there, monuments controlled there, the card played."""

    figures: Count = 0
    god: Flag = False  # the god figure itself is among `figures` (gods are never killed)
    desert: Count = 0
    fertile: Count = 0
    obelisk: Count = 0
    temple: Count = 0
    pyramid: Count = 0
    card: Cards = []
    bid: Count = 0
    build: Literal["obelisk", "temple", "pyramid"] | None = None
    bonus: Count = 0


def _label(value: Any) -> Any:
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    if not isinstance(value, str) or not value.strip():
        raise ValueError("expected a region name or its conflict order number")
    return value.strip()


class Region(Strict):
    name: Annotated[str, BeforeValidator(_label)]
    gods: dict[str, InRegion] = {}


class Player(PlayerEntry):
    devotion: Count = 0
    forgotten: Flag = False
    used_cards: list[str] = []


class Input(Strict):
    game: Literal["ankh"]
    players: list[Player]
    stack: list[Name] = []
    tiebreak_token: Name | None = None
    regions: list[Region] = []
    setup: str | dict[str, Any] | None = None  # an Ankh set-up file (path or inline) to read regions from
    top: Count | None = None
    final: Flag = False


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
        "stack",
        "gods sharing a space, top of the stack first",
        "comma-separated; blank if no two share a space",
        kind="names",
        per_player=False,
        after=True,
    ),
]


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
        self.ids = ids
        self.cards = cards
        self.track = track
        self.token = data.tiebreak_token
        self.token_used = False
        self.lost = dict.fromkeys(ids, 0)
        self.followers = dict.fromkeys(ids, 0)
        self.log: list[Outcome] = []

    def run(self) -> None:
        for region in self.data.regions:
            if self.track.winner:
                break
            present = [g for g, v in region.gods.items() if v.figures > 0]
            if not present:
                self.log.append(Outcome(region.name, "empty", "no figures: nothing happens"))
            elif len(present) == 1:
                self.dominate(region, present[0])
            else:
                self.battle(region, present)

    def _monuments(self, region: Region) -> dict[str, dict[str, int]]:
        return {kind: {g: getattr(v, kind) for g, v in region.gods.items()} for kind in MONUMENTS}

    def dominate(self, region: Region, god: str) -> None:
        majority = _majorities(self._monuments(region), [god])[god]
        self.track.gain({god: 1 + majority}, region.name)
        text = f"{god} dominates: +1, +{majority} for monument majorities"
        self.log.append(Outcome(region.name, "dominance", text))

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
                    dead = alive[g] - int(here[g].god)
                    killed[g] += dead
                    alive[g] -= dead
        monuments = self._monuments(region)
        for g in sorted(present, key=self.track.order):  # other cards: least devoted god first
            v = here[g]
            if BUILD in played[g] and v.build:
                monuments[v.build][g] = monuments[v.build].get(g, 0) + 1
            if FLOOD in played[g]:
                self.followers[g] += min(v.fertile, alive[g])
        standing = [g for g in present if alive[g] > 0]
        self.track.gain(_majorities(monuments, standing), region.name)
        strength = {
            g: alive[g]
            + sum(self.cards[c]["strength"].get(self.ids[g], 0) for c in played[g])
            + here[g].bonus
            for g in standing
        }
        for g in standing:
            if DROUGHT in played[g]:
                strength[g] += min(here[g].desert, alive[g])  # doubled: each desert figure counts twice
        text, winner = self.resolve(strength)
        for g in present:
            if g != winner:
                dead = alive[g] - int(here[g].god)
                killed[g] += max(0, dead)
                alive[g] -= max(0, dead)
        if winner:
            self.track.gain({winner: 1}, region.name)
        dead_total = sum(killed.values())
        self.track.gain({g: dead_total for g in present if MIRACLE in played[g]}, region.name)
        for g, n in killed.items():
            self.lost[g] += n
        self.log.append(Outcome(region.name, "battle", text, killed, strength))

    def resolve(self, strength: dict[str, int]) -> tuple[str, str | None]:
        if not strength:
            return "every figure fell to the locusts: nobody wins", None
        best = max(strength.values())
        top = [g for g, s in strength.items() if s == best]
        shown = ", ".join(f"{g} {s}" for g, s in strength.items())
        if len(top) == 1:
            return f"strength {shown}: {top[0]} wins", top[0]
        if self.token in top and not self.token_used:
            self.token_used = True
            return f"strength {shown}: tie, {self.token} wins with the tie-break token", self.token
        return f"strength {shown}: tie, everyone loses and every figure there dies", None

    def card_id(self, text: str) -> str:
        return card_id(text, self.cards)


def _gods(data: Input, source: Source, names: dict[str, str]) -> dict[str, str]:
    ids = {}
    problems = []
    for i, p in enumerate(data.players):
        god = names.get(p.name.lower())
        if god is None:
            known = ", ".join(sorted({v for v in names.values()}))
            problems.append(
                source.problem(("players", i, "name"), f"unknown god {p.name!r} (expected one of: {known})")
            )
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
    expected = ", ".join(cards)
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
        source.problem(path, f"unknown battle card {c!r} (expected one of: {expected})")
        for path, c in refs
        if _spelling(c) not in spellings
    ]
    if problems:
        raise InputError(problems)


def _check_counts(rules: Rules, at: Path_, god: str, v: InRegion, region: str) -> None:
    """Counts in one region: none negative, figures on terrain within the figures there."""
    for key in ("figures", "desert", "fertile", "bid", "bonus", *MONUMENTS):
        rules.nonnegative((*at, key), getattr(v, key), f"{god}'s {key} in region {region}")
    if v.desert + v.fertile > v.figures:
        message = (
            f"{god} has {v.desert} on desert and {v.fertile} on fertile spaces but only {v.figures} figures"
        )
        rules.error("terrain-count", at, f"{message} in region {region}")
    if v.god and v.figures < 1:
        rules.error("god-figure", (*at, "god"), f"{god}'s god figure is in region {region} with no figures")


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
            self.rules.error(
                "card-without-figures", (*at, "card"), f"{god} plays a card in {name} with no figures"
            )
        amun = self.conflict.ids[god] == TWO_CARDS_GOD and god not in self.doubled
        if len(cards) > 2 or (len(cards) == 2 and not amun):
            message = f"{god} plays {len(cards)} cards in {name}; only Amun may play two, once per conflict"
            self.rules.error("two-cards", (*at, "card"), message)
        if len(cards) == 2:
            self.doubled.add(god)
        again = [c for i, c in enumerate(cards) if c in self.used[god] or c in cards[:i]]
        if again:
            message = (
                f"{god} already played {self.conflict.cards[again[0]]['name']} and has not taken it back"
            )
            self.rules.error("card-already-used", (*at, "card"), f"{message} with Cycle of Ma'at")
        self.used[god] = set() if CYCLE in cards else self.used[god] | set(cards)
        everyone = {self.conflict.card_id(c) for w in region.gods.values() for c in w.card}
        if v.bid and PLAGUE not in everyone:
            message = f"{god} bids followers in {name} but nobody played Plague of Locusts"
            self.rules.error("bid-without-plague", (*at, "bid"), message)
        if v.build and BUILD not in cards:
            message = f"{god} builds a {v.build} in {name} without Build Monument"
            self.rules.error("build-without-card", (*at, "build"), message)
        if BUILD in cards and not v.build:
            message = f"{god} plays Build Monument in {name}: say which monument with `build:`"
            self.rules.error("build-what", (*at, "card"), message)


def _check(data: Input, source: Source, conflict: Conflict) -> None:
    rules = Rules("ankh", source)
    cards = _CardCheck(data, conflict, rules)
    god_region: dict[str, str] = {}
    built = dict.fromkeys(MONUMENTS, 0)
    for i, p in enumerate(data.players):
        rules.nonnegative(("players", i, "devotion"), p.devotion, f"{p.name}'s devotion")
    for r, region in enumerate(data.regions):
        for god, v in region.gods.items():
            at = ("regions", r, "gods", god)
            _check_counts(rules, at, god, v, region.name)
            for kind in MONUMENTS:
                built[kind] += getattr(v, kind)
            if v.god and god in god_region:
                message = f"{god}'s god figure is in both {god_region[god]} and {region.name}"
                rules.error("god-figure", (*at, "god"), message)
            if v.god:
                god_region[god] = region.name
            cards.region(at, god, v, region)
    for kind, n in built.items():
        rules.at_most(
            "too-many-monuments", ("regions",), n, MONUMENTS_PER_TYPE, f"{kind}s controlled on the board"
        )
    rules.done()


PLAYED = ("card", "bid", "build", "bonus")  # what a score file adds to a region read from a set-up


def _pieces(loaded: Any, data: Input, ids: dict[str, str], source: Source) -> dict[int, str]:
    """Seat number in the set-up → the score file's name for that god."""
    seats = {s.seat: s.god for s in loaded.setup.seats}
    if loaded.setup.players != len(data.players):
        message = f"the set-up is for {loaded.setup.players} players, this file lists {len(data.players)}"
        raise InputError([source.problem(("players",), message)])
    if not seats:  # no seats in the set-up: player 1 is the first god listed here
        return {i + 1: p.name for i, p in enumerate(data.players)}
    by_god = {ids[p.name]: p.name for p in data.players}
    missing = [god for god in seats.values() if god not in by_god]
    if missing:
        message = f"the set-up seats {', '.join(missing)}, who is not listed in players"
        raise InputError([source.problem(("players",), message)])
    return {seat: by_god[god] for seat, god in seats.items()}


def regions_from_setup(data: Input, source: Source, ids: dict[str, str]) -> list[Region]:
    """The conflict's regions read off a set-up file: figures, terrain under them, monuments.

    Regions come in conflict order (the set-up's `conflict_order` tokens); the score file's own
    `regions` entries, named by token number, add only what was played there (cards, bids, builds).
    """
    assert data.setup is not None
    loaded = linked_setup(source, ("setup",), data.setup, "ankh")
    report = loaded.checks.check(loaded.setup, loaded.source)
    if not report.valid:
        raise RulesBroken(report)
    board = loaded.checks.board(loaded.setup)
    walls = set(board.river) | {frozenset(side) for caravan in loaded.setup.caravans for side in caravan}
    found = loaded.checks.regions(board, walls)
    if not loaded.setup.conflict_order:
        raise InputError(
            [source.problem(("setup",), "the set-up gives no conflict_order: regions need their order")]
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
    given = {r.name: (i, r) for i, r in enumerate(data.regions)}
    problems = [
        source.problem(("regions", i, "name"), f"no region with conflict order token {name} in the set-up")
        for name, (i, _) in given.items()
        if not name.isdigit() or int(name) not in built
    ]
    for i, region in given.values():
        for god, v in region.gods.items():
            extra = sorted(v.model_fields_set - set(PLAYED))
            if extra:
                message = (
                    f"{', '.join(extra)} come(s) from the set-up file; here give only {', '.join(PLAYED)}"
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
    return _result(data, track, conflict)


def _result(data: Input, track: Track, conflict: Conflict) -> ScoreResult:
    labels = [r.name for r in data.regions]
    rows = []
    for p in data.players:
        gains = track.gained.get(p.name, {})
        breakdown = {"before": p.devotion, **{f"region {r}": gains.get(r, 0) for r in labels}}
        info: dict[str, int | str] = {"figures lost": conflict.lost[p.name]}
        if any(conflict.followers.values()):
            info["followers"] = conflict.followers[p.name]
        rows.append(PlayerScore(p.name, breakdown, info=info))
    standing = [p.name for p in data.players if not p.forgotten]
    notes = []
    eligible: list[str] = []
    verdict = None
    if track.winner:
        eligible = [track.winner]
        notes.append(f"{track.winner} reached the top of the devotion track ({data.top}) and wins at once.")
    elif len(standing) == 1:
        eligible = standing
        notes.append(f"{standing[0]} is the last god standing.")
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
    }
    stack = TieBreak("stack order on the devotion track", lambda god: track.height[god])
    return ScoreResult.ranked(
        "ankh",
        rows,
        [stack],
        eligible=eligible,
        notes=notes,
        tables=[log] if conflict.log else [],
        details=details,
        verdict=verdict,
    )
