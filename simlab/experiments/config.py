"""Experiment configs: the YAML schema, its validation, and the resolved config.

A config is checked completely before anything runs. Its mistakes raise one
``ConfigError`` that lists every one of them (each key is checked on its own, so
one mistake hides no other), each naming the file, the key path, what was expected
and what was found, in the house grammar::

    experiments/x.yaml: deals.count must be an int >= 1. Got -5 (an int).
    experiments/x.yaml: policies[1].params: unknown key 'dpeth'. Did you mean 'depth'? ...

A check that needs another key's value (a claim's policy label, a scheduler's
backend) is left out while that key is wrong, so no mistake is reported twice.

Unknown keys are errors, never dropped; YAML is read with a safe loader that
also rejects duplicate keys (a silent overwrite is a dropped key too).
"""

from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Hashable, Mapping, NoReturn, TypeVar

import yaml

from simlab.errors import ConfigError, ParameterError, SimlabError, UnknownNameError
from simlab.experiments.sources import source_digest
from simlab.games import GAMES
from simlab.input_limits import MAX_INPUT_BYTES, MAX_NESTING, read_capped
from simlab.params import DEAL_NUMBER, ROOT_SEED, Param, resolve_params
from simlab.policies.catalog import policy_class, refuse_unplayable, warn_unused
from simlab.registry import did_you_mean
from simlab.version import __version__

BACKENDS = ("loky", "threading", "sequential", "dask")
DEFAULT_CHUNK_SIZE = 25
# Seconds one deal of a user or built-in policy may take (the solver's budget is its own limit).
DEFAULT_DEAL_TIMEOUT = 300.0
# The supervised pool looks at a running deal 4 to 10 times a second: a shorter limit cannot be kept.
MIN_DEAL_TIMEOUT = 1.0
# A worker process's resident memory cap (``execution.worker_memory``), in MiB: ``auto`` derives it
# from the machine's memory and ``n_jobs`` (``pool.memory_cap``); a loaded worker holds 200-450 MiB
# (the solver at its default table up to 900), so less would fail ordinary deals.
DEFAULT_WORKER_MEMORY = "auto"
MIN_WORKER_MEMORY = 512
_MEMORY_PATTERN = re.compile(r"\s*([0-9]+(?:\.[0-9]+)?)\s*(MB|MiB|GB|GiB)\s*", re.IGNORECASE)
_NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")
MAX_NAME_LENGTH = 100  # it names a folder; most file systems allow 255 bytes
MAX_DEALS = 1_000_000  # deals of one experiment (each is a row per cell in memory and on disk)
MAX_DEAL_NUMBER = int(DEAL_NUMBER.high)  # the results database stores deal numbers as signed 64-bit ints
MAX_CONFIG_BYTES = MAX_INPUT_BYTES  # a config is a page of YAML; more is a mistake (or an attack)
MAX_CONFIG_VALUES = 100_000  # values after aliases are expanded (a "billion laughs" bomb has 10**9)
MAX_CONFIG_DEPTH = MAX_NESTING  # lists and mappings inside each other (a config needs 5; 1,000 broke the parser)
# A dask scheduler address: tcp://host:port (or another dask protocol), or host:port.
_SCHEDULER_PATTERN = re.compile(r"((tcp|tls|ucx|ws|wss|inproc)://)?[A-Za-z0-9_.\-\[\]:]+:[0-9]{1,5}")

TOP_KEYS = ("name", "description", "root_seed", "deals", "games", "policies", "claims",
            "ladder", "report", "execution", "output")
TOP_REQUIRED = ("name", "deals", "games", "policies")
DEFAULT_ROOT_SEED = 0  # ``root_seed`` when a config gives none (the resolved config writes it out)
REPORT_KEYS = ("comparisons",)
COMPARISON_CHOICES = ("all", "players")  # ``tables.ALL_CELLS``, ``tables.PLAYERS_ONLY``
MAX_LISTED_ERRORS = 25  # a config's mistakes listed in one message; the rest are counted
T = TypeVar("T")
COMPONENT_KEYS = ("name", "params", "label")
CLAIM_KEYS = ("game", "policy", "win_rate", "source", "tolerance", "text")
CLAIM_REQUIRED = ("game", "policy", "win_rate", "source")
LADDER_KEYS = ("rungs", "perfect", "tries")
LADDER_REQUIRED = ("rungs", "perfect")
MAX_TRIES = 1000  # tries per deal of a stochastic rung (each is a full play of the deal)
EXECUTION_KEYS = ("n_jobs", "backend", "chunk_size", "scheduler", "deal_timeout", "worker_memory")


def default_label(name: str, params: dict[str, Any], defaults: dict[str, Any]) -> str:
    """A component's label when the config gives none: its name, and the parameters that
    differ from their defaults (``citadel (deal=hoyle)``), so tables never show two
    different rule sets or players under one bare name."""
    changed = [f"{key}={value}" for key, value in params.items() if key not in defaults or defaults[key] != value]
    return f"{name} ({', '.join(changed)})" if changed else name


def _default_labelled(component: "Component") -> bool:
    """Whether a component's label reads as ``default_label`` makes one (its name, alone or
    followed by its changed parameters), so its bare name may stand for it."""
    return component.label == component.name or component.label.startswith(f"{component.name} (")


@dataclass(frozen=True)
class Component:
    """A game or policy of the experiment, its parameters resolved.

    Attributes:
        label: how tables and claims name it (unique per kind; by default ``name``, with the
            parameters that differ from their defaults: ``citadel (deal=hoyle)``).
        name: the registered name, or ``module:Class`` for a user policy.
        params: every parameter with its checked value (defaults filled in).
        version: the class's ``version``; it changes only when behaviour changes.
        code: what else decides its results: ``source sha256:…`` of a user policy's
            module and the user modules it imports (``sources.source_digest``),
            ``simlab X.Y.Z`` for a built-in (part of the store's cell key).
    """

    label: str
    name: str
    params: dict[str, Any]
    version: int
    code: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "label": self.label, "params": dict(self.params)}


@dataclass(frozen=True)
class Claim:
    """A published figure to test: ``policy`` wins ``win_rate`` of ``game`` deals.

    ``tolerance`` turns a loose claim ("roughly half") into the interval
    ``win_rate ± tolerance``.
    """

    game: str
    policy: str
    win_rate: float
    source: str
    tolerance: float = 0.0
    text: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"game": self.game, "policy": self.policy, "win_rate": self.win_rate,
                "source": self.source, "tolerance": self.tolerance, "text": self.text}


@dataclass(frozen=True)
class Ladder:
    """Players ordered from weakest to strongest, and the one that stands for perfect play.

    Attributes:
        rungs: policy labels, weakest first.
        perfect: the policy label of perfect play (the solver): its ``lost`` means
            unwinnable, its ``unknown`` unknown.
        tries: a stochastic rung (``Policy.is_stochastic``) wins a deal when it wins at
            least one of ``tries`` plays of it, each seeded by (deal, root seed, policy, try).
        unproved: the labels of the games where ``perfect``'s ``lost`` is no proved loss
            (``Policy.proves_losses``). A new config has none (it is refused); a stored config
            read back (``simlab report`` of a folder an earlier simlab ran) may, and its
            losses there are ``unknown``, never ``unwinnable``. Derived, not written.
    """

    rungs: tuple[str, ...]
    perfect: str
    tries: int = 1
    unproved: tuple[str, ...] = field(default=(), compare=False)

    def to_dict(self) -> dict[str, Any]:
        return {"rungs": list(self.rungs), "perfect": self.perfect, "tries": self.tries}


@dataclass(frozen=True)
class ReportOptions:
    """How the report reads the results (never part of a result).

    Attributes:
        comparisons: ``all`` compares every two cells, upper bounds (``thoughtful`` play)
            included and labelled (``comparisons.csv``'s ``upper_bound``); ``players``
            compares players only (open and fair cells), Holm's adjustment over those.
    """

    comparisons: str = "all"

    def to_dict(self) -> dict[str, Any]:
        return {"comparisons": self.comparisons}


@dataclass(frozen=True)
class Execution:
    """How to run: never part of a result (results do not depend on it)."""

    n_jobs: int = -1
    backend: str = "loky"
    chunk_size: int = DEFAULT_CHUNK_SIZE
    scheduler: str | None = None
    deal_timeout: float | None = DEFAULT_DEAL_TIMEOUT  # enforced by the loky backend's pool
    # MiB of resident memory a loky worker may hold, "auto", or None: no cap (``pool.memory_cap``)
    worker_memory: float | str | None = DEFAULT_WORKER_MEMORY

    def to_dict(self) -> dict[str, Any]:
        memory = self.worker_memory
        return {"n_jobs": self.n_jobs, "backend": self.backend, "chunk_size": self.chunk_size,
                "scheduler": self.scheduler, "deal_timeout": self.deal_timeout,
                "worker_memory": int(memory) if isinstance(memory, float) and memory.is_integer() else memory}


@dataclass(frozen=True)
class ExperimentConfig:
    """A validated experiment. Build it with ``load_config`` or ``config_from_dict``."""

    name: str
    root_seed: int
    deals: tuple[int, ...]
    deals_spec: Any
    games: tuple[Component, ...]
    policies: tuple[Component, ...]
    claims: tuple[Claim, ...] = ()
    ladder: Ladder | None = None
    report: ReportOptions = field(default_factory=ReportOptions)
    execution: Execution = field(default_factory=Execution)
    output: Path = Path("results")
    description: str = ""
    source: str = "<config>"

    def to_dict(self) -> dict[str, Any]:
        """The resolved config: every default written out; loading it gives this config."""
        resolved = {
            "name": self.name, "description": self.description, "root_seed": self.root_seed,
            "deals": self.deals_spec,
            "games": [g.to_dict() for g in self.games],
            "policies": [p.to_dict() for p in self.policies],
            "claims": [c.to_dict() for c in self.claims],
            "execution": self.execution.to_dict(), "output": str(self.output),
        }
        if self.ladder is not None:  # only then: a config without one reads as it always did
            resolved["ladder"] = self.ladder.to_dict()
        if self.report != ReportOptions():  # likewise
            resolved["report"] = self.report.to_dict()
        return resolved

    def to_yaml(self) -> str:
        return yaml.safe_dump(self.to_dict(), sort_keys=False, default_flow_style=False)


# ----- reading YAML -----------------------------------------------------------------
class _StrictLoader(yaml.SafeLoader):
    """The safe loader, but a key written twice in one mapping is an error."""


def _construct_mapping(loader: _StrictLoader, node: yaml.MappingNode) -> dict[Any, Any]:
    seen: dict[Any, Any] = {}
    for key_node, _ in node.value:
        if key_node.tag == "tag:yaml.org,2002:merge":  # `<<: *x`: merged keys may be overridden
            continue
        key = loader.construct_object(key_node)
        if not isinstance(key, Hashable):  # `? [a, b]`: a list or mapping as a key
            raise yaml.constructor.ConstructorError(
                None, None, f"a key must be a name, not a {'list' if isinstance(key, list) else 'mapping'}",
                key_node.start_mark)
        if key in seen:
            raise yaml.constructor.ConstructorError(
                None, None, f"duplicate key {key!r} (a later value would silently replace "
                "the earlier one)", key_node.start_mark)
        seen[key] = True
    return loader.construct_mapping(node)


_StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


def load_config(path: str | Path) -> ExperimentConfig:
    """Read and validate the experiment config at ``path``.

    Raises:
        ConfigError: for a missing file, bad YAML, or any invalid content.
    """
    source = str(path)
    return config_from_dict(parse_yaml(read_text(path, source), source), source=source)


def read_text(path: str | Path, source: str) -> str:
    """The file as text: UTF-8 (a UTF-8 byte order mark is allowed), at most ``MAX_CONFIG_BYTES``."""
    try:
        data = read_capped(path, MAX_CONFIG_BYTES)
    except OSError as error:
        raise ConfigError(f"{source}: cannot read the config file: {error.strerror}.") from None
    if len(data) > MAX_CONFIG_BYTES:
        raise ConfigError(f"{source}: the config file must be at most {MAX_CONFIG_BYTES:,} bytes. "
                          "Got a larger file.")
    if data.startswith((b"\xff\xfe", b"\xfe\xff")) or b"\x00" in data:
        raise ConfigError(f"{source}: the config file must be UTF-8 text. Got UTF-16 (or binary) "
                          "data; save it as UTF-8.")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[:error.start].count(b"\n") + 1
        raise ConfigError(f"{source}: the config file must be UTF-8 text. Got byte "
                          f"0x{data[error.start]:02x} on line {line}, which is not UTF-8 (Latin-1 "
                          "or Windows-1252?); save the file as UTF-8.") from None


def parse_yaml(text: str, source: str) -> Any:
    """The YAML document, its size after alias expansion checked before it is built."""
    try:
        _check_nesting(text, source)  # first: the composer recurses once per level (and slowly)
        node = yaml.compose(text, Loader=_StrictLoader)  # _StrictLoader: a SafeLoader subclass
        _check_expansion(node, source)
        loader = _StrictLoader(text)
        try:
            return loader.get_single_data()
        finally:
            loader.dispose()
    except RecursionError:  # the parser and composer recurse once per level
        raise ConfigError(f"{source}: the config must nest lists and mappings at most {MAX_CONFIG_DEPTH} "
                          "levels deep. Got a deeper one.") from None
    except yaml.YAMLError as error:
        where = getattr(error, "problem_mark", None)
        at = f" (line {where.line + 1}, column {where.column + 1})" if where else ""
        problem = getattr(error, "problem", None) or str(error)
        raise ConfigError(f"{source}: not valid YAML{at}: {problem}.") from None


def _check_expansion(root: yaml.Node | None, source: str) -> None:
    """Refuse a document whose aliases expand to more than ``MAX_CONFIG_VALUES`` values.

    Aliases share nodes, so sizes are counted once per node (memoized): a
    "billion laughs" document is measured in microseconds, never built.
    """
    sizes: dict[int, int] = {}
    _check_depth(root, source)

    def size(node: yaml.Node) -> int:
        if id(node) not in sizes:
            sizes[id(node)] = 0  # a recursive alias counts as one value, not for ever
            children = (node.value if isinstance(node, yaml.SequenceNode)
                        else [n for pair in node.value for n in pair] if isinstance(node, yaml.MappingNode)
                        else [])
            sizes[id(node)] = min(1 + sum(size(child) for child in children), MAX_CONFIG_VALUES + 1)
        return sizes[id(node)]

    if root is not None and size(root) > MAX_CONFIG_VALUES:
        raise ConfigError(f"{source}: the config must expand to at most {MAX_CONFIG_VALUES:,} values. "
                          "Got more: its YAML aliases (*name) repeat too much (an alias bomb?).")


def _check_nesting(text: str, source: str) -> None:
    """Refuse a document nested deeper than ``MAX_CONFIG_DEPTH``, read as a stream of events
    (no recursion) and stopped at the first level too deep: 2 KB nested 1,000 deep was a
    ``RecursionError``."""
    depth = 0
    for event in yaml.parse(text, Loader=_StrictLoader):  # _StrictLoader: a SafeLoader subclass
        if isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
            depth += 1
            if depth > MAX_CONFIG_DEPTH:
                raise ConfigError(f"{source}: the config must nest lists and mappings at most {MAX_CONFIG_DEPTH} "
                                  f"levels deep. Got a deeper one (line {event.start_mark.line + 1}).")
        elif isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
            depth -= 1


def _check_depth(root: yaml.Node | None, source: str) -> None:
    """Refuse a document nested deeper than ``MAX_CONFIG_DEPTH`` (walked without recursion,
    so a deep one is measured, not a ``RecursionError``)."""
    stack = [(root, 1)] if root is not None else []
    seen: set[int] = set()
    while stack:
        node, depth = stack.pop()
        if depth > MAX_CONFIG_DEPTH:
            raise ConfigError(f"{source}: the config must nest lists and mappings at most {MAX_CONFIG_DEPTH} "
                              f"levels deep. Got a deeper one (line {node.start_mark.line + 1}).")
        if id(node) in seen:  # an alias: its node is walked once
            continue
        seen.add(id(node))
        children = (node.value if isinstance(node, yaml.SequenceNode)
                    else [n for pair in node.value for n in pair] if isinstance(node, yaml.MappingNode) else [])
        stack.extend((child, depth + 1) for child in children)


def config_from_dict(data: Any, source: str = "<config>", import_policies: bool = True) -> ExperimentConfig:
    """Validate an already parsed config (a dict), naming ``source`` in errors.

    ``import_policies=False`` takes a user policy's (already resolved) parameters
    as written, without importing its module: for rebuilding a report, which
    reads the cells from the database instead.
    """
    return _Validator(source, import_policies).experiment(data)


def code_of(cls: type, name: str) -> str:
    """What identifies the code of a game or policy class (``Component.code``)."""
    if ":" not in name:
        return f"simlab {__version__}"
    # the class's module and every module of the user's it imports (``sources.source_digest``)
    digest = source_digest(cls.__module__)
    return f"source sha256:{digest}" if digest else "source unknown"


# ----- validation -------------------------------------------------------------------
def _describe(value: Any) -> str:
    """A found value as messages show it: its repr and its YAML type."""
    kinds = {bool: "a bool", int: "an int", float: "a float", str: "a str",
             list: "a list", dict: "a mapping", type(None): "null"}
    return f"{value!r} ({kinds.get(type(value), type(value).__name__)})"


class _Reported(ConfigError):
    """A mistake already in the validator's list: stops checking what depends on it."""


def listed_errors(source: str, errors: list[str]) -> str:
    """One message for every mistake of a config: the one, or a list of them."""
    if len(errors) == 1:
        return errors[0]
    shown = [f"  - {error}" for error in errors[:MAX_LISTED_ERRORS]]
    if len(errors) > MAX_LISTED_ERRORS:
        shown.append(f"  - ... and {len(errors) - MAX_LISTED_ERRORS} more.")
    return f"{source}: {len(errors)} mistakes:\n" + "\n".join(shown)


class _Validator:
    """Checks one config; ``source`` (the file name) prefixes every message.

    ``fail`` raises at once; ``attempt`` runs one check, recording its mistake and
    going on, and ``raise_collected`` raises them all as one ``ConfigError``.
    """

    def __init__(self, source: str, import_policies: bool = True) -> None:
        self.source = source
        self.import_policies = import_policies
        self.errors: list[str] = []
        self.incomplete: set[str] = set()  # kinds ("game", "policy") with a mistake in their list

    def fail(self, path: str, message: str) -> NoReturn:
        raise ConfigError(f"{self.source}: {path}{message}")

    def note(self, path: str, message: str) -> None:
        """Record a mistake and go on."""
        self.errors.append(f"{self.source}: {path}{message}")

    def attempt(self, check: Callable[[], T], default: Any = None) -> T | Any:
        """``check()``, or ``default`` when it finds a mistake (recorded)."""
        try:
            return check()
        except _Reported:
            return default
        except ConfigError as error:
            self.errors.append(str(error))
            return default

    def raise_collected(self) -> None:
        """Raise every recorded mistake as one ``ConfigError`` (none: nothing happens)."""
        if self.errors:
            raise ConfigError(listed_errors(self.source, self.errors))

    def expect(self, path: str, expected: str, found: Any) -> NoReturn:
        self.fail(path, f" must be {expected}. Got {_describe(found)}.")

    def mapping(self, path: str, value: Any, allowed: tuple[str, ...],
                required: tuple[str, ...] = ()) -> dict[str, Any]:
        """``value`` as a mapping with only ``allowed`` keys and every ``required`` key."""
        if not isinstance(value, dict):
            self.expect(path or "the config", "a mapping", value)
        for key in value:
            if key not in allowed:
                self.note(path or "the config", f": unknown key {key!r}."
                          f"{did_you_mean(str(key), allowed)} Expected keys: {', '.join(allowed)}.")
        missing = [key for key in required if key not in value]
        for key in missing:
            self.note(path or "the config", f": the required key '{key}' is missing.")
        if missing:
            raise _Reported()
        return value

    def integer(self, path: str, value: Any, low: int | None = None) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or (low is not None and value < low):
            self.expect(path, "an int" + ("" if low is None else f" >= {low}"), value)
        return value

    def number(self, path: str, value: Any, low: float, high: float) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
            self.expect(path, f"a number in [{low:g}, {high:g}]", value)
        return float(value)

    def text(self, path: str, value: Any, pattern: re.Pattern[str] | None = None) -> str:
        if not isinstance(value, str) or not value.strip():
            self.expect(path, "a non-empty str", value)
        if pattern is not None and not (pattern.fullmatch(value) and len(value) <= MAX_NAME_LENGTH):
            self.expect(path, f"a str of letters, digits, '_', '.' and '-', at most {MAX_NAME_LENGTH} characters "
                        "long (it names a folder)", value if len(value) <= 60 else f"{value[:40]}…")
        return value

    def visible(self, path: str, value: str) -> str:
        """Refuse invisible formatting characters (Unicode's Cf: the bidirectional controls
        U+202A-202E, U+2066-2069, U+200E/U+200F, zero-width ones): in a label or a claim's
        text they would reach the CSV tables and report.md, and reorder or hide what a
        reader sees there."""
        for position, char in enumerate(value):
            if unicodedata.category(char) == "Cf":
                name = unicodedata.name(char, "a formatting character")
                self.fail(path, f" must be a str without invisible formatting characters (they reorder or hide "
                          f"text in the tables). Got U+{ord(char):04X} {name} at character {position + 1} "
                          f"of {value!r}.")
        return value

    def label_text(self, path: str, value: Any) -> str:
        """A label: it names rows of tables and ``report.md``, so one line without '|'."""
        value = self.visible(path, self.text(path, value))
        if any(ord(c) < 32 or c in "|\x7f" for c in value) or len(value) > MAX_NAME_LENGTH:
            self.expect(path, f"a str without control characters or '|', at most {MAX_NAME_LENGTH} characters "
                        "long (it names rows of the tables)", value if len(value) <= 60 else f"{value[:40]}…")
        return value

    def checked(self, path: str, param: Param, value: Any) -> Any:
        """``value`` checked as ``param`` (the command line checks its options with the same
        ``Param``), but of the exact type: YAML's "5" is a str, not an int."""
        exact = isinstance(value, param.kind) and not (param.kind is not bool and isinstance(value, bool))
        try:
            if exact:
                return param.check(value)
        except (ValueError, TypeError, OverflowError):
            pass
        self.expect(path, param.describe(), value)

    def path(self, path: str, value: Any) -> str:
        """A folder path: text without control characters, each part a possible file name."""
        value = self.text(path, value)
        if any(ord(c) < 32 for c in value) or any(len(part.encode()) > 255 for part in Path(value).parts):
            self.expect(path, "a folder path without control characters, each part at most 255 bytes",
                        value if len(value) <= 60 else f"{value[:40]}…")
        return value

    def experiment(self, data: Any) -> ExperimentConfig:
        """The config, or one ``ConfigError`` listing every mistake in it."""
        data = self.mapping("", data, TOP_KEYS)
        for key in TOP_REQUIRED:
            if key not in data:
                self.note("the config", f": the required key '{key}' is missing.")
        name = output = None
        if "name" in data:
            name = self.attempt(lambda: self.text("name", data["name"], _NAME_PATTERN))
        deals = self.attempt(lambda: self.deals(data["deals"])) if "deals" in data else None
        games = self.components("games", data["games"], "game") if "games" in data else ()
        policies = self.components("policies", data["policies"], "policy") if "policies" in data else ()
        self.playable(games, policies)
        claims = self.attempt(lambda: self.sequence("claims", data.get("claims", []), 0), [])
        claims = [self.attempt(lambda: self.claim(f"claims[{i}]", c, games, policies)) for i, c in enumerate(claims)]
        ladder = (self.attempt(lambda: self.ladder(data["ladder"], policies, games))
                  if data.get("ladder") is not None else None)
        report = self.attempt(lambda: self.report(data.get("report")), ReportOptions())
        root_seed = self.attempt(lambda: self.checked("root_seed", ROOT_SEED,
                                                      data.get("root_seed", DEFAULT_ROOT_SEED)))
        execution = self.attempt(lambda: self.execution(data.get("execution", {})))
        if "output" in data or name is not None:  # the default output needs a valid name
            output = self.attempt(lambda: self.path("output", data.get("output", f"results/{name}")))
        description = self.attempt(lambda: self.description(data.get("description")))
        self.raise_collected()  # below, every value is checked
        return ExperimentConfig(
            name=name, root_seed=root_seed, deals=deals[0], deals_spec=deals[1], games=games,
            policies=policies, claims=tuple(claims), ladder=ladder, report=report, execution=execution,
            output=Path(output), description=description, source=self.source,
        )

    def report(self, value: Any) -> ReportOptions:
        """``report: {comparisons: all | players}`` (``ReportOptions``)."""
        spec = self.mapping("report", value if value is not None else {}, REPORT_KEYS)
        comparisons = spec.get("comparisons", ReportOptions.comparisons)
        if comparisons not in COMPARISON_CHOICES:
            self.fail("report.comparisons", f" must be one of {', '.join(COMPARISON_CHOICES)}. Got "
                      f"{_describe(comparisons)}.{did_you_mean(str(comparisons), COMPARISON_CHOICES)}")
        return ReportOptions(comparisons=comparisons)

    def description(self, value: Any) -> str:
        return "" if value is None else self.optional_text("description", value)

    def optional_text(self, path: str, value: Any) -> str:
        """A free text that may be empty (a description, a quote)."""
        if value is None:
            return ""
        if not isinstance(value, str):
            self.expect(path, "a str", value)
        return value

    def sequence(self, path: str, value: Any, least: int) -> list[Any]:
        if not isinstance(value, list) or len(value) < least:
            self.expect(path, "a list" + (f" of at least {least} item" if least else ""), value)
        return value

    def deals(self, value: Any) -> tuple[tuple[int, ...], Any]:
        """Deal numbers from ``{start, count}`` or an explicit list (numbers >= 1)."""
        if isinstance(value, list):
            if len(value) > MAX_DEALS:
                self.fail("deals", f" must list at most {MAX_DEALS:,} deals. Got {len(value):,}.")
            numbers = [self.attempt(lambda: self.deal_number(f"deals[{i}]", v))
                        for i, v in enumerate(self.sequence("deals", value, 1))]
            if None in numbers:  # each bad number is recorded
                raise _Reported()
            if len(set(numbers)) != len(numbers):
                twice = sorted({n for n in numbers if numbers.count(n) > 1})
                self.fail("deals", f" must list each deal once. Got {twice[:5]} more than once.")
            return tuple(numbers), list(numbers)
        if not isinstance(value, dict):
            self.expect("deals", "a mapping {start, count} or a list of deal numbers", value)
        spec = self.mapping("deals", value, ("start", "count"), ("start", "count"))
        start = self.attempt(lambda: self.deal_number("deals.start", spec["start"]))
        count = self.attempt(lambda: self.integer("deals.count", spec["count"], 1))
        if start is None or count is None:
            raise _Reported()
        if count > MAX_DEALS:
            self.expect("deals.count", f"an int in [1, {MAX_DEALS}] (deals of one experiment)", count)
        if start + count - 1 > MAX_DEAL_NUMBER:
            self.fail("deals", f" must end at deal {MAX_DEAL_NUMBER} (2**63 - 1) at most. Got start "
                      f"{start} and count {count}, which end at {start + count - 1}.")
        return tuple(range(start, start + count)), {"start": start, "count": count}

    def deal_number(self, path: str, value: Any) -> int:
        """A deal number: 1 to 2**63 - 1 (what the results database can store)."""
        number = self.integer(path, value, 1)
        if number > MAX_DEAL_NUMBER:
            self.expect(path, f"{DEAL_NUMBER.describe()} (2**63 - 1, the largest deal number "
                        "the results database stores)", value)
        return number

    def components(self, path: str, value: Any, kind: str) -> tuple[Component, ...]:
        """The games or policies list; each item is a name or ``{name, params, label}``."""
        items = self.attempt(lambda: self.sequence(path, value, 1), [])
        result: list[tuple[int, Component]] = []
        if not items:
            self.incomplete.add(kind)
        for i, item in enumerate(items):
            component = self.attempt(lambda: self.component(f"{path}[{i}]", item, kind))
            clash = component is not None and self.attempt(lambda: self.distinct(path, i, component, result, kind))
            if component is None or clash is None:  # a mistake, recorded
                self.incomplete.add(kind)
                continue
            result.append((i, component))
        return tuple(component for _, component in result)

    def distinct(self, path: str, i: int, component: Component, earlier: list[tuple[int, Component]],
                 kind: str) -> bool:
        """Check that ``component`` (``path[i]``) is not one of the ``earlier`` under another label."""
        for j, other in earlier:
            if other.label == component.label:
                self.fail(f"{path}[{i}]", f": the label '{component.label}' is already used by "
                          f"{path}[{j}]. Give one of them a distinct 'label'.")
            if (other.name, other.params) == (component.name, component.params):
                # one cell (its key knows no label): the second label would vanish from every table
                self.fail(f"{path}[{i}]", f": '{component.label}' is the same {kind} with the same parameters "
                          f"as {path}[{j}] ('{other.label}'), so they would be one cell. Remove one, "
                          "or change a parameter.")
        return True

    def component(self, path: str, item: Any, kind: str) -> Component:
        if isinstance(item, str):
            item = {"name": item}
        item = self.mapping(path, item, COMPONENT_KEYS, ("name",))
        name = self.text(f"{path}.name", item["name"])
        params = item.get("params") or {}
        if not isinstance(params, dict):
            self.expect(f"{path}.params", "a mapping of parameter names to values", params)
        if ":" in name and not self.import_policies:
            label = self.component_label(path, item, default_label(name, params, {}))
            return Component(label=label, name=name, params=dict(params), version=0)
        cls = self.component_class(f"{path}.name", name, kind)
        resolved = self.parameters(f"{path}.params", cls, name, kind, params)
        declared = cls.all_parameters() if hasattr(cls, "all_parameters") else cls.parameters  # a policy / a game
        defaults = {key: param.default for key, param in declared.items()}
        label = self.component_label(path, item, default_label(name, resolved, defaults))
        return Component(label=label, name=name, params=resolved, version=int(cls.version),
                         code=code_of(cls, name))

    def component_label(self, path: str, item: dict[str, Any], default: str) -> str:
        """The item's ``label``, else ``default`` (``default_label``), which a label's rules
        must allow too: a message about a key the config never wrote would puzzle."""
        if "label" in item:
            return self.label_text(f"{path}.label", item["label"])
        if (any(ord(c) < 32 or c in "|\x7f" or unicodedata.category(c) == "Cf" for c in default)
                or len(default) > MAX_NAME_LENGTH):
            shown = default if len(default) <= 60 else f"{default[:40]}…"
            self.fail(path, f": give it a 'label' (a str without control characters or '|', at most "
                      f"{MAX_NAME_LENGTH} characters). Without one it would be named by its name and the "
                      f"parameters that differ from their defaults, {shown!r}, which a label cannot be.")
        return default

    def component_class(self, path: str, name: str, kind: str) -> type:
        try:  # a user module that raises or calls sys.exit() while importing: policy_class says so
            return GAMES.get(name) if kind == "game" else policy_class(name)
        except SimlabError as error:
            self.fail(path, f": {error}")

    def parameters(self, path: str, cls: type, name: str, kind: str,
                   params: Mapping[str, Any]) -> dict[str, Any]:
        """Each parameter checked on its own, so the message names its key path."""
        declared = cls.all_parameters() if kind == "policy" else cls.parameters
        owner = f"{kind} '{name}'"
        mistakes = len(self.errors)
        for key, value in params.items():
            if key not in declared:
                known = ", ".join(declared) or "none"
                self.note(f"{path}", f": unknown key {key!r}.{did_you_mean(str(key), tuple(declared))}"
                          f" The parameters of {owner} are: {known}.")
                continue
            try:
                resolve_params(owner, {key: declared[key]}, {key: value})
            except (ParameterError, UnknownNameError) as error:
                self.note(f"{path}.{key}", f": {error}")
        if len(self.errors) > mistakes:
            raise _Reported()
        resolved = resolve_params(owner, declared, params)
        return resolved if kind == "policy" else cls.settle_params(params, resolved)

    def playable(self, games: tuple[Component, ...], policies: tuple[Component, ...]) -> None:
        """Every policy can play every game (``Policy.cannot_play``), or one message says which
        cannot and why, before anything runs."""
        built = [(GAMES.get(g.name)(**g.params), g.label) for g in games]  # each game once, for every policy
        for j, spec in enumerate(policies):
            if ":" in spec.name and not self.import_policies:
                continue
            policy = policy_class(spec.name)(**spec.params)
            policy.registered_name = spec.name
            for i, (game, game_label) in enumerate(built):
                self.attempt(lambda: self.can_play(policy, spec, game, game_label,
                                                   f"policies[{j}] and games[{i}]"))
            if self.import_policies:  # new input (a stored config read back is not warned again)
                self.asking(f"policies[{j}]", f"policy '{spec.label}' which of its parameters it uses",
                            lambda: warn_unused(policy, built, f"{self.source}: policies[{j}].params."))

    def asking(self, path: str, question: str, ask: Callable[[], Any]) -> Any:
        """``ask()``, a question to a policy (a user's may raise): its error as a config error at ``path``."""
        try:
            return ask()
        except (SimlabError, Warning):  # simlab's own message; a warning made an error (-W error)
            raise
        except Exception as error:  # noqa: BLE001  (a user policy's method that raises)
            self.fail(path, f": asking {question} failed: {type(error).__name__}: {error}")

    def can_play(self, policy: Any, spec: Component, game: Any, game_label: str, where: str) -> None:
        """One policy against one game (``playable``)."""
        try:
            refuse_unplayable(policy, game, spec.label, game_label)
        except SimlabError as error:
            self.fail(where, f": {error} Remove one of them from this config.")
        except Exception as error:  # noqa: BLE001  (a user policy's cannot_play that raises)
            self.fail(where, f": asking policy '{spec.label}' whether it can play game "
                      f"'{game_label}' failed: {type(error).__name__}: {error}")

    def claim(self, path: str, item: Any, games: tuple[Component, ...],
              policies: tuple[Component, ...]) -> Claim:
        item = self.mapping(path, item, CLAIM_KEYS, CLAIM_REQUIRED)
        mistakes = len(self.errors)
        fields = {
            "game": self.attempt(lambda: self.label(f"{path}.game", item["game"], games, "game")),
            "policy": self.attempt(lambda: self.label(f"{path}.policy", item["policy"], policies, "policy")),
            "win_rate": self.attempt(lambda: self.number(f"{path}.win_rate", item["win_rate"], 0.0, 1.0)),
            "source": self.attempt(lambda: self.visible(f"{path}.source",
                                                        self.text(f"{path}.source", item["source"]))),
            "tolerance": self.attempt(lambda: self.number(f"{path}.tolerance", item.get("tolerance", 0.0), 0.0, 1.0)),
            "text": self.attempt(lambda: self.visible(f"{path}.text",
                                                      self.optional_text(f"{path}.text", item.get("text")))),
        }
        if len(self.errors) > mistakes or None in fields.values():
            raise _Reported()
        return Claim(**fields)

    def label(self, path: str, value: Any, components: tuple[Component, ...], kind: str) -> str:
        """A claim's game or policy: one of the labels this config defines, or the name of
        exactly one of its components without a label of its own (its default label adds
        the parameters that differ from the defaults to the name: ``default_label``)."""
        labels = tuple(c.label for c in components)
        named = [c.label for c in components if c.name == value and _default_labelled(c)]
        if value not in labels and len(named) == 1:
            return named[0]
        if value not in labels and kind in self.incomplete:  # it may name the one with a mistake
            raise _Reported()
        if value not in labels:
            bare = tuple(c.name for c in components if c.label != c.name and _default_labelled(c))
            self.fail(path, f" must name a {kind} of this experiment. Got {_describe(value)}."
                      f"{did_you_mean(str(value), bare + labels)} This experiment's {kind} labels: "
                      f"{', '.join(labels)}.")
        return value

    def ladder(self, value: Any, policies: tuple[Component, ...], games: tuple[Component, ...]) -> Ladder:
        """``ladder: {rungs, perfect, tries}``: policy labels of this config, each at most once;
        ``perfect`` a policy that proves its losses on every game (``Policy.proves_losses``),
        since its ``lost`` is called ``unwinnable``."""
        spec = self.mapping("ladder", value, LADDER_KEYS, LADDER_REQUIRED)
        items = self.sequence("ladder.rungs", spec["rungs"], 1)
        rungs = tuple(self.attempt(lambda: self.label(f"ladder.rungs[{i}]", item, policies, "policy"))
                      for i, item in enumerate(items))
        if None in rungs:  # each mistake is recorded
            raise _Reported()
        for i, rung in enumerate(rungs):
            if rungs.index(rung) != i:
                self.fail(f"ladder.rungs[{i}]", f": the policy '{rung}' is already rung "
                          f"{rungs.index(rung)}. List each policy once.")
        perfect = self.label("ladder.perfect", spec["perfect"], policies, "policy")
        if perfect in rungs:
            self.fail("ladder.perfect", f": the policy '{perfect}' is also rung {rungs.index(perfect)}. "
                      "Perfect play sits above every rung: remove it from ladder.rungs.")
        unproved = self.unproved(perfect, policies, games)
        tries = self.integer("ladder.tries", spec.get("tries", 1), 1)
        if tries > MAX_TRIES:
            self.expect("ladder.tries", f"an int in [1, {MAX_TRIES}]", tries)
        return Ladder(rungs=rungs, perfect=perfect, tries=tries, unproved=unproved)

    def unproved(self, label: str, policies: tuple[Component, ...],
                 games: tuple[Component, ...]) -> tuple[str, ...]:
        """The labels of the games where the perfect player's ``lost`` is no proved loss. A new
        config must have none (refused); a stored config read back (``import_policies=False``:
        a folder an earlier simlab ran, which took any player) is taken as it is, so that its
        report can be rebuilt, and its losses there are called unknown."""
        spec = next(p for p in policies if p.label == label)
        if ":" in spec.name and not self.import_policies:
            return ()  # asked when it ran, by importing it; a report does not import it again
        policy = policy_class(spec.name)(**spec.params)
        unproved = tuple(game_spec.label for game_spec in games if not self.asking(
            "ladder.perfect", f"policy '{label}' whether it proves its losses on game '{game_spec.label}'",
            lambda: policy.proves_losses(GAMES.get(game_spec.name)(**game_spec.params))))
        if unproved and self.import_policies:
            self.fail("ladder.perfect", f" must be a policy whose every 'lost' is a loss proved by exhaustive "
                      f"search, such as the solver (in mode 'thoughtful' where cards are hidden or "
                      f"shuffled): difficulty.csv calls its losses 'unwinnable'. Got '{label}', whose "
                      f"losses on game '{unproved[0]}' are not proved.")
        return unproved

    def execution(self, value: Any) -> Execution:
        spec = self.mapping("execution", value if value is not None else {}, EXECUTION_KEYS)
        return execution_from(spec, self, lambda key: f"execution.{key}")


def execution_from(spec: Mapping[str, Any], checker: _Validator, where: Callable[[str], str],
                   base: Execution | None = None) -> Execution:
    """An ``Execution`` from ``spec`` (config keys or command-line overrides) on top of ``base``.

    ``where(key)`` is how messages name a setting: ``execution.n_jobs`` or ``--n-jobs``.
    Each setting is checked on its own (``_Validator.attempt``): every mistake is recorded.
    """
    base = base or Execution()
    mistakes = len(checker.errors)
    n_jobs = spec.get("n_jobs", base.n_jobs)
    if isinstance(n_jobs, bool) or not isinstance(n_jobs, int) or not (n_jobs >= 1 or n_jobs == -1):
        checker.attempt(lambda: checker.expect(where("n_jobs"), "an int >= 1, or -1 for every core", n_jobs))
    backend = spec.get("backend", base.backend)
    if backend not in BACKENDS:
        checker.note(where("backend"), f" must be one of {', '.join(BACKENDS)}. Got "
                     f"{_describe(backend)}.{did_you_mean(str(backend), BACKENDS)}")
    chunk_size = checker.attempt(lambda: checker.integer(where("chunk_size"),
                                                         spec.get("chunk_size", base.chunk_size), 1))
    scheduler = spec.get("scheduler", base.scheduler)
    if scheduler is not None:
        if not isinstance(scheduler, str) or not _SCHEDULER_PATTERN.fullmatch(scheduler):
            checker.attempt(lambda: checker.expect(where("scheduler"), "the address of a dask scheduler, such as "
                                                   "tcp://10.0.0.5:8786 (or null)", scheduler))
        elif backend != "dask" and backend in BACKENDS:
            checker.note(where("scheduler"), f" is used only by the dask backend. Got a scheduler with "
                         f"backend {backend!r}: set backend to 'dask', or remove the scheduler.")
    timeout = spec.get("deal_timeout", base.deal_timeout)
    checker.attempt(lambda: _check_timeout(timeout, checker, where("deal_timeout")))
    memory = checker.attempt(lambda: worker_memory(spec.get("worker_memory", base.worker_memory), checker,
                                                   where("worker_memory")))
    if len(checker.errors) > mistakes:
        raise _Reported()
    return Execution(n_jobs=n_jobs, backend=backend, chunk_size=chunk_size, scheduler=scheduler,
                     deal_timeout=None if timeout is None else float(timeout), worker_memory=memory)


def _check_timeout(timeout: Any, checker: _Validator, path: str) -> None:
    """``execution.deal_timeout``: seconds (at least ``MIN_DEAL_TIMEOUT``), or None."""
    if timeout is not None and (isinstance(timeout, bool) or not isinstance(timeout, (int, float))
                                or not 0 < timeout < math.inf):
        checker.expect(path, "a number of seconds > 0, or null for no limit", timeout)
    if timeout is not None and timeout < MIN_DEAL_TIMEOUT:
        checker.expect(path, f"at least {MIN_DEAL_TIMEOUT:g} s, or null for no limit (a "
                       "running deal is looked at 4 to 10 times a second, so a shorter limit cannot be kept)",
                       timeout)


def worker_memory(value: Any, checker: _Validator, path: str) -> float | str | None:
    """``execution.worker_memory``: ``auto``, null (no cap), MiB as a number, or a str such as
    ``'2 GB'`` (MB and GB are read as MiB and GiB); returns MiB, ``'auto'`` or None."""
    if value is None or value == DEFAULT_WORKER_MEMORY:
        return value
    mib: float | None = None
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        mib = float(value)
    elif isinstance(value, str) and (match := _MEMORY_PATTERN.fullmatch(value)):
        mib = float(match.group(1)) * (1024 if match.group(2).upper().startswith("G") else 1)
    if mib is None or not MIN_WORKER_MEMORY <= mib < math.inf:
        checker.expect(path, f"a memory size of at least {MIN_WORKER_MEMORY} MiB (a number of MiB, or a str "
                       "such as '2 GB'), 'auto' (a share of this machine's memory) or null for no limit",
                       value)
    return mib


def with_overrides(config: ExperimentConfig, source: str = "command line", **overrides: Any) -> ExperimentConfig:
    """``config`` with execution settings or ``output`` replaced (``None`` keeps the config's).

    Values are checked by the same validators as the config's keys. An override given as
    text (the command line's ``--deal-timeout 5`` or ``none``) is read as YAML reads it,
    so ``none`` / ``null`` mean no limit.

    Raises:
        ConfigError: for an override that is not allowed, named as ``source``; a setting
            the config file made is named as its key there (``execution.scheduler (set in x.yaml)``).
    """
    given = {k: _override_value(v) if k in TEXT_OVERRIDES else v for k, v in overrides.items() if v is not None}
    output = given.pop("output", None)
    unknown = set(given) - set(EXECUTION_KEYS)
    if unknown:
        key = sorted(unknown)[0]
        raise ConfigError(f"{source}: unknown setting {key!r}.{did_you_mean(key, EXECUTION_KEYS + ('output',))}")
    checker = _Validator(source)
    flags = source == "command line"  # name settings as the user typed them

    def where(key: str) -> str:
        if key not in given:  # not overridden: the config file set it (or its default stands)
            return f"execution.{key} (set in {config.source})"
        return "--" + key.replace("_", "-") if flags else key

    execution = checker.attempt(lambda: execution_from(given, checker, where, config.execution))
    if output is not None:
        output = checker.attempt(lambda: checker.path("--output" if flags else "output", output))
    checker.raise_collected()
    return replace(config, execution=execution, output=Path(output) if output else config.output)


# Overrides that may be given as text meaning "no limit" (``--deal-timeout none``)
TEXT_OVERRIDES = ("deal_timeout", "worker_memory")


def _override_value(value: Any) -> Any:
    """``--deal-timeout``'s or ``--worker-memory``'s text as a config would hold it:
    ``none``/``null`` -> None, a number -> a float; anything else, and a value that is not
    text, unchanged (the validator reads or refuses it)."""
    if not isinstance(value, str) or not value.strip():
        return value
    text = value.strip()
    if text.lower() in ("none", "null"):
        return None
    try:  # '2 GB' or 'auto' stay text: the validator reads them as the config's would be
        return float(text)
    except ValueError:
        return value
