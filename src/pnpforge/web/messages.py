"""The input layer's messages said in Japanese on a Japanese page.

The CLI speaks English; the page says the same thing in the page's language. Each pattern below is one
message shape of the input layer or of the page itself (its values kept as they are: file names, ids,
numbers); a message no pattern knows is shown as the CLI says it.
"""

from __future__ import annotations

import re
from collections.abc import Callable

_JA: list[tuple[str, str]] = [
    (r"Invalid value for '--(?P<o>[\w-]+)': (?P<rest>.*)", "--{o} の値が正しくありません: {rest}"),
    (r"'(?P<v>.*)' is not a valid integer\.", "「{v}」は整数ではありません。"),
    (r"number too large \(expected at most (?P<n>\d+) digits\)", "数が大きすぎます({n} 桁まで)"),
    (r"YAML syntax error: (?P<rest>.*)", "YAML の書式が正しくありません: {rest}"),
    (r"not a YAML text file: (?P<rest>.*)", "YAML のテキストファイルではありません: {rest}"),
    (r"cannot read file: not UTF-8 text", "ファイルを読めません: UTF-8 のテキストではありません"),
    (
        r"unknown (?P<what>[\w -]+) '(?P<v>.*)' \(expected one of: (?P<known>.*)\)",
        "{what}「{v}」はありません(次のいずれか: {known})",
    ),
    (
        r"(?P<g>[\w-]+) is for (?P<lo>\d+) to (?P<hi>\d+) players \(got --players (?P<n>-?\d+)\)",
        "{g} のプレイヤー数は {lo}〜{hi} 人です({n} 人は選べません)",
    ),
    (
        r"(?P<g>[\w-]+) is played by (?P<span>\S+) players, not (?P<n>-?\d+)",
        "{g} のプレイヤー数は {span} 人です({n} 人ではありません)",
    ),
    (
        r"this is a (?P<a>[\w-]+) (?P<what>set-up|score file), not (?P<b>[\w-]+)",
        "これは {a} のファイルです({b} ではありません)",
    ),
    (r"empty set-up file \(expected e\.g\. '(?P<e>.*)'\)", "セットアップファイルが空です(例: '{e}')"),
    (r"--option (?P<k>[\w-]+)='(?P<v>.*)': (?P<rest>.*)", "--option {k}='{v}': {rest}"),
    (r"expected true or false", "true か false を指定してください"),
    (
        r"expected a whole number from (?P<a>-?\d+) to (?P<b>-?\d+)",
        "{a} から {b} までの整数を指定してください",
    ),
    (
        r"expected a whole number, or a number per (?P<what>[\w ]+) like (?P<e>\{.*\}) \(got (?P<v>.*)\)",
        "整数、または{what}ごとの数({e} のように)を入れてください(入力: {v})",
    ),
    (r"expected a whole number \(got (?P<v>.*)\)", "整数を入れてください(入力: {v})"),
    (
        r"(?P<g>.+) is for (?P<lo>\d+)-(?P<hi>\d+) players, not (?P<n>-?\d+)",
        "{g} のプレイヤー数は {lo}〜{hi} 人です({n} 人ではありません)",
    ),
    (r"expected a whole number", "整数を指定してください"),
    (
        r"unknown --option '(?P<k>.*)' \(expected one of: (?P<known>.*)\)",
        "--option「{k}」はありません(次のいずれか: {known})",
    ),
    (
        r"unknown key '(?P<k>.*)' \(expected one of the documented keys\)",
        "不明なキー「{k}」(説明書にあるキーのみ)",
    ),
    (r"missing key '(?P<k>.*)'", "キー「{k}」がありません"),
]
_NOUNS = {
    "god": "神",
    "game": "ゲーム",
    "option": "オプション",
    "tile": "タイル",
    "colour": "色",
    "player": "プレイヤー",
    "people colour": "人々の色",
}
_COMPILED = [(re.compile(pattern), said) for pattern, said in _JA]


def _ja(message: str) -> str:
    for pattern, said in _COMPILED:
        match = pattern.fullmatch(message)
        if match:
            values = {k: _NOUNS.get(v, _ja(v)) for k, v in match.groupdict().items()}
            return said.format(**values)
    return message


def translator(lang: str) -> Callable[[str], str]:
    """Messages said in `lang` (unchanged in English)."""
    return _ja if lang == "ja" else str
