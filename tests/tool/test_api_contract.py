"""The API's contract (issue #26): every public function of ``tricksim`` refuses an argument of the wrong type
or out of its range with a TricksimError whose one line names the option and what is allowed, before it writes
anything: the working folder is left as it was."""
import pytest

import tricksim
from tricksim import api

RUN = "no/such/run"  # the type checks come before any run is read


def cases(tmp):
    """(function, args, kwargs, words the message must hold)."""
    a_file = tmp / "a_file.txt"
    return {
        # simulate: the count, the run's options
        "hands str": (tricksim.simulate, ("spades",), {"hands": "abc"}, "hands must be a whole number from 1"),
        "hands float": (tricksim.simulate, ("spades",), {"hands": 10.5}, "hands must be a whole number from 1"),
        "hands bool": (tricksim.simulate, ("spades",), {"hands": True}, "hands must be a whole number"),
        "hands 0": (tricksim.simulate, ("spades",), {"hands": 0}, "invalid hands=0: allowed a whole number from 1"),
        "games None and no other": (tricksim.simulate, ("spades",), {"games": None}, "exactly one of hands=N"),
        "seed -1": (tricksim.simulate, ("spades",), {"hands": 10, "seed": -1}, "invalid seed=-1"),
        "seed str": (tricksim.simulate, ("spades",), {"hands": 10, "seed": "1"}, "seed must be a whole number"),
        "seed bool": (tricksim.simulate, ("spades",), {"hands": 10, "seed": True}, "seed must be a whole number"),
        "hand_limit 0": (tricksim.simulate, ("spades",), {"games": 10, "hand_limit": 0}, "invalid hand_limit=0"),
        "hand_limit tarot": (tricksim.simulate, ("tarot",), {"deals": 10, "hand_limit": 50},
                             "hand_limit is the most hands or deals of a game: it applies with games=N, not deals=N"),
        "tarot games target and length": (tricksim.simulate, ("tarot",),
                                          {"games": 3, "rules": ["deals_per_game=4", "game_target=300"]},
                                          "deals_per_game and game_target / game_floor exclude each other"),
        "record_plays str": (tricksim.simulate, ("spades",), {"hands": 10, "record_plays": "yes"},
                             "record_plays must be True or False"),
        "record_plays int": (tricksim.simulate, ("spades",), {"hands": 10, "record_plays": 1},
                             "record_plays must be True or False"),
        "shard_size 0": (tricksim.simulate, ("spades",), {"hands": 10, "shard_size": 0}, "invalid shard_size=0"),
        "threads 0": (tricksim.simulate, ("spades",), {"hands": 10, "threads": 0}, "invalid threads=0"),
        "threads float": (tricksim.simulate, ("spades",), {"hands": 10, "threads": 1.5}, "threads must be a whole"),
        "overwrite str": (tricksim.simulate, ("spades",), {"hands": 10, "overwrite": "no"},
                          "overwrite must be True or False"),
        "progress int": (tricksim.simulate, ("spades",), {"hands": 10, "progress": 2}, "progress must be True"),
        "engine": (tricksim.simulate, ("spades",), {"hands": 10, "engine": "gpu"},
                   "invalid engine='gpu': allowed local | dask"),
        "scheduler local": (tricksim.simulate, ("spades",), {"hands": 10, "scheduler": "tcp://h:1"},
                            "scheduler=ADDRESS needs engine=dask"),
        "scheduler int": (tricksim.simulate, ("spades",), {"hands": 10, "engine": "dask", "scheduler": 8786},
                          "scheduler must be a string"),
        "out int": (tricksim.simulate, ("spades",), {"hands": 10, "out": 123}, "out must be a path"),
        "out a file": (tricksim.simulate, ("spades",), {"hands": 10, "out": a_file}, "is a file, not a folder"),
        "game int": (tricksim.simulate, (3,), {"hands": 10}, "game must be a string"),
        "preset int": (tricksim.simulate, ("spades",), {"hands": 10, "preset": 3}, "preset must be a string"),
        "rules int": (tricksim.simulate, ("spades",), {"hands": 10, "rules": 5}, "rules must be None, 'key=value'"),
        "rules list of int": (tricksim.simulate, ("spades",), {"hands": 10, "rules": [5]}, "rules must be None"),
        "seats int": (tricksim.simulate, ("spades",), {"hands": 10, "seats": 5}, "seats must be None, a spec"),
        "seats list of int": (tricksim.simulate, ("spades",), {"hands": 10, "seats": [1, 2, 3, 4]},
                              "a strategy must be a spec string"),
        "teams list": (tricksim.simulate, ("spades",), {"hands": 10, "teams": ["simple"]}, "teams must be None or"),
        "team bool": (tricksim.simulate, ("spades",), {"hands": 10, "teams": {True: "simple"}},
                      "team True does not exist"),
        # plan, execute, seat_strategies, default_strategy
        "plan hands str": (api.plan, ("spades",), {"hands": "10"}, "hands must be a whole number"),
        "execute cfg": (api.execute, ("spades", "out"), {}, "cfg must be a run's configuration"),
        "seat_strategies seats": (api.seat_strategies, ("spades", 7), {}, "seats must be None, a spec"),
        "seat_strategies default": (api.seat_strategies, ("spades",), {"default": 7},
                                    "a strategy must be a spec string"),
        "default_strategy int": (api.default_strategy, (7,), {}, "game must be a string"),
        # open, summary, report
        "open int": (tricksim.open, (123,), {}, "path must be a run (tricksim.open) or a run directory's path"),
        "open None": (tricksim.open, (None,), {}, "path must be a run"),
        "summary int": (tricksim.summary, (123,), {}, "run must be a run (tricksim.open)"),
        "summary engine": (tricksim.summary, (RUN,), {"engine": "spark"}, "invalid engine='spark'"),
        "report into a file": (tricksim.report, ([RUN], a_file), {}, "is a file, not a folder"),
        "report no runs": (tricksim.report, ([], tmp / "rep"), {}, "runs is empty"),
        "report run int": (tricksim.report, ([RUN, 5], tmp / "rep"), {}, "runs must be a run"),
        "report out None": (tricksim.report, ([RUN], None), {}, "out must be a path"),
        "report title": (tricksim.report, ([RUN], tmp / "rep"), {"title": 5}, "title must be a string"),
        # compare
        "compare spec int": (tricksim.compare, ("heuristic", 5), {"games": 10}, "must be a spec string"),
        "compare games str": (tricksim.compare, ("heuristic", "simple"), {"games": "10"}, "games must be a whole"),
        "compare games 0": (tricksim.compare, ("heuristic", "simple"), {"games": 0}, "invalid games=0"),
        "compare seed bool": (tricksim.compare, ("heuristic", "simple"), {"games": 10, "seed": False},
                              "seed must be a whole number"),
        "compare threads": (tricksim.compare, ("heuristic", "simple"), {"games": 10, "threads": 0},
                            "invalid threads=0"),
        "compare echo": (tricksim.compare, ("heuristic", "simple"), {"games": 10, "echo": "print"},
                         "echo must be a function"),
        "compare out": (tricksim.compare, ("heuristic", "simple"), {"games": 10, "out": a_file},
                        "is a file, not a folder"),
        "compare tarot hand_limit": (tricksim.compare, ("heuristic", "random"),
                                     {"game": "tarot", "deals": 10, "hand_limit": 30}, "a tarot deal stands alone"),
        # atlas
        "atlas game int": (tricksim.atlas, (5,), {}, "game must be a string"),
        "atlas no atlas": (tricksim.atlas, ("bridge",), {}, "no variant atlas for game 'bridge': allowed spades | tarot"),
        "atlas games 0": (tricksim.atlas, ("spades",), {"games": 0}, "invalid games=0: allowed a whole number from 2"),
        "atlas games str": (tricksim.atlas, ("spades",), {"games": "10"}, "games must be a whole number"),
        "atlas variants int": (tricksim.atlas, ("spades",), {"variants": 5}, "variants must be None"),
        "atlas variant": (tricksim.atlas, ("spades",), {"variants": ["bridge"]}, "unknown variant 'bridge'"),
        "atlas players": (tricksim.atlas, ("spades",), {"players": ["heuristic"]}, "players must be two strategy"),
        "atlas seed bool": (tricksim.atlas, ("spades",), {"seed": True}, "seed must be a whole number"),
        "atlas progress": (tricksim.atlas, ("spades",), {"progress": "yes"}, "progress must be True or False"),
        "atlas echo": (tricksim.atlas, ("spades",), {"echo": "x"}, "echo must be a function"),
        "atlas out": (tricksim.atlas, ("spades",), {"out": a_file}, "is a file, not a folder"),
        # the Spades functions
        "nil int": (tricksim.nil, (5,), {}, "runs must be a run"),
        "nil hand": (tricksim.nil, (RUN,), {"hand": "both"}, "invalid hand='both': allowed dealt | held"),
        "nil by": (tricksim.nil, (RUN,), {"by": 3}, "by must be a string"),
        "nil figure": (tricksim.nil, (RUN,), {"figure": "yes"}, "figure must be True or False"),
        "nil_report save": (tricksim.nil_report, (RUN,), {"save": 5}, "save must be a path"),
        "nil_report chart": (tricksim.nil_report, (RUN,), {"chart": tmp / "c.txt"},
                             "allowed a file name ending .png | .svg | .pdf"),
        "nil_report save folder": (tricksim.nil_report, (RUN,), {"save": tmp}, "is a folder"),
        "sweep grid": (tricksim.sweep, (5,), {"vs": "heuristic"}, "grid must be a string"),
        "sweep vs": (tricksim.sweep, ("heuristic:nil_threshold=1..2:1",), {"vs": None}, "vs must be a string"),
        "sweep games": (tricksim.sweep, ("heuristic:nil_threshold=1..2:1",), {"vs": "simple", "games": 1},
                        "invalid games=1: allowed a whole number from 2"),
        "sweep metric": (tricksim.sweep, ("heuristic:nil_threshold=1..2:1",), {"vs": "simple", "metric": "best"},
                         "invalid metric='best': allowed win | margin"),
        "sweep confirm": (tricksim.sweep, ("heuristic:nil_threshold=1..2:1",), {"vs": "simple", "confirm": -1},
                          "invalid confirm=-1"),
        "sweep echo": (tricksim.sweep, ("heuristic:nil_threshold=1..2:1",), {"vs": "simple", "echo": 1},
                       "echo must be a function"),
        "dd int": (tricksim.dd, (5,), {}, "run must be a run"),
        # the Tarot functions
        "sessions int": (tricksim.sessions, (5,), {}, "runs must be a run"),
        "sessions engine": (tricksim.sessions, (RUN,), {"engine": "spark"}, "invalid engine"),
        "dd threads": (tricksim.dd, (RUN,), {"threads": "2"}, "threads must be a whole number"),
        "dd echo": (tricksim.dd, (RUN,), {"echo": "x"}, "echo must be a function"),
    }


NAMES = list(cases(__import__("pathlib").Path("/tmp")))


@pytest.mark.parametrize("name", NAMES)
def test_a_wrong_argument_is_one_line_and_leaves_nothing_on_disk(name, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # default output folders (data/...) land here too
    (tmp_path / "a_file.txt").write_text("mine")
    function, positional, keywords, words = cases(tmp_path)[name]
    with pytest.raises(tricksim.TricksimError) as e:
        function(*positional, **keywords)
    assert words in str(e.value) and "\n" not in str(e.value)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a_file.txt"]
    assert (tmp_path / "a_file.txt").read_text() == "mine"


def test_every_public_function_is_fed_a_wrong_argument():
    """The cases above reach every function of the API (``tricksim.api.__all__`` and the games' functions)."""
    reached = {f.__name__ for f, *_ in cases(__import__("pathlib").Path("/tmp")).values()}
    public = {n for n in api.__all__ if callable(getattr(api, n)) and n != "TricksimError"}
    public |= set(api.game_functions())
    assert public - reached == set()
