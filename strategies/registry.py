"""Strategy registry: names -> seat policies with documented parameters.

A strategy is registered once, with :func:`register`: its name, description, parameters and policy
functions (compiled with the signatures of its family's ``policy.py``). A built-in registers in a light
module of its game's ``meta`` folder (``strategies/<game>/meta/<name>.py``) and names its policies by
the module that compiles them (``policies="tricksim.strategies.<game>.<name>"``), imported on first use:
listing the strategies and checking a spec compile nothing (issue #26). A strategy of a game kept elsewhere
may register from its policies' own module with ``policies={slot: function}``.
Parameters travel to the kernel as a float vector, so sweeping them never
recompiles anything.

Spec strings, as used on the command line: ``NAME`` or
``NAME:param=value,param=value`` (e.g. ``heuristic:bag_mode=avoid``), optionally
behind a label of the user's: ``LABEL=SPEC`` (e.g.
``cautious=heuristic:bag_mode=avoid,nil_threshold=0.3``), the short name tables
and charts then show. A spec never holds ``=`` before its ``:``, so the two
forms cannot be confused.
"""
from __future__ import annotations

import importlib
import importlib.util
import pkgutil
import re
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from tricksim.simulator.compiling import announced
from tricksim.simulator.errors import StrategyError
from tricksim.simulator.family import N_PARAMS, FamilyError, default_game, family


@dataclass(frozen=True)
class Param:
    name: str
    default: float
    help: str
    choices: tuple[str, ...] = ()  # named values, encoded as their index
    lo: float = -1e18
    hi: float = 1e18
    switch: bool = False  # on or off: 1 or 0 (true/false, yes/no, on/off), nothing between

    def parse(self, text: str) -> float:
        t = text.strip().lower()
        if self.choices:
            if t not in self.choices:
                raise StrategyError(f"invalid value {self.name}={text!r}: allowed {' | '.join(self.choices)}")
            return float(self.choices.index(t))
        if self.switch:
            if t in ("1", "1.0", "true", "yes", "on"):
                return 1.0
            if t in ("0", "0.0", "false", "no", "off"):
                return 0.0
            raise StrategyError(f"invalid value {self.name}={text!r}: allowed 1 or 0 (on or off; true or false)")
        if t in ("true", "yes", "on"):
            v = 1.0
        elif t in ("false", "no", "off"):
            v = 0.0
        else:
            try:
                v = float(t)
            except ValueError:
                raise StrategyError(f"invalid value {self.name}={text!r}: allowed a number from {self.lo:g} to {self.hi:g}") from None
        if not self.lo <= v <= self.hi:
            raise StrategyError(f"invalid value {self.name}={text!r}: allowed a number from {self.lo:g} to {self.hi:g}")
        return v

    def show(self, value: float) -> str:
        return self.choices[int(value)] if self.choices else f"{value:g}"


_RESOLVING = threading.RLock()


class Policies(Mapping):
    """Slot name -> policy function, read from the attributes of the same names of ``module`` when first
    asked (importing the module compiles its functions, or loads them from the compile cache): the slots are
    known without importing it."""

    def __init__(self, module: str, slots: tuple[str, ...]):
        self.module, self.slots = module, tuple(slots)
        self._functions: dict | None = None

    def _resolve(self) -> dict:
        if self._functions is None:
            with _RESOLVING:  # a run's worker threads may ask at once: one imports, and says so once
                if self._functions is None:
                    self._functions = self._import()
        return self._functions

    def _import(self) -> dict:
        *_, game, name = self.module.split(".")
        with announced(f"the {game} strategy {name}"):  # its functions compile as it is imported
            mod = importlib.import_module(self.module)
        missing = [slot for slot in self.slots if not callable(getattr(mod, slot, None))]
        if missing:
            raise StrategyError(f"{self.module} must define the policies {', '.join(self.slots)}; "
                                f"missing {', '.join(missing)}")
        return {slot: getattr(mod, slot) for slot in self.slots}

    @property
    def loaded(self) -> bool:
        """Whether the functions have been imported."""
        return self._functions is not None

    def __getitem__(self, slot):
        return self._resolve()[slot]

    def __iter__(self):
        return iter(self.slots)

    def __len__(self):
        return len(self.slots)

    def __reduce__(self):
        return Policies, (self.module, self.slots)

    def __repr__(self):
        return f"Policies({self.module!r})"


@dataclass(frozen=True, kw_only=True)
class Strategy:
    name: str
    description: str
    # slot name -> compiled function, one per slot of the game's family; or the name of the module that
    # defines them under the slots' names, imported when a policy is first asked for (Policies)
    policies: Mapping | str
    params: tuple[Param, ...] = ()
    game: str = field(default_factory=default_game)
    # rule flag -> the values of it this strategy does not play: a run that seats it under one is refused
    refuses: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    # boolean rule flags the strategy cannot play without -> why, with what to play instead: the engine
    # refuses a run whose rules have one of them false (e.g. pimc: {"partnerships": ...})
    needs: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self):
        if isinstance(self.policies, str):
            try:
                slots = family(self.game).policy_slots
            except FamilyError as e:
                raise StrategyError(f"strategy {self.name!r}: {e}") from None
            object.__setattr__(self, "policies", Policies(self.policies, slots))

    @property
    def functions(self) -> tuple:
        """The policy functions in the order of the family's slots (as the engine takes them)."""
        return tuple(self.policies[slot] for slot in family(self.game).policy_slots)

    def param_vector(self, values: dict[str, float] | None = None) -> np.ndarray:
        vec = np.zeros(N_PARAMS, dtype=np.float64)
        for i, p in enumerate(self.params):
            vec[i] = p.default
        for k, v in (values or {}).items():
            vec[self.index(k)] = v
        return vec

    def index(self, name: str) -> int:
        for i, p in enumerate(self.params):
            if p.name == name:
                return i
        allowed = ", ".join(p.name for p in self.params) or "(none)"
        raise StrategyError(f"strategy {self.name!r} has no parameter {name!r}: allowed {allowed}")


@dataclass(frozen=True)
class SeatStrategy:
    """A strategy with its parameter values, as one seat plays it; ``alias``: the user's short name for it."""

    strategy: Strategy
    values: dict = field(default_factory=dict)
    alias: str | None = None

    @property
    def label(self) -> str:
        """What tables and charts call this seat: the user's alias, else :attr:`short_spec`."""
        return self.alias or self.short_spec

    @property
    def params(self) -> np.ndarray:
        return self.strategy.param_vector(self.values)

    @property
    def functions(self) -> tuple:
        return self.strategy.functions

    @property
    def refuses(self) -> Mapping[str, tuple[str, ...]]:
        return self.strategy.refuses

    @property
    def needs(self) -> Mapping[str, str]:
        return self.strategy.needs

    @property
    def spec(self) -> str:
        """Canonical spec string: every parameter spelled out."""
        vec = self.params
        parts = [f"{p.name}={p.show(vec[i])}" for i, p in enumerate(self.strategy.params)]
        return self.strategy.name + (":" + ",".join(parts) if parts else "")

    def __reduce_ex__(self, protocol):
        # a built-in travels by name (to a Dask worker, say) and is looked up there, so the worker finds
        # the same compiled functions and the same compiled-in kernel (kernel.policy_kind_of compares the
        # functions themselves); any other strategy is pickled whole
        s = self.strategy
        if _REGISTRY.get((s.game, s.name)) is s:
            return _registered_seat, (s.game, s.name, dict(self.values), self.alias)
        return object.__reduce_ex__(self, protocol)

    @property
    def short_spec(self) -> str:
        """Spec string with only the parameters that differ from the defaults."""
        s = self.strategy
        parts = [f"{k}={s.params[s.index(k)].show(v)}" for k, v in self.values.items()]
        return s.name + (":" + ",".join(parts) if parts else "")


_REGISTRY: dict[tuple[str, str], Strategy] = {}


def _registered_seat(game: str, name: str, values: dict, alias: str | None = None) -> SeatStrategy:
    return SeatStrategy(get(name, game), values, alias)


def register(strategy: Strategy) -> Strategy:
    """Add ``strategy`` under (its game, its name); checks its slots against the game's family."""
    try:
        slots = family(strategy.game).policy_slots
    except FamilyError as e:
        raise StrategyError(f"strategy {strategy.name!r}: {e}") from None
    if set(strategy.policies) != set(slots):
        raise StrategyError(f"strategy {strategy.name!r} must give the {strategy.game} policies {', '.join(slots)}; "
                            f"got {', '.join(strategy.policies) or 'none'}")
    if len(strategy.params) > N_PARAMS:
        raise StrategyError(f"strategy {strategy.name!r} has more than {N_PARAMS} parameters")
    _REGISTRY[(strategy.game, strategy.name)] = strategy
    return strategy


def _package(game: str) -> str:
    return f"tricksim.strategies.{game}"  # the built-in strategies of a game: one module each


def _module_names(package: str) -> list[str]:
    """The public modules (not the packages) of ``package``, or none when it does not exist."""
    try:
        pkg = importlib.import_module(package)
    except ModuleNotFoundError as e:
        if e.name is not None and package.startswith(e.name):
            return []
        raise
    return [m.name for m in pkgutil.iter_modules(pkg.__path__) if not m.name.startswith("_") and not m.ispkg]


def _register_module(game: str, name: str) -> None:
    """Import the module that registers the strategy ``name`` of ``game``: its light ``meta`` module when it has
    one (nothing compiled), else the strategy's own module."""
    meta = f"{_package(game)}.meta.{name}"
    try:
        has_meta = importlib.util.find_spec(meta) is not None
    except ModuleNotFoundError:
        has_meta = False
    importlib.import_module(meta if has_meta else f"{_package(game)}.{name}")


def _load_all(game: str) -> None:
    """Register every built-in strategy of ``game`` (their metadata: no policy is compiled)."""
    for name in _module_names(_package(game)):
        if (game, name) not in _REGISTRY:
            _register_module(game, name)


def available(game: str | None = None) -> dict[str, Strategy]:
    """The strategies of ``game`` (default: the default game) by name."""
    game = game or default_game()
    _load_all(game)
    return dict(sorted((name, s) for (g, name), s in _REGISTRY.items() if g == game))


def get(name: str, game: str | None = None) -> Strategy:
    """The strategy ``name`` of ``game`` (default: the default game); raises StrategyError naming the allowed.
    A strategy lives in the module of its name, so only its registration is imported; an unknown name is
    refused with the names of the folder, without importing any."""
    game = game or default_game()
    if (game, name) not in _REGISTRY:
        names = _names(game)
        if name not in names:
            raise StrategyError(f"unknown {game} strategy {name!r}: allowed {' | '.join(sorted(names))}")
        _register_module(game, name)
        if (game, name) not in _REGISTRY:  # a module that registers under another name: look everywhere
            _load_all(game)
    if (game, name) not in _REGISTRY:
        raise StrategyError(f"unknown {game} strategy {name!r}: allowed {' | '.join(available(game))}")
    return _REGISTRY[(game, name)]


ALIAS = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
SPEC_FORMS = ("NAME[:param=value,...] or LABEL=NAME[:param=value,...] with LABEL made of letters, digits and _ "
              "(e.g. cautious=heuristic:bag_mode=avoid)")


def split_alias(text: str) -> tuple[str | None, str]:
    """``'LABEL=SPEC'`` -> (LABEL, SPEC); a plain spec -> (None, spec). A spec never holds ``=`` before its
    ``:`` (its parameters come after the colon), so an ``=`` before any ``:`` marks a label."""
    t = text.strip()
    eq, colon = t.find("="), t.find(":")
    if eq < 0 or 0 <= colon < eq:
        return None, t
    alias, spec = t[:eq].strip(), t[eq + 1:].strip()
    if not ALIAS.fullmatch(alias) or not spec or split_alias(spec)[0] is not None:
        raise StrategyError(f"bad strategy {text!r}: write {SPEC_FORMS}")
    return alias, spec


def _names(game: str) -> set[str]:
    """The strategy names of ``game``, without importing their modules (a module per strategy)."""
    return {name for (g, name) in _REGISTRY if g == game} | set(_module_names(_package(game)))


def spec_form(spec: str) -> tuple[str | None, str, list[tuple[str, str]]]:
    """``[LABEL=]NAME[:param=value,...]`` -> (LABEL or None, NAME, [(param, value text), ...]): the form of a
    spec, whatever the game, checked without loading any strategy; raises StrategyError."""
    alias, text = split_alias(spec)
    name, _, rest = text.partition(":")
    if not name.strip():
        raise StrategyError(f"bad strategy {spec!r}: write {SPEC_FORMS}")
    items: list[tuple[str, str]] = []
    for item in filter(None, (s.strip() for s in rest.split(","))):
        k, eq, v = item.partition("=")
        if not eq or not k.strip():
            raise StrategyError(f"bad strategy parameter {item!r} in {spec!r}: expected param=value")
        for seen, before in items:
            if seen == k.strip():
                raise StrategyError(f"parameter {seen!r} is given twice in {spec!r} ({seen}={before.strip()} and "
                                    f"{seen}={v.strip()}): give each parameter once")
        items.append((k.strip(), v))
    return alias, name.strip(), items


def parse_spec(spec: str, game: str | None = None) -> SeatStrategy:
    """``[LABEL=]NAME[:param=value,...]`` -> SeatStrategy of ``game`` (default: the default game); raises
    StrategyError."""
    game = game or default_game()
    alias, name, items = spec_form(spec)
    if alias is not None and alias in _names(game):
        raise StrategyError(f"bad strategy label {alias!r} in {spec!r}: it is the name of a {game} strategy; "
                            f"write {SPEC_FORMS}")
    strategy = get(name, game)
    values = {k: strategy.params[strategy.index(k)].parse(v) for k, v in items}
    return SeatStrategy(strategy, values, alias)


def check_labels(seats) -> None:
    """One label, one strategy: two different seat strategies under one label would be confused in every
    table (StrategyError naming the label)."""
    seen: dict[str, str] = {}
    for s in seats:
        if seen.setdefault(s.label, s.spec) != s.spec:
            raise StrategyError(f"the label {s.label!r} is given to two different strategies: give each its own "
                                "LABEL=")
