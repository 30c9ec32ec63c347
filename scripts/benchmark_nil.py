"""Time the double-dummy Nil question against a trick solve of the same position, and keep its answers.

The Nil question (``dd.nil_makeable``: can seat s's side keep it at zero tricks against a defence that tries to
make it win one?) is what ``tricksim dd`` asks for every Nil bid (``dd_nil_s``); issue #26 wants it at most a
few times a trick solve (``dd.dd_tricks``) of the same position. Positions: with ``--run DIR`` (a Spades run)
its hands where a seat bid Nil, as ``tricksim dd`` asks them (the hands as held, the first leader, the Nil
seats); else random full deals (each leader in turn) and random endings of 4 to 9 cards a seat, each seat
asked. CPU time of one trick solve and of each Nil question, each from an empty table, alternated; the
median ratio per (position, seat) and the medians, and the average question over the average trick solve.

The tables are those ``tricksim dd`` uses (``dd_columns.py``): the trick solve on 2**``--tt-bits`` slots (18), the
Nil question on a table of its own of 2**``--nil-tt-bits`` (20); ``--one-table`` asks the Nil question on the trick
solve's table, as the measurements before P121 did. Each position's trick solve is also timed on a table of the Nil
question's size, so that the two can be compared at equal tables as well.

``--save FILE`` writes every answer (JSON); ``--check FILE`` compares with answers saved earlier (say by the
code before a change) and exits 1 on any difference. ``--against FILE`` loads another copy of ``dd.py`` (say
``git show main:simulator/games/spades/dd.py > /tmp/dd_main.py``) as a second module and asks it every Nil
question right after this one, each from an empty table, for a side-by-side figure in one process (nodes, which
do not depend on the load, and CPU; made and failed Nils apart); it exits 1 when an answer differs. ``--top N``
lists the N questions of the largest ratio to their trick solve by nodes (position index, seat, answer, nodes; the
other copy's nodes beside them with ``--against``): "hand 37 seat 2" in docs/performance.md is position 37 of
``--run``'s list.

    python scripts/benchmark_nil.py --deals 40 --endings 200 --save /tmp/nil-before.json
"""
from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from datetime import date
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tricksim.simulator.games.spades import dd
from tricksim.simulator.games.spades.dd_columns import NIL_TT_BITS, TT_BITS
from tricksim.simulator.games.spades.rules import build_rules


def positions(deals: int, endings: int, seed: int):
    """(hands, leader, broken) of random full deals (each leader) and random endings."""
    rng = random.Random(seed)
    out = []
    for _ in range(deals):
        cards = list(range(52))
        rng.shuffle(cards)
        hands = [sum(1 << c for c in cards[13 * s:13 * s + 13]) for s in range(4)]
        out += [(hands, leader, False) for leader in range(4)]
    for _ in range(endings):
        k = rng.randint(4, 9)
        cards = list(range(52))
        rng.shuffle(cards)
        hands = [sum(1 << c for c in cards[k * s:k * s + k]) for s in range(4)]
        out.append((hands, rng.randrange(4), rng.random() < 0.5))
    return out


def run_positions(run_dir: str, limit: int):
    """(hands, leader, broken, Nil seats) of the hands of a run where a seat bid Nil, and its rules."""
    from tricksim.analysis.io import open_run
    from tricksim.simulator.games.spades.rules import SpadesRules

    run = open_run(run_dir)
    cols = ["first_leader"] + [f"held_{s}" for s in range(4)] + [f"bid_{s}" for s in range(4)]
    t = run.read_hands(cols).to_pandas()
    out = []
    for h in t.itertuples():
        seats = [s for s in range(4) if getattr(h, f"bid_{s}") == 0]
        if seats:
            out.append(([int(getattr(h, f"held_{s}")) for s in range(4)], int(h.first_leader), False, seats))
        if len(out) == limit:
            break
    return out, SpadesRules.from_dict(run.rules)


def load_other(path: str):
    """Another copy of dd.py as a module of its own (its compiled functions apart from this one's)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("dd_against", path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules["dd_against"] = mod  # (dataclasses look their module up)
    spec.loader.exec_module(mod)
    return mod


def ratio_summary(cpu, nodes, trick_of, made) -> str:
    """Each Nil question against the trick solve of its position: by nodes and by CPU, all and made / failed."""
    nr = np.array([n / tn for n, (_, tn) in zip(nodes, trick_of)])
    cr = np.array([c / max(tc, 1e-6) for c, (tc, _) in zip(cpu, trick_of)])
    nodes = np.asarray(nodes)

    def part(x):
        return f"median {np.median(x):.2f}, mean {np.mean(x):.2f}, max {np.max(x):.0f}" if len(x) else "none"

    return (f"ratio to the trick solve by nodes {part(nr)} (made {part(nr[made])}; failed {part(nr[~made])}); "
            f"by CPU {part(cr)}; nodes median {int(np.median(nodes)):,}, sum {nodes.sum():,} (made "
            f"{nodes[made].sum():,}); CPU {sum(cpu):.2f} s")


def average_line(trick_t, wide_t, nil_t, trick_nodes, wide_nodes, nil_nodes, bits, nil_bits, one_table) -> str:
    """The average Nil question over the average trick solve (the questions of full deals or of a run's hands), by
    CPU and by nodes: against the trick solve on its own table, and on a table of the Nil question's size."""
    if not nil_t:
        return "no Nil question of a full deal"
    q_cpu, q_nodes = np.mean(nil_t), np.mean(nil_nodes)
    where = f"the Nil question on {'the same table' if one_table else f'a table of its own, 2^{nil_bits} slots'}"
    return (f"average question / average trick solve ({where}; trick solves on 2^{bits} slots): by CPU "
            f"{q_cpu / max(np.mean(trick_t), 1e-9):.2f}, by nodes {q_nodes / max(np.mean(trick_nodes), 1):.2f}; "
            f"against the trick solve on 2^{nil_bits} slots (CPU {sum(wide_t):.2f} s, nodes {sum(wide_nodes):,}): by "
            f"CPU {q_cpu / max(np.mean(wide_t), 1e-9):.2f}, by nodes {q_nodes / max(np.mean(wide_nodes), 1):.2f}")


def top_questions(n, todo, answers, nil_nodes, trick_nodes, other_nodes=None) -> str:
    """The ``n`` questions of the largest ratio of their nodes to the trick solve's of their position, one a line."""
    rows = []
    for i, ((_, _, _, seats), row) in enumerate(zip(todo, answers)):
        for s, v in zip(seats, row):
            rows.append((i, s, v, trick_nodes[i]))
    q = sorted(range(len(rows)), key=lambda j: -nil_nodes[j] / max(rows[j][3], 1))[:n]
    lines = [f"the {len(q)} questions of the largest ratio by nodes (position, seat, answer: Nil nodes / trick solve "
             f"nodes = ratio{'; the other copy' if other_nodes is not None else ''}):"]
    for j in q:
        i, s, v, tn = rows[j]
        line = (f"  position {i} seat {s}, {'made' if v else 'failed'}: {nil_nodes[j]:,} / {tn:,} = "
                f"{nil_nodes[j] / max(tn, 1):.1f}")
        if other_nodes is not None:
            line += f"; {other_nodes[j]:,} = {other_nodes[j] / max(tn, 1):.1f}"
        lines.append(line)
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=20, help="random full deals, each with its 4 leaders")
    ap.add_argument("--endings", type=int, default=100, help="random endings of 4 to 9 cards a seat")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--preset", default="classic")
    ap.add_argument("--plain", action="store_true",
                    help="also time the Nil search without its bound and its own move ordering (W_NIL = 0)")
    ap.add_argument("--run", help="a Spades run: its hands with a Nil bid (the first --deals of them)")
    ap.add_argument("--save", help="write the answers to this JSON file")
    ap.add_argument("--check", help="compare the answers with those of this JSON file")
    ap.add_argument("--against", help="another copy of dd.py: ask it every Nil question too, side by side")
    ap.add_argument("--top", type=int, default=0, help="list this many questions of the largest ratio by nodes")
    ap.add_argument("--tt-bits", type=int, default=TT_BITS, help="log2 of the trick solve's table slots")
    ap.add_argument("--nil-tt-bits", type=int, default=NIL_TT_BITS, help="log2 of the Nil question's table slots")
    ap.add_argument("--one-table", action="store_true",
                    help="the Nil question on the trick solve's table (the measurement before P121)")
    a = ap.parse_args()
    if a.one_table:
        a.nil_tt_bits = a.tt_bits
    other = load_other(a.against) if a.against else None
    rules = build_rules(a.preset)
    if a.run:
        todo, rules = run_positions(a.run, a.deals)
        a.endings = 0
    else:
        todo = [(h, leader, broken, range(4)) for h, leader, broken in positions(a.deals, a.endings, a.seed)]
    solver = dd.Solver(tt_bits=a.tt_bits)
    wide = dd.Solver(tt_bits=a.nil_tt_bits)  # the trick solve on a table of the Nil question's size
    nil_solver = solver if a.one_table else dd.Solver(tt_bits=a.nil_tt_bits)
    for x in (solver, wide, nil_solver):
        x.tt.fill(0)  # every page touched once before timing (the tool keeps a thread's tables)
    load = os.getloadavg()[0]
    t0 = time.perf_counter()
    dd.dd_tricks(positions(1, 0, 0)[0][0], 0, (), False, rules, solver=solver)
    dd.nil_makeable(positions(1, 0, 0)[0][0], 0, (), False, rules, nil_seat=0, solver=nil_solver)
    if other is not None:
        other_solver = other.Solver(tt_bits=a.nil_tt_bits)
        other_solver.tt.fill(0)
        other.nil_makeable(positions(1, 0, 0)[0][0], 0, (), False, rules, nil_seat=0, solver=other_solver)
    warm = time.perf_counter() - t0
    side = []  # (CPU, nodes, answer) of the other copy, per question

    answers, trick_t, nil_t, ratios, full_ratios = [], [], [], [], []
    nil_nodes, trick_nodes, plain_t, plain_nodes, plain_ratios, differ = [], [], [], [], [], 0
    wide_t, wide_nodes = [], []
    n_full = len(todo) - a.endings
    for i, (hands, leader, broken, seats) in enumerate(todo):
        solver.reset()
        t = time.process_time()
        dd.dd_tricks(hands, leader, (), broken, rules, solver=solver)
        tt = time.process_time() - t
        trick_nodes.append(solver.nodes)
        wide.reset()
        t = time.process_time()
        dd.dd_tricks(hands, leader, (), broken, rules, solver=wide)
        wide_t.append(time.process_time() - t)
        wide_nodes.append(wide.nodes)
        row = []
        for s in seats:
            t = time.process_time()
            row.append(int(dd.nil_makeable(hands, leader, (), broken, rules, nil_seat=s, solver=nil_solver)))
            nt = time.process_time() - t
            nil_t.append(nt)
            nil_nodes.append(nil_solver.nodes)
            (full_ratios if i < n_full else ratios).append(nt / max(tt, 1e-6))
            if other is not None:
                t = time.process_time()
                v = int(other.nil_makeable(hands, leader, (), broken, rules, nil_seat=s, solver=other_solver))
                side.append((time.process_time() - t, other_solver.nodes, v))
            if a.plain:  # the same search without the Nil bound and ordering (W_NIL = 0), for a side-by-side figure
                pos = dd.position(hands, leader, (), broken, rules)
                dd.nil_setup_nb(nil_solver.ws, int(hands[leader]).bit_count(), s)
                nil_solver.ws[dd.W_NIL] = 0
                t = time.process_time()
                v = dd.table_value_nb(nil_solver.tt, nil_solver.ws, pos)
                plain_t.append(time.process_time() - t)
                plain_nodes.append(nil_solver.nodes)
                if i < n_full:
                    plain_ratios.append(plain_t[-1] / max(tt, 1e-6))
                differ += int((v == 1) if s % 2 == 0 else (v == 0)) != row[-1]
        trick_t.append(tt)
        answers.append(row)

    print(f"python scripts/benchmark_nil.py {' '.join(sys.argv[1:])}".rstrip())
    print(f"{date.today()}, {a.run or a.preset}, {len(todo)} positions ({a.endings} random endings); load average "
          f"before: {load:.2f}; first calls (load or compile) {warm:.1f} s")

    def ms(xs):
        q1, q2, q3 = np.percentile(np.asarray(xs) * 1000, [25, 50, 75])
        return f"median {q2:.2f} ms [{q1:.2f}, {q3:.2f}]"

    n_nil_full = len(full_ratios)
    what = f"{a.run}: hands with a Nil bid" if a.run else "full deals"
    print(f"{what}: trick solve {ms(trick_t[:n_full])}; Nil question (a seat) {ms(nil_t[:n_nil_full])}; "
          f"ratio Nil / trick per (position, seat): median {np.median(full_ratios):.2f}, "
          f"mean {np.mean(full_ratios):.2f}, max {np.max(full_ratios):.1f}")
    if a.endings:
        print(f"endings: trick solve {ms(trick_t[n_full:])}; Nil question {ms(nil_t[n_nil_full:])}; "
              f"ratio median {np.median(ratios):.2f}, mean {np.mean(ratios):.2f}")
    print(f"nodes (full deals): trick solve median {int(np.median(trick_nodes[:n_full])):,}, "
          f"Nil question median {int(np.median(nil_nodes[:n_nil_full])):,}; sums "
          f"{sum(trick_nodes[:n_full]):,} and {sum(nil_nodes[:n_nil_full]):,}")
    if a.plain:
        print(f"without the Nil bound and ordering: Nil question {ms(plain_t[:n_nil_full])}; ratio Nil / trick median "
              f"{np.median(plain_ratios):.2f}, mean {np.mean(plain_ratios):.2f}; nodes median "
              f"{int(np.median(plain_nodes[:n_nil_full])):,}, sum {sum(plain_nodes[:n_nil_full]):,}; CPU total "
              f"{sum(plain_t):.2f} s; answers that differ from with them: {differ} of {len(plain_t)}")
    print(f"CPU total: trick solves {sum(trick_t):.2f} s, Nil questions {sum(nil_t):.2f} s")
    print(average_line(trick_t[:n_full], wide_t[:n_full], nil_t[:n_nil_full], trick_nodes[:n_full],
                       wide_nodes[:n_full], nil_nodes[:n_nil_full], a.tt_bits, a.nil_tt_bits, a.one_table))
    if a.top:
        print(top_questions(a.top, todo, answers, nil_nodes, trick_nodes, [x[1] for x in side] if side else None))
    if other is not None:
        trick_of = [(t, n) for t, n, seats in zip(trick_t, trick_nodes, (q[3] for q in todo)) for _ in seats]
        made = np.array([x for r in answers for x in r], bool)
        for name, cpu, nodes in (("this dd.py", nil_t, nil_nodes),
                                 (a.against, [x[0] for x in side], [x[1] for x in side])):
            print(f"{name}: {ratio_summary(cpu, nodes, trick_of, made)}")
        diff = sum(int(x[2]) != y for x, y in zip(side, made))
        print(f"answers that differ from {a.against}: {diff} of {len(side)}")
        if diff:
            sys.exit(1)
    print(f"Nil made in {sum(map(sum, answers))} of {sum(map(len, answers))} (position, seat)")
    if a.save:
        Path(a.save).write_text(json.dumps({"args": vars(a), "answers": answers}))
    if a.check:
        old = json.loads(Path(a.check).read_text())["answers"]
        diff = sum(x != y for r, q in zip(old, answers) for x, y in zip(r, q))
        print(f"answers that differ from {a.check}: {diff} of {sum(map(len, answers))}")
        if diff or len(old) != len(answers):
            sys.exit(1)


if __name__ == "__main__":
    main()
