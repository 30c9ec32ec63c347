# %% [markdown]
# # A small study in Python: does avoiding bags pay under the zone rules?
#
# A script of notebook cells (`# %%`): open it in Jupyter (jupytext), VS Code or Spyder and run it cell by
# cell, or run it whole with `python docs/notebook.py`. The test suite runs it (tests/tool/test_api.py) with
# `TRICKSIM_NOTEBOOK_SIZE=small`. Everything here is also a command (`tricksim --help`): the command
# line is a thin layer over these functions.

# %%
import os
from pathlib import Path

import tricksim

SMALL = os.environ.get("TRICKSIM_NOTEBOOK_SIZE") == "small"
GAMES = 200 if SMALL else 5_000
OUT = Path(os.environ.get("TRICKSIM_NOTEBOOK_OUT", "data/notebook"))

# %% [markdown]
# ## 1. Simulate: whole games under the zone preset, two strategies as partners
# Running the cell again reuses the run already in `out` (and finishes it if it was interrupted).

# %%
run = tricksim.simulate("spades", preset="zone", games=GAMES, seed=1, out=OUT / "zone",
                        teams={0: "avoid=heuristic:bag_mode=avoid", 1: "take=heuristic:bag_mode=take"})
print(tricksim.summary(run))

# %% [markdown]
# ## 2. The data as pandas tables: one row a hand, one row a game

# %%
hands = run.hands(["game_id", "hand_no", "bid_0", "bid_2", "tricks_0", "tricks_2", "score_0", "score_1"])
games = run.games()
print(hands.head())
print(f"{len(games):,} games, {len(hands):,} hands; team 0 won {(games['winner'] == 0).mean():.1%} "
      "(the summary above gives the interval)")
assert len(games) == GAMES and hands["game_id"].nunique() == GAMES

# %% [markdown]
# ## 3. A duplicate match on the same deals: luck of the cards cancels

# %%
results = tricksim.compare("avoid=heuristic:bag_mode=avoid", "take=heuristic:bag_mode=take", games=GAMES,
                           preset="zone", seed=2, out=OUT / "compare", echo=print)
match = results[("avoid", "take")]
w = match.win
print(f"avoid's win rate: {w.value:.1%} [{w.lo:.1%}, {w.hi:.1%}] over {match.n_pairs:,} deal pairs")

# %% [markdown]
# ## 4. Nil by the hand as dealt, as a table and a figure

# %%
table, figure = tricksim.nil(run, by="spades", figure=True)
print(table[["kind", "group", "bids", "rate", "lo", "hi"]])
figure.savefig(OUT / "nil.png")

# %% [markdown]
# ## 5. A sweep: which bag_guard, against the default heuristic

# %%
sweep_table, points, confirmation = tricksim.sweep("heuristic:bag_mode=take,bag_guard=0|3|6", vs="heuristic",
                                                   games=GAMES // 2, preset="zone", out=OUT / "sweep", confirm=0)
print(sweep_table)

# %% [markdown]
# ## 6. The report of the run, for a browser

# %%
result = tricksim.report([run], OUT / "report")
print(result.html)

# %% [markdown]
# ## 7. The variant atlas: the presets and a flag variant, heuristic vs simple in duplicate
# Every figure with its interval and n; `atlas.tables` holds the tables, `atlas.variants` each variant's figures.

# %%
atlas = tricksim.atlas("spades", games=GAMES // 4, variants=["cardems", "zone", "zone+jokers=true"], seed=1,
                       out=OUT / "atlas")
print(atlas.tables["skill"].to_string(index=False))
print(atlas.html)
