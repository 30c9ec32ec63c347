"""The benchmark script runs end to end on a tiny workload and its figures agree with its own timings."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow  # the benchmark compiles every kernel without bounds checks, in a cache of its own: minutes on a cold cache
@pytest.mark.needs_jit("the benchmark times the compiled kernels; as pure Python its figures mean nothing "
                        "and it takes over a minute")
def test_tiny_benchmark_figures_come_from_its_raw_timings(tmp_path):
    out = tmp_path / "bench.json"
    hands, games, deals = 4000, 300, 3000
    done = subprocess.run([sys.executable, "scripts/benchmark.py", "--hands", str(hands), "--games", str(games),
                           "--deals", str(deals), "--repeat", "3", "--json", str(out)], cwd=ROOT, capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stderr
    assert "thread_scaling_per_round" in done.stdout
    res = json.loads(out.read_text())
    raw = res["raw_seconds"]
    assert {len(v) for v in raw.values()} == {3}
    w1, w2 = sorted(raw["hands_1_thread"]), sorted(raw["hands_2_threads"])
    # with 3 runs the median is the middle one and its interval runs from the least to the most
    assert res["hands_per_s_1_thread"]["value"] == pytest.approx(hands / w1[1])
    assert res["hands_per_s_2_threads"]["lo"] == pytest.approx(hands / w2[2])
    assert res["hands_per_s_2_threads"]["n"] == 3
    assert res["thread_scaling"] == pytest.approx(w1[1] / w2[1])
    ratios = sorted(a / b for a, b in zip(raw["hands_1_thread"], raw["hands_2_threads"]))
    assert res["thread_scaling_per_round"]["value"] == pytest.approx(ratios[1])
    assert res["games_per_s_2_threads"]["value"] == pytest.approx(games / sorted(raw["games_2_threads"])[1])
    heur = sorted(a / b for a, b in zip(raw["strategy_heuristic"], raw["strategy_simple"]))
    assert res["cost_per_hand_vs_simple"]["heuristic"]["value"] == pytest.approx(heur[1])
    assert res["warm_cli_10000_hands_s"]["value"] == pytest.approx(sorted(raw["warm_cli"])[1])
    assert all(v > 0 for v in res["cpu_us_per_hand_1_thread"].values())
    # Tarot beside Spades, each round's ratio from the same round's runs
    tarot_ratio = sorted((deals / t) / (hands / s) for t, s in zip(raw["tarot_2_threads"],
                                                                   raw["spades_heuristic_2_threads"]))
    assert res["tarot_deals_vs_spades_hands_per_round"]["value"] == pytest.approx(tarot_ratio[1])
    assert res["tarot_deals_per_s_1_thread"]["value"] == pytest.approx(deals / sorted(raw["tarot_1_thread"])[1])
    assert res["tarot_cold_compile_first_run_s"] > 0
    assert res["tarot_warm_cli_10000_deals_s"]["value"] == pytest.approx(sorted(raw["tarot_warm_cli"])[1])


@pytest.mark.needs_jit("the script times the compiled kernels; as pure Python its figures mean nothing")
def test_cpu_per_hand_variant_table_is_the_median_of_its_rounds():
    """scripts/cpu_per_hand.py --variants: each variant and strategy measured once a round; the table's hands a
    second is 10⁹ over the median of the rounds' ns a hand, its ratio that of the first variant's."""
    import re
    import statistics

    done = subprocess.run([sys.executable, "scripts/cpu_per_hand.py", "--variants", "cardems", "cardems+zero_bid=zero",
                           "--hands", "300", "--repeat", "1", "--rounds", "3", "random"], cwd=ROOT,
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    ns: dict[str, list[float]] = {}
    for name, value in re.findall(r"^random \[(\S+), round \d\]: ([\d,]+) ns CPU a hand$", done.stdout, re.MULTILINE):
        ns.setdefault(name, []).append(float(value.replace(",", "")))
    assert {k: len(v) for k, v in ns.items()} == {"cardems": 3, "cardems+zero_bid=zero": 3}
    rows = {m[0]: (float(m[1].replace(",", "")), float(m[2])) for m in
            re.findall(r"^\| `(\S+)` \| ([\d,]+) \| ([\d.]+) \|$", done.stdout, re.MULTILINE)}
    rate = {k: 1e9 / statistics.median(v) for k, v in ns.items()}
    for name, (hands_per_s, ratio) in rows.items():
        assert hands_per_s == pytest.approx(rate[name], rel=2e-3, abs=1)
        assert ratio == pytest.approx(rate[name] / rate["cardems"], abs=0.01)
    assert set(rows) == set(ns)


def test_cpu_per_hand_refuses_a_bad_variant_in_one_line_before_timing_any():
    done = subprocess.run([sys.executable, "scripts/cpu_per_hand.py", "random", "--variants", "cardems",
                           "cardems+deck=bogus"], cwd=ROOT, capture_output=True, text=True, check=False)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("error: variant 'cardems+deck=bogus', strategy 'random': invalid value deck='bogus'")
    assert done.stderr.count("\n") == 1
