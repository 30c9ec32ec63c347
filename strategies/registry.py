"""Strategy registry: names -> seat policies with documented parameters.

A strategy module calls :func:`register` once with its four policy functions
(compiled with the signatures in ``tricksim.simulator.games.spades.policy``) and its parameters.
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
import pkgutil
import re
from dataclasses import dataclass, field

import numpy as np

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


@dataclass(frozen=True, kw_only=True)
class Strategy:
    name: str
    description: str
    policies: dict            # slot name -> compiled function, one per slot of the game's family
    params: tuple[Param, ...] = ()
    game: str = field(default_factory=default_game)

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


def _load_all(game: str) -> None:
    """Import every built-in strategy module of ``game`` once, so each registers itself."""
    try:
        package = importlib.import_module(_package(game))
    except ModuleNotFoundError:
        return
    for mod in pkgutil.iter_modules(package.__path__):
        if not mod.name.startswith("_"):
            importlib.import_module(f"{_package(game)}.{mod.name}")


def available(game: str | None = None) -> dict[str, Strategy]:
    """The strategies of ``game`` (default: the default game) by name."""
    game = game or default_game()
    _load_all(game)
    return dict(sorted((name, s) for (g, name), s in _REGISTRY.items() if g == game))


def get(name: str, game: str | None = None) -> Strategy:
    """The strategy ``name`` of ``game`` (default: the default game); raises StrategyError naming the allowed."""
    game = game or default_game()
    # fast path: a strategy lives in the module of the same name, so only it gets imported
    # (each imported strategy costs its compile-cache load at start-up)
    if (game, name) not in _REGISTRY and name.isidentifier():
        module = f"{_package(game)}.{name}"
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as e:
            if e.name not in (module, _package(game)):
                raise
    if (game, name) in _REGISTRY:
        return _REGISTRY[(game, name)]
    strategies = available(game)
    if name not in strategies:
        raise StrategyError(f"unknown {game} strategy {name!r}: allowed {' | '.join(strategies)}")
    return strategies[name]


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
    names = {name for (g, name) in _REGISTRY if g == game}
    try:
        package = importlib.import_module(_package(game))
    except ModuleNotFoundError:
        return names
    return names | {m.name for m in pkgutil.iter_modules(package.__path__) if not m.name.startswith("_")}


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
