"""Everything a game may use from pnpforge, in one place: a game folder imports from here and nowhere
else in pnpforge (its own modules it imports relatively: `from . import checks`). A test holds that.

- the contract: `Game` and its hook records (`SetupRules`, `Dealer`, `Scorer`, `Caravans`), the
  protocols their functions follow (`Check`, `Picture`, `Deal`, `Score`), and `folder_id`
  (pnpforge.contract);
- words: `N_` to mark a message, `Phrase` and `series` for a sentence with values (pnpforge.i18n);
- input: `Source` (a file read with its positions), `Path_`, `read_yaml`, `validate`, `InputError`,
  `quoted`, `unknown` (pnpforge.sourcefile, pnpforge.errors), and `kit` (the game's own data files:
  `kit.rows`, `kit.column`, `kit.numbers`, `kit.copies`);
- set-ups: `SetupModel`, `Coord`, `Side`, `Rotation`, `player_count`, `COMMAND_LINE`, `option_bool`,
  `option_int`, `reject_unknown_options` (pnpforge.validator.setupkit), `Report`, the set-up picture
  (`BoardPicture`, `CellShape`, `PieceMark`, `HeavyEdge`, `hex_centre`, `hex_points`, `side_points`,
  `legend_of`, `spread`) and the geometry (`hexgrid`, `Hex`, `Vertex`; cells, lattice and side helpers);
- scores: `Strict`, `Count`, `Name`, `Flag`, `PlayerEntry`, `Rules`, `RulesBroken`, `known_names`,
  `owned`, `Field`, `PlayerScore`, `ScoreResult`, `Table`, `TieBreak` (pnpforge.scoring), and
  `linked_setup` (a set-up file named or held in a score file);
- models: `BaseModel`, `ConfigDict`, `Key` (pydantic's `Field`: default, bounds, title), `StrictInt`,
  `StrictBool`, `AfterValidator`, `BeforeValidator`, `Discriminator`, `Tag`, `field_validator`: pydantic's
  names, checked by pydantic_core without pydantic's model machinery (pnpforge.lightmodel);
- rules as data: `data_scorer`, `data_setup`, `data_dealer` and `data_names`, the hooks and words of a
  game.yaml's `scoring:` and `setup:` sections (pnpforge.gamedata), for a game that has Python too;
  `data_rules` and its `SetupTable`, `SetupBoard`, `PlacedPiece`: the `setup:` rules run on a board and
  pieces the game's own code hands over (pnpforge.validator.rulebook).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pnpforge.lazy import exports

if TYPE_CHECKING:  # at run time each name is imported from its module when a game first asks for it
    from pnpforge import kit
    from pnpforge.contract import (
        BoardCounts,
        Caravans,
        Check,
        Deal,
        Dealer,
        Game,
        Picture,
        Score,
        Scorer,
        SetupRules,
        folder_id,
    )
    from pnpforge.errors import InputError, quoted, unknown
    from pnpforge.gamedata import data_dealer, data_names, data_rules, data_scorer, data_setup
    from pnpforge.geometry import hexgrid
    from pnpforge.geometry.cells import adjacency, components, hex_adjacency, hex_outer_edge, polygon_cell
    from pnpforge.geometry.hexgrid import Hex, Vertex
    from pnpforge.geometry.lattice import LatticeCell, Triangle, hex_lattice, lattice_adjacency
    from pnpforge.geometry.split import side_path, side_vertices
    from pnpforge.i18n import N_
    from pnpforge.lightmodel import (
        AfterValidator,
        BaseModel,
        BeforeValidator,
        ConfigDict,
        Discriminator,
        Key,
        StrictBool,
        StrictInt,
        Tag,
        field_validator,
    )
    from pnpforge.phrase import Phrase, series
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
    from pnpforge.scoring.sheet import PlayerScore, ScoreResult, Table, TieBreak
    from pnpforge.sourcefile import Path_, Source, read_yaml, validate
    from pnpforge.table.linked import linked_setup
    from pnpforge.validator.picture import (
        BoardPicture,
        CellShape,
        HeavyEdge,
        PieceMark,
        hex_centre,
        hex_points,
        legend_of,
        side_points,
        spread,
    )
    from pnpforge.validator.report import Report
    from pnpforge.validator.rulebook import PlacedPiece, SetupBoard, SetupTable
    from pnpforge.validator.setupkit import (
        COMMAND_LINE,
        Coord,
        Rotation,
        SetupModel,
        Side,
        option_bool,
        option_int,
        player_count,
        reject_unknown_options,
    )

# where each name lives: `from pnpforge.gamekit import Report` imports pnpforge.validator.report only then,
# so a command that only scores never loads the set-up engine's modules, and the reverse
__getattr__, __dir__ = exports(
    __name__,
    {
        **dict.fromkeys(
            ("AfterValidator", "BaseModel", "BeforeValidator", "ConfigDict", "Discriminator", "Key")
            + ("StrictBool", "StrictInt", "Tag", "field_validator"),
            "pnpforge.lightmodel",
        ),
        "adjacency": "pnpforge.geometry.cells",
        "BoardPicture": "pnpforge.validator.picture",
        "Caravans": "pnpforge.contract",
        "data_dealer": "pnpforge.gamedata",
        "data_names": "pnpforge.gamedata",
        "data_rules": "pnpforge.gamedata",
        "data_scorer": "pnpforge.gamedata",
        "data_setup": "pnpforge.gamedata",
        "CellShape": "pnpforge.validator.picture",
        "Check": "pnpforge.contract",
        "COMMAND_LINE": "pnpforge.validator.setupkit",
        "components": "pnpforge.geometry.cells",
        "Coord": "pnpforge.validator.setupkit",
        "Count": "pnpforge.scoring.inputs",
        "Deal": "pnpforge.contract",
        "Dealer": "pnpforge.contract",
        "Field": "pnpforge.scoring.prompts",
        "Flag": "pnpforge.scoring.inputs",
        "folder_id": "pnpforge.contract",
        "Game": "pnpforge.contract",
        "HeavyEdge": "pnpforge.validator.picture",
        "Hex": "pnpforge.geometry.hexgrid",
        "hex_adjacency": "pnpforge.geometry.cells",
        "hex_centre": "pnpforge.validator.picture",
        "hex_lattice": "pnpforge.geometry.lattice",
        "hex_outer_edge": "pnpforge.geometry.cells",
        "hex_points": "pnpforge.validator.picture",
        "hexgrid": "pnpforge.geometry.hexgrid",
        "InputError": "pnpforge.errors",
        "kit": "pnpforge.kit",
        "known_names": "pnpforge.scoring.inputs",
        "lattice_adjacency": "pnpforge.geometry.lattice",
        "LatticeCell": "pnpforge.geometry.lattice",
        "legend_of": "pnpforge.validator.picture",
        "linked_setup": "pnpforge.table.linked",
        "N_": "pnpforge.i18n",
        "Name": "pnpforge.scoring.inputs",
        "option_bool": "pnpforge.validator.setupkit",
        "option_int": "pnpforge.validator.setupkit",
        "owned": "pnpforge.scoring.inputs",
        "Path_": "pnpforge.sourcefile",
        "Phrase": "pnpforge.phrase",
        "Picture": "pnpforge.contract",
        "PieceMark": "pnpforge.validator.picture",
        "PlacedPiece": "pnpforge.validator.rulebook",
        "player_count": "pnpforge.validator.setupkit",
        "PlayerEntry": "pnpforge.scoring.inputs",
        "PlayerScore": "pnpforge.scoring.sheet",
        "polygon_cell": "pnpforge.geometry.cells",
        "quoted": "pnpforge.errors",
        "read_yaml": "pnpforge.sourcefile",
        "reject_unknown_options": "pnpforge.validator.setupkit",
        "Report": "pnpforge.validator.report",
        "Rotation": "pnpforge.validator.setupkit",
        "Rules": "pnpforge.scoring.inputs",
        "RulesBroken": "pnpforge.scoring.inputs",
        "Score": "pnpforge.contract",
        "Scorer": "pnpforge.contract",
        "BoardCounts": "pnpforge.contract",
        "ScoreResult": "pnpforge.scoring.sheet",
        "series": "pnpforge.phrase",
        "SetupBoard": "pnpforge.validator.rulebook",
        "SetupModel": "pnpforge.validator.setupkit",
        "SetupRules": "pnpforge.contract",
        "SetupTable": "pnpforge.validator.rulebook",
        "Side": "pnpforge.validator.setupkit",
        "side_path": "pnpforge.geometry.split",
        "side_points": "pnpforge.validator.picture",
        "side_vertices": "pnpforge.geometry.split",
        "Source": "pnpforge.sourcefile",
        "spread": "pnpforge.validator.picture",
        "Strict": "pnpforge.scoring.inputs",
        "Table": "pnpforge.scoring.sheet",
        "TieBreak": "pnpforge.scoring.sheet",
        "Triangle": "pnpforge.geometry.lattice",
        "unknown": "pnpforge.errors",
        "validate": "pnpforge.sourcefile",
        "Vertex": "pnpforge.geometry.hexgrid",
    },
)


__all__ = [
    "AfterValidator",
    "BaseModel",
    "BeforeValidator",
    "ConfigDict",
    "Discriminator",
    "Key",
    "StrictBool",
    "StrictInt",
    "Tag",
    "field_validator",
    "BoardCounts",
    "COMMAND_LINE",
    "N_",
    "BoardPicture",
    "Caravans",
    "CellShape",
    "Check",
    "Coord",
    "Count",
    "Deal",
    "Dealer",
    "Field",
    "Flag",
    "Game",
    "HeavyEdge",
    "Hex",
    "InputError",
    "LatticeCell",
    "Name",
    "Path_",
    "Phrase",
    "Picture",
    "PieceMark",
    "PlacedPiece",
    "PlayerEntry",
    "PlayerScore",
    "Report",
    "Rotation",
    "Rules",
    "RulesBroken",
    "Score",
    "ScoreResult",
    "Scorer",
    "SetupBoard",
    "SetupModel",
    "SetupRules",
    "SetupTable",
    "Side",
    "Source",
    "Strict",
    "Table",
    "TieBreak",
    "Triangle",
    "Vertex",
    "adjacency",
    "components",
    "data_dealer",
    "data_names",
    "data_rules",
    "data_scorer",
    "data_setup",
    "folder_id",
    "hex_adjacency",
    "hex_centre",
    "hex_lattice",
    "hex_outer_edge",
    "hex_points",
    "hexgrid",
    "kit",
    "known_names",
    "lattice_adjacency",
    "legend_of",
    "linked_setup",
    "option_bool",
    "option_int",
    "owned",
    "player_count",
    "polygon_cell",
    "quoted",
    "read_yaml",
    "reject_unknown_options",
    "series",
    "side_path",
    "side_points",
    "side_vertices",
    "spread",
    "unknown",
    "validate",
]
