"""The Spades atlas's flag variants (``FLAG_VARIANTS``): each a preset and flags that build valid rules differing
from the preset's, and a small atlas over issue #28's variants (the deuce decks, ten for two hundred, Nil or zero)
that plays each under its own rules and reports it."""
import pandas as pd
import pytest

import tricksim
from tricksim.jobs.spades.atlas import FLAG_VARIANTS, default_variants, parse_variant
from tricksim.simulator.family import family
from tricksim.simulator.games.spades.rules import PRESETS

NEW = ["cardems+deck=joker_deuce_ace", "cardems+deck=joker_deuce_deuce", "cardems+big_bid_threshold=10",
       "cardems+zero_bid=zero"]
GAMES = 6


def expected(key: str, value: str):
    """A flag's value as the rules hold it, read from the text here (not by the rules' own parser)."""
    if value in ("true", "false"):
        return value == "true"
    return int(value) if value.lstrip("-").isdigit() else value


@pytest.mark.parametrize("name", FLAG_VARIANTS)
def test_every_flag_variant_builds_valid_rules_that_differ_from_its_preset(name):
    preset, flags, rules = parse_variant(name)
    assert preset in family("spades").presets and flags == name.split("+")[1:]
    d = rules.to_dict()
    for flag in flags:
        key, value = flag.split("=")
        if key == "jokers":  # the alias of deck=joker_ace (docs/rules.md, Decks)
            assert d["deck"] == "joker_ace" and d["jokers"] is True
        else:
            assert d[key] == expected(key, value), (name, key)
    assert d != PRESETS[preset].to_dict()
    assert type(rules).from_dict(d) == rules  # the recorded rules build again: every value and combination valid
    rules.to_kernel()


def test_the_default_atlas_has_issue_28s_variants():
    assert set(NEW) <= set(FLAG_VARIANTS) and set(NEW) <= set(default_variants())
    assert len(set(default_variants())) == len(default_variants())


def test_joker_spades_is_played_on_its_sources_preset():
    """RULES.md 1.6 lists Joker Spades among the variants of source 002, whose preset is zone (table 1.7: jokers "no
    (variant)" under zone alone); the TricksterBots deuce decks are not 002's and stay on cardems."""
    jokers = [name for name in FLAG_VARIANTS if parse_variant(name)[2].deck == "joker_ace"]
    assert jokers == ["zone+jokers=true"]
    assert {parse_variant(name)[0] for name in FLAG_VARIANTS if "joker_deuce" in name} == {"cardems"}


@pytest.fixture(scope="module")
def atlas(tmp_path_factory):
    return tricksim.atlas("spades", games=GAMES, variants=NEW, seed=28, out=tmp_path_factory.mktemp("atlas"),
                          progress=False, echo=lambda _line: None)


@pytest.mark.needs_jit("a few dozen whole games of heuristic and simple play per variant")
def test_a_small_atlas_plays_each_new_variant_under_its_rules_and_reports_it(atlas):
    assert [v.name for v in atlas.variants] == NEW
    md = atlas.markdown.read_text()
    numbers = pd.read_csv(atlas.out_dir / "atlas.csv")
    for name in NEW:
        _preset, flags, rules = parse_variant(name)
        key, value = flags[0].split("=")
        for tag in ("ab", "ba"):
            run = tricksim.open(atlas.out_dir / "runs" / f"{name}-{tag}")
            assert run.rules[key] == expected(key, value) and run.rules == rules.to_dict()
            assert len(pd.read_parquet(run.path / "games")) == GAMES
        row = next(line for line in md.splitlines() if line.startswith(f"| {name} |"))  # the Variants table
        assert row.split("|")[2].strip() == f"cardems + {flags[0]}"
        v = next(v for v in atlas.variants if v.name == name)
        assert v.n_pairs == GAMES and v.n_games == 2 * GAMES
        assert set(numbers.loc[numbers["variant"] == name, "figure"]) >= {"strong_win", "hand_score", "length"}


@pytest.mark.needs_jit("a few dozen whole games of heuristic and random play")
def test_nil_or_zero_has_zero_bids_but_no_nil_in_the_atlas(tmp_path):
    """With zero_bid=zero a bid of 0 is a contract (docs/rules.md, Nil or zero): the runs hold 0 bids (random's: the
    heuristic and simple never bid 0 unless it is a Nil), the atlas counts no Nil bid and no Nil made."""
    name = "cardems+zero_bid=zero"
    result = tricksim.atlas("spades", games=20, variants=[name], players=("heuristic", "random"), seed=28,
                            out=tmp_path, progress=False, echo=lambda _line: None)
    zeros = 0
    for tag in ("ab", "ba"):
        h = pd.read_parquet(tmp_path / "runs" / f"{name}-{tag}" / "hands")
        zeros += sum(int((h[f"bid_{s}"] == 0).sum()) for s in range(4))
    f = result.variants[0].figures
    assert zeros > 0
    assert f["nil_bid"].k == 0 and f["nil_made"].n == 0 and f["blind_bid"].k == 0
