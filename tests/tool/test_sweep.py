"""Parameter sweeps (issue #19): the grid syntax, the statistics of picking the best of k values, and a small
sweep end to end."""
import math
import re
from statistics import NormalDist

import pandas as pd
import pytest
from click.testing import CliRunner

from tricksim.analysis.games.spades.compare import duplicate_match
from tricksim.analysis.games.spades.sweep import (
    SweepPoint,
    best_index,
    family_level,
    format_sweep,
    needed_pairs,
    sweep_table,
)
from tricksim.cli import cli
from tricksim.jobs import JobError
from tricksim.jobs.spades.sweep import parse_grid


def test_a_range_is_counted_in_decimals_with_both_ends():
    name, fixed, axes = parse_grid("heuristic:nil_threshold=0.2..0.8:0.1")
    assert name == "heuristic" and fixed == {}
    assert axes == [("nil_threshold", ["0.2", "0.3", "0.4", "0.5", "0.6", "0.7", "0.8"])]


def test_two_axes_a_list_and_a_fixed_parameter():
    _, fixed, axes = parse_grid("heuristic:bag_mode=take|avoid|set,bag_guard=0..3:1,nil_threshold=4")
    assert fixed == {"nil_threshold": "4"}
    assert axes == [("bag_mode", ["take", "avoid", "set"]), ("bag_guard", ["0", "1", "2", "3"])]


@pytest.mark.parametrize("grid, words", [
    ("heuristic:nil_threshold=4", "one or two swept parameters, got 0"),
    ("heuristic:a=1|2,b=1|2,c=1|2", "no parameter 'a'"),
    ("heuristic:bag_mode=take|often", "allowed take | avoid | set"),
    ("heuristic:nil_threshold=0..100:1", "at most 60"),
    ("heuristic:nil_threshold=3..1:1", "LO <= HI"),
    ("heuristic:nil_threshold=1..x:1", "LO..HI:STEP"),
    ("heuristic:nil_threshold=2|2", "fewer than two values"),
    ("nosuch:x=1|2", "unknown spades strategy"),
    ("heuristic:nil_threshold=0..10:3", ("the step 3 from 0 misses HI 10 (the last value would be 9): write HI as 9 "
                                         "or 12, or a step that divides 10")),
    ("heuristic:nil_threshold=0.2..0.9:0.2", "misses HI 0.9 (the last value would be 0.8): write HI as 0.8 or 1,"),
])
def test_bad_grids_are_named_in_one_line(grid, words):
    with pytest.raises(JobError, match=re.escape(words)) as e:
        parse_grid(grid)
    assert "\n" not in str(e.value)


def test_bonferroni_level():
    assert family_level(1) == pytest.approx(0.95) and family_level(5) == pytest.approx(0.99)


def _games(winners):
    n = len(winners)
    return pd.DataFrame({"game_id": range(n), "hands": [10] * n, "total_0": [500] * n, "total_1": [400] * n,
                         "winner": winners})


def test_needed_pairs_follow_the_paired_formula():
    # pair scores 1, 1, 0.5, 0 (A won both, both, one, none): mean 0.625, SD 0.4787 (worked by hand)
    ab = _games([0, 0, 0, 1])
    ba = _games([1, 1, 0, 0])
    r = duplicate_match(ab, ba)
    assert r.win.value == pytest.approx(0.625)
    sd = math.sqrt((2 * 0.375 ** 2 + 0.125 ** 2 + 0.625 ** 2) / 3)
    point = SweepPoint(values={"x": "1"}, result=r, simultaneous=r)
    for k in (1, 4):
        z = NormalDist().inv_cdf(1 - (0.05 / k) / 2) + NormalDist().inv_cdf(0.8)
        assert needed_pairs(point, k) == math.ceil((z * sd / 0.125) ** 2)
    other = SweepPoint(values={"x": "2"}, result=duplicate_match(ab, _games([1, 1, 1, 1])), simultaneous=r)
    assert best_index([point, other]) == 1  # 0.75 beats 0.625


def test_a_small_sweep_end_to_end(tmp_path):
    """The baseline's own value (nil_threshold=6 is the default) plays itself: every pair splits (the same
    deals, seats swapped), so its win rate is exactly 50 % and its margin 0; the table marks it '= baseline'
    and never picks it, so the best value is the other one and the confirmation plays that; the files are
    written."""
    res = CliRunner().invoke(cli, ["sweep", "heuristic:nil_threshold=6|2", "--vs", "heuristic", "--games", "60",
                                   "--hand-limit", "100", "--out", str(tmp_path / "sw"), "--confirm", "30"])
    assert res.exit_code == 0, res.output
    table = pd.read_csv(tmp_path / "sw" / "sweep.csv")
    assert list(table["nil_threshold"]) == [6, 2] and table["pairs"].tolist() == [60, 60]
    assert table.loc[0, "win rate (95 %)"].startswith("50.0 %") and table.loc[0, "margin (95 %)"].startswith("+0.0")
    assert table["differs from baseline"].tolist()[0] == "= baseline" != table["differs from baseline"].tolist()[1]
    assert list(table["best"].fillna("")) == ["", "*"]
    assert "[1/2] nil_threshold=6 (= baseline)" in res.output and "confirmation: nil_threshold=2 on 30" in res.output
    assert "simultaneous" in res.output and "confirmation on fresh deals" in res.output and "n=30" in res.output
    assert (tmp_path / "sw" / "sweep.png").stat().st_size > 10_000


def test_bad_sweep_input_exits_2_in_one_line(tmp_path):
    res = CliRunner().invoke(cli, ["sweep", "heuristic:bag_mode=take|often", "--vs", "heuristic", "--out", str(tmp_path)])
    assert res.exit_code == 2 and len(res.output.strip().splitlines()) == 1, res.output


def test_range_values_print_as_plain_numbers():
    assert parse_grid("heuristic:nil_threshold=6..10:2")[2] == [("nil_threshold", ["6", "8", "10"])]


def _point(value, ab, ba, **kw):
    r = duplicate_match(_games(ab), _games(ba))
    return SweepPoint(values={"x": value}, result=r, simultaneous=r, **kw)


def test_the_pairs_column_has_thousands_separators():
    # 1,200 deal pairs a value, as every other count the tool prints
    points = [_point("1", [0] * 1200, [1] * 1200), _point("2", [0, 1] * 600, [0, 1] * 600)]
    assert sweep_table(points)["pairs"].tolist() == ["1,200", "1,200"]
    row = format_sweep(points, baseline="heuristic").splitlines()[2]  # the first row under the header
    assert row.split()[:2] == ["1", "1,200"]


def test_the_baseline_itself_is_flagged_and_never_the_best():
    # x=1 is the baseline: each game has the same winner in both halves, so A wins one game of every pair,
    # 50 %. x=2: A wins game 0 of the first half only, pair scores 0.5, 0, 0, 0: 12.5 %, below the baseline
    # and still the best value, as the only one that is not the baseline itself
    base = _point("1", [0, 1, 0, 1], [0, 1, 0, 1], is_baseline=True)
    other = _point("2", [0, 1, 1, 1], [0, 0, 0, 0])
    assert (base.result.win.value, other.result.win.value) == (0.5, 0.125)
    for metric in ("win", "margin"):
        assert best_index([base, other], metric) == 1
        table = sweep_table([base, other], metric)
        assert table["differs from baseline"].tolist()[0] == "= baseline" and table["best"].tolist() == ["", "*"]
    text = format_sweep([base, other], baseline="heuristic")
    assert "best by win rate: x=2:" in text and "= baseline: x=1 is heuristic itself" in text
    with pytest.raises(ValueError, match="every value of the sweep is the baseline"):
        best_index([base])


def test_a_grid_of_the_baseline_alone_is_refused_in_one_line(tmp_path):
    # 6 and 6.0 are two spellings of the default nil_threshold: both values are the baseline itself
    res = CliRunner().invoke(cli, ["sweep", "heuristic:nil_threshold=6|6.0", "--vs", "heuristic", "--games", "2",
                                   "--out", str(tmp_path / "sw")])
    assert res.exit_code == 2 and len(res.output.strip().splitlines()) == 1, res.output
    assert "is the baseline 'heuristic' itself" in res.output and not (tmp_path / "sw").exists()


def sweep_examples():
    """The grids of the sweep examples in ``tricksim sweep --help`` and the docs."""
    import re
    from pathlib import Path

    from click.testing import CliRunner

    from tricksim.cli import cli

    root = Path(__file__).resolve().parents[2]
    texts = [CliRunner().invoke(cli, ["sweep", "--help"]).output]
    texts += [(root / "docs" / name).read_text() for name in ("analysis.md", "studies.md")]
    found = [m.group(1) for text in texts for m in re.finditer(r"tricksim sweep '?([^' ]+)'?", text)]
    return [g for g in found if ":" in g]


def test_every_sweep_example_parses_and_its_ranges_span_the_default():
    """A range example explores around the strategy's default (the baseline of ``--vs heuristic``)."""
    from tricksim.strategies.registry import get

    examples = sweep_examples()
    assert len(examples) >= 4
    for grid in examples:
        name, _, _ = parse_grid(grid)
        strategy = get(name)
        for item in grid.partition(":")[2].split(","):
            key, _, value = item.partition("=")
            if ".." in value:
                default = strategy.params[strategy.index(key)].default
                lo, hi = (float(v) for v in value.partition(":")[0].split(".."))
                assert lo <= default <= hi, (grid, key, default)


def test_the_two_parameter_heat_map_text_is_readable_on_every_cell():
    """Win rates from 5 % to 95 % over a 3 x 3 grid: every cell's text contrasts with its colour at least 4.5:1
    (WCAG AA; the contrast computed here from the WCAG formula, not by the plotting helper)."""
    from types import SimpleNamespace

    from matplotlib.colors import to_rgb
    from matplotlib.figure import Figure

    from tricksim.analysis.games.spades.sweep import SweepPoint, plot_sweep

    def lum(c):
        lin = [x / 12.92 if x <= 0.04045 else ((x + 0.055) / 1.055) ** 2.4 for x in to_rgb(c)]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    rates = [0.05, 0.2, 0.35, 0.45, 0.5, 0.6, 0.7, 0.85, 0.95]
    points = []
    for k, rate in enumerate(rates):
        result = SimpleNamespace(win=SimpleNamespace(value=rate), margin=SimpleNamespace(value=0.0), n_pairs=100)
        points.append(SweepPoint(values={"a": str(k % 3), "b": str(k // 3)}, result=result, simultaneous=result))
    fig = Figure()
    plot_sweep(fig, points, ["a", "b"], baseline="heuristic")
    ax = fig.axes[0]
    im = ax.images[0]
    assert len(ax.texts) == 9
    for t in ax.texts:
        j, i = (round(x) for x in t.get_position())
        hi, lo = sorted((lum(t.get_color()), lum(im.cmap(im.norm(im.get_array()[i, j])))), reverse=True)
        assert (hi + 0.05) / (lo + 0.05) >= 4.5, t.get_text()
