"""End to end: tiny real simulations, then `tricksim summary | nil | report | compare` on them.

The runs are made once per module (about 2,000 hands and 40 games); the
Numba kernels come from the compile cache after the first session.
"""
import json
import re

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from tricksim.cli import cli

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
SPADES = ((1 << 13) - 1) << 39 | (1 << 52) | (1 << 53)


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def ok(*args):
    r = invoke(*args)
    assert r.exit_code == 0, (r.output, r.exception)
    return r.stdout


def one_line_error(r, *fragments):
    assert r.exit_code == 2, r.output
    err = r.stderr
    assert err.startswith("Error: ") and err.count("\n") == 1 and "Traceback" not in err, err
    for f in fragments:
        assert f in err, err


@pytest.fixture(scope="module")
def hands_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("cli") / "hands"
    ok("simulate", "spades", "--hands", 2000, "--strategy", "simple", "--seed", 3, "--shard-size", 700,
       "--out", out, "--quiet")
    return out


@pytest.fixture(scope="module")
def games_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("cli") / "games"
    ok("simulate", "spades", "--preset", "classic", "--games", 40, "--strategy", "simple",
       "--team", "1=random:nil_prob=0.2", "--seed", 4, "--out", out, "--quiet")
    return out


@pytest.fixture(scope="module")
def classic_run(tmp_path_factory):
    """Classic rules (Blind Nil with a 3-card exchange) and the heuristic, which bids Blind Nil; team 0 labelled."""
    out = tmp_path_factory.mktemp("cli") / "classic"
    ok("simulate", "spades", "--preset", "classic", "--games", 60, "--seed", 2,
       "--team", "0=cautious=heuristic:bag_mode=avoid", "--out", out, "--quiet")
    return out


def hands(run):
    return pq.read_table(run / "hands").to_pandas()


def spade_counts(df, column):
    return np.stack([[(int(h) & SPADES).bit_count() for h in df[f"{column}_{s}"]] for s in range(4)], axis=1)


def test_summary_of_both_modes(hands_run, games_run):
    h = ok("summary", hands_run)
    assert "hands mode" in h and "2,000 hands" in h and "Nil" in h
    g = ok("summary", games_run)
    assert "games mode, preset classic" in g and "40 games" in g and "team 0 wins" in g


def test_nil_by_spades_table_matches_a_direct_count(hands_run, tmp_path):
    csv, png = tmp_path / "x.csv", tmp_path / "x.png"
    text = ok("nil", hands_run, "--by", "spades", "--save", csv, "--chart", png)
    assert "Nil study" in text and f"table written to {csv}" in text
    table = pd.read_csv(csv)
    df = hands(hands_run)
    seat_hands, bids, made = {}, {}, {}
    for s in range(4):
        n_sp = np.array([(int(h) & SPADES).bit_count() for h in df[f"dealt_{s}"]])
        nil = df[f"bid_{s}"].to_numpy() == 0
        for k in np.unique(n_sp):
            m = n_sp == k
            seat_hands[k] = seat_hands.get(k, 0) + int(m.sum())
            bids[k] = bids.get(k, 0) + int((m & nil).sum())
            made[k] = made.get(k, 0) + int((m & nil & (df[f"tricks_{s}"].to_numpy() == 0)).sum())
    assert sum(bids.values()) > 0
    nil_rows = table[table["kind"] == "Nil"]
    assert set(nil_rows["code"]) == set(seat_hands)
    for r in nil_rows.itertuples():
        assert (r.seat_hands, r.bids, r.successes) == (seat_hands[r.code], bids[r.code], made[r.code]), r
    assert png.read_bytes()[:8] == PNG_MAGIC


def test_what_if_states_the_sample_and_gives_a_rate_with_an_interval(hands_run):
    text = ok("nil", hands_run, "--what-if", 300)
    df = hands(hands_run)
    eligible = int(sum((df[f"bid_{s}"] != 0).sum() for s in range(4)))
    assert f"sampled 300 of {eligible:,} eligible seat-hands" in text and "seed 0" in text
    m = re.search(r"^all\s+([\d.]+) % \[([\d.]+), ([\d.]+)\] \(n=(\d+)\)", text, re.MULTILINE)
    assert m, text
    rate, lo, hi, n = float(m[1]), float(m[2]), float(m[3]), int(m[4])
    assert n == 300 and 0 <= lo <= rate <= hi <= 100
    # the same seed gives the same study; --by adds the groups
    by = ok("nil", hands_run, "--what-if", 300, "--by", "spades", "--seed", 0)
    assert m[0] in by and "by spades:" in by


def test_what_if_refusals(hands_run, games_run, tmp_path):
    one_line_error(invoke("nil", games_run, "--what-if", 10), "needs a hands-mode run", "score so far")
    one_line_error(invoke("nil", hands_run, hands_run, "--what-if", 10), "--what-if takes one run directory")
    one_line_error(invoke("nil", hands_run, "--seed", 3), "--seed applies only with --what-if")
    no_nil = tmp_path / "nonil"
    ok("simulate", "spades", "--hands", 20, "--strategy", "simple", "--rule", "nil=false", "--out", no_nil, "--quiet")
    one_line_error(invoke("nil", no_nil, "--what-if", 5), "nil=false")
    rnd = tmp_path / "rnd"
    ok("simulate", "spades", "--hands", 20, "--strategy", "random", "--out", rnd, "--quiet")
    one_line_error(invoke("nil", rnd, "--what-if", 5), "strategy 'random' has no force_nil parameter")


def test_report_of_two_runs(hands_run, games_run, tmp_path):
    out = tmp_path / "rep"
    text = ok("report", hands_run, games_run, "--out", out)
    assert "report.html" in text
    page = (out / "report.html").read_text(encoding="utf-8")
    assert page.count("data:image/png;base64,") >= 3
    assert "<table" in page and "Key results" in page and "contract made" in page
    md = (out / "summary.md").read_text(encoding="utf-8")
    assert "| metric |" in md
    pngs, svgs = sorted(out.glob("*.png")), sorted(out.glob("*.svg"))
    assert pngs and len(pngs) == len(svgs)
    assert all(p.read_bytes()[:8] == PNG_MAGIC for p in pngs)
    assert svgs[0].read_text().lstrip().startswith("<?xml")


def test_compare_gives_a_win_rate_with_an_interval_and_n(tmp_path):
    out = tmp_path / "cmp"
    text = ok("compare", "simple", "random", "--games", 30, "--out", out)
    assert text.splitlines()[0] == ("preset cardems (the default: choose one with --preset); rules as the preset; "
                                    "seed 0; 30 games per match, each played twice with the seats swapped")
    assert "Duplicate match: A = simple, B = random  (30 deal pairs = 60 games; 95 % intervals over deal pairs" in text
    m = re.search(r"A win rate \(paired\)\s+([\d.]+) % \[([\d.]+), ([\d.]+)\] \(n=30\)", text)
    assert m, text
    assert 0 <= float(m[2]) <= float(m[1]) <= float(m[3]) <= 100
    manifest = json.loads((out / "match0-ab" / "manifest.json").read_text())
    assert manifest["count"] == 30 and manifest["mode"] == "games"


def test_bad_inputs_are_one_line_with_exit_2(hands_run, tmp_path):
    one_line_error(invoke("nil", hands_run, "--by", "nonsense"), "unknown feature --by 'nonsense'", "spades")
    (tmp_path / "empty").mkdir()
    one_line_error(invoke("nil", tmp_path / "empty"), "manifest.json is missing")
    one_line_error(invoke("summary", tmp_path / "empty"), "not a tricksim run")
    one_line_error(invoke("report", tmp_path / "empty", "--out", tmp_path / "r"), "not a tricksim run")


def test_nil_features_default_to_the_hand_as_dealt(classic_run, tmp_path):
    """Every bid is made on the dealt hand; under classic the Blind Nil exchange changes the held one."""
    df = hands(classic_run)
    dealt, held = spade_counts(df, "dealt"), spade_counts(df, "held")
    bid = np.stack([df[f"bid_{s}"] for s in range(4)], axis=1)
    blind = np.stack([df[f"blind_{s}"] for s in range(4)], axis=1)
    assert (blind & (dealt != held)).any()  # the run has exchanges that move spades: the choice matters
    for args, counts, words in (((), dealt, "hand as dealt"), (("--hand", "held"), held, "held after")):
        csv = tmp_path / f"{'-'.join(args) or 'default'}.csv"
        text = ok("nil", classic_run, "--by", "spades", "--save", csv, *args)
        assert words in text.splitlines()[1] and "clustered by game" in text.splitlines()[0]
        table = pd.read_csv(csv).set_index(["kind", "code"])
        for kind, sel in (("Nil", (bid == 0) & ~blind), ("Blind Nil", (bid == 0) & blind)):
            for k in np.unique(counts):
                r = table.loc[(kind, k)]
                assert (r["seat_hands"], r["bids"]) == ((counts == k).sum(), (sel & (counts == k)).sum()), (kind, k)
    one_line_error(invoke("nil", classic_run, "--hand", "both"), "unknown --hand 'both'", "dealt | held")


def test_labels_reach_every_output(classic_run, tmp_path):
    manifest = json.loads((classic_run / "manifest.json").read_text())
    assert manifest["seat_labels"] == ["cautious", "heuristic"] * 2 and manifest["seats"][0].startswith("heuristic:")
    assert "team 0 = cautious; team 1 = heuristic" in ok("summary", classic_run)
    text = ok("nil", classic_run, "--by", "strategy")
    assert {line[10:].split()[0] for line in text.splitlines()[2:]} == {"cautious", "heuristic"}
    out = tmp_path / "rep"
    ok("report", classic_run, "--out", out)
    page = re.sub(r"data:image/png;base64,[A-Za-z0-9+/=]+", "", (out / "report.html").read_text(encoding="utf-8"))
    cells = re.findall(r"<t[dh]>(.*?)</t[dh]>", page, re.DOTALL)
    assert max(len(c) for c in cells) <= 100 and "team 0 = cautious; team 1 = heuristic" in cells
    assert max(len(line) for line in page.splitlines() if "<td" in line or "<th" in line) <= 120


def test_compare_states_preset_rules_seed_and_labels(tmp_path):
    text = ok("compare", "a=simple", "b=random:nil_prob=0.1", "--games", 20, "--preset", "zone", "--rule",
              "target=300", "--seed", 5, "--out", tmp_path / "cmp")
    lines = text.splitlines()
    assert lines[0] == ("preset zone; rules target=300 on top of it; seed 5; 20 games per match, each played twice "
                        "with the seats swapped")
    assert lines[1:3] == ["a = simple", "b = random:nil_prob=0.1"]
    assert "Duplicate match: A = a, B = b  (20 deal pairs" in text
    assert json.loads((tmp_path / "cmp" / "match0-ab" / "manifest.json").read_text())["seat_labels"] == ["a", "b"] * 2
    one_line_error(invoke("compare", "simple", "x=simple", "x=random", "--games", 5, "--out", tmp_path / "c2"),
                   "called 'x'", "give each a label of its own")


def test_bad_labels_are_one_line_naming_the_form(tmp_path):
    for spec, words in (("my label=heuristic", "LABEL=NAME[:param=value,...]"),
                        ("random=heuristic", "it is the name of a spades strategy")):
        one_line_error(invoke("simulate", "spades", "--hands", 10, "--strategy", spec, "--out", tmp_path / "x"), words)
    one_line_error(invoke("simulate", "spades", "--hands", 10, "--seat", "0=x=simple", "--seat", "1=x=random",
                          "--out", tmp_path / "y"), "the label 'x' is given to two different strategies")
    one_line_error(invoke("compare", "simple", "a b=random", "--games", 5, "--out", tmp_path / "z"),
                   "LABEL=NAME[:param=value,...]")


def test_a_resume_may_rename_the_labels(tmp_path):
    out = tmp_path / "r"
    ok("simulate", "spades", "--hands", 300, "--strategy", "x=simple", "--shard-size", 100, "--out", out, "--quiet")
    ok("simulate", "spades", "--hands", 300, "--strategy", "y=simple", "--shard-size", 100, "--out", out, "--quiet",
       "--resume")
    assert json.loads((out / "manifest.json").read_text())["seat_labels"] == ["y"] * 4
    r = invoke("simulate", "spades", "--hands", 300, "--strategy", "y=random", "--shard-size", 100, "--out", out,
               "--quiet", "--resume")
    one_line_error(r, "different options (seats)")


def test_a_label_travels_with_its_strategy():
    """To a Dask worker and back: the label stays, and a spec with '=' only after its ':' has none."""
    import pickle

    from tricksim.strategies.registry import parse_spec, split_alias

    s = parse_spec("mine=simple:nil=0")
    back = pickle.loads(pickle.dumps(s))
    assert (back.label, back.spec, back.strategy) == ("mine", s.spec, s.strategy)
    assert split_alias("heuristic:bag_mode=avoid") == (None, "heuristic:bag_mode=avoid")
    assert split_alias(" a_1 = heuristic:bag_mode=avoid") == ("a_1", "heuristic:bag_mode=avoid")
    assert parse_spec("simple:nil=0").label == "simple:nil=0"


def unfinished_copy(run, to):
    """``run`` as an interrupted run leaves it: its manifest still says running."""
    import shutil

    from tricksim.simulator.rundir import sealed

    shutil.copytree(run, to)
    manifest = json.loads((to / "manifest.json").read_text())
    (to / "manifest.json").write_text(json.dumps(sealed({**manifest, "status": "running"})))
    return to


def test_what_if_on_an_unfinished_run_says_so(hands_run, tmp_path):
    unfinished = unfinished_copy(hands_run, tmp_path / "unfinished")
    text = ok("nil", unfinished, "--what-if", 50)
    assert f"note: {unfinished} is running: its figures cover the shards written so far" in text
    assert "note:" not in ok("nil", hands_run, "--what-if", 50)  # a finished run: no note


def test_the_summary_header_names_the_overridden_rules(tmp_path):
    """The header shows the preset and each flag that differs from it, as --rule writes it; an override equal to
    the preset's own value (cardems: bag_limit 10, RULES.md 1.4) is no difference; an alias shows as the flag that
    decides it (jokers=true is deck=joker_ace: docs/rules.md "Decks")."""
    ok("simulate", "spades", "--hands", 20, "--strategy", "simple", "--rule", "target=300", "--rule", "jokers=true",
       "--rule", "bag_limit=10", "--out", tmp_path / "s", "--quiet")
    head = ok("summary", tmp_path / "s").splitlines()[0]
    assert head.startswith(f"{tmp_path / 's'}: spades, hands mode, preset cardems + ")
    shown = head.split("preset cardems + ")[1].split(",  seed")[0].split(", seed")[0]
    assert set(shown.split(", ")) == {"target=300", "deck=joker_ace"}
    ok("simulate", "tarot", "--deals", 20, "--rule", "excuse_lead=forbidden", "--out", tmp_path / "t", "--quiet")
    assert "preset cardavia + excuse_lead=forbidden, seed 0" in ok("summary", tmp_path / "t").splitlines()[0]
    ok("simulate", "tarot", "--deals", 20, "--out", tmp_path / "plain", "--quiet")
    assert "preset cardavia, seed 0" in ok("summary", tmp_path / "plain").splitlines()[0]


def test_the_report_counts_a_tarot_run_in_deals(hands_run, tmp_path):
    import tricksim

    ok("simulate", "tarot", "--deals", 30, "--out", tmp_path / "t", "--quiet")
    table = tricksim.report([hands_run, tmp_path / "t"], tmp_path / "rep").tables["runs"].set_index("run")
    assert (table.loc["t", "deals"], table.loc["t", "hands"]) == ("30", "—")
    assert (table.loc["hands", "hands"], table.loc["hands", "deals"]) == ("2,000", "—")
    assert "games" not in table.columns  # neither run plays whole games
