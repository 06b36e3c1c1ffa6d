"""What changed since a folder's last run: the config's keys, and the cells replayed or kept.

A rerun into a folder whose config changed prints these lines before playing,
and ``report.md`` lists every config the folder has seen (``store.configs``).
"""

from __future__ import annotations

import json
from typing import Any

MAX_SHOWN = 60  # characters of one value in a change line


def config_changes(old: Any, new: Any, path: str = "") -> list[str]:
    """Every key path whose value differs, as ``path: old → new`` (``output`` left out)."""
    if isinstance(old, dict) and isinstance(new, dict):
        lines = []
        for key in list(old) + [k for k in new if k not in old]:
            if key == "output" and not path:
                continue
            where = f"{path}.{key}" if path else str(key)
            if key not in new:
                lines.append(f"{where}: removed (was {_show(old[key])})")
            elif key not in old:
                lines.append(f"{where}: added ({_show(new[key])})")
            else:
                lines += config_changes(old[key], new[key], where)
        return lines
    if isinstance(old, list) and isinstance(new, list):
        # item by item, then what one list has beyond the other: a changed ``games`` list
        # shows the games that differ, not two cut copies of the list
        lines = [line for i, (a, b) in enumerate(zip(old, new)) for line in config_changes(a, b, f"{path}[{i}]")]
        return lines + _extra_items(path, old, len(new), "removed (was {})") \
            + _extra_items(path, new, len(old), "added ({})")
    if old == new:
        return []
    shown_old, shown_new = _show_pair(old, new)
    return [f"{path}: {shown_old} → {shown_new}"]


def _extra_items(path: str, items: list[Any], start: int, what: str) -> list[str]:
    """``items[start:]`` as change lines: one per item, or one line for more than three."""
    extra = items[start:]
    if len(extra) <= 3:
        return [f"{path}[{start + i}]: {what.format(_show(item))}" for i, item in enumerate(extra)]
    return [f"{path}[{start}:{len(items)}]: {len(extra)} items {what.format(_show(extra))}"]


def _show(value: Any, start: int = 0) -> str:
    """``value`` as JSON, at most ``MAX_SHOWN`` characters from ``start`` ("…" where cut)."""
    text = json.dumps(value, sort_keys=True, default=str)
    head = "…" if start > 0 else ""
    text = text[start:]
    return head + (text if len(text) <= MAX_SHOWN else text[:MAX_SHOWN - 1] + "…")


def _show_pair(old: Any, new: Any) -> tuple[str, str]:
    """Both values, each shown from a little before where they first differ, so that two long
    values are never cut to the same prefix."""
    a, b = (json.dumps(v, sort_keys=True, default=str) for v in (old, new))
    if len(a) <= MAX_SHOWN and len(b) <= MAX_SHOWN:
        return a, b
    first = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    start = max(0, first - MAX_SHOWN // 3)
    return _show(old, start), _show(new, start)


def cell_lines(records: list[dict[str, Any]], known: dict[str, dict[str, Any]],
               counts: dict[str, int]) -> list[str]:
    """For each cell of the new config: kept (with its stored deals) or replayed, and why."""
    lines = []
    for record in records:
        label = f"{record['game']} / {record['policy']}"
        if counts.get(record["key"]):
            lines.append(f"keeps {label}: {counts[record['key']]} deal(s) stored")
            continue
        lines.append(f"plays {label} from the start: {_why_new(record['identity'], known.values())}")
    return lines


def _why_new(identity: dict[str, Any], known: Any) -> str:
    """Why a cell has no stored deals: what differs from the nearest stored cell."""
    same_names = [old for old in known if old["game"]["name"] == identity["game"]["name"]
                  and old["policy"]["name"] == identity["policy"]["name"]]
    if not same_names:
        return "a game and policy this folder has not played"
    reasons: list[str] = []
    old = same_names[-1]
    for part in ("game", "policy"):
        mine, theirs = identity[part], old[part]
        if "code" not in theirs:
            reasons.append("the results were stored by an earlier simlab whose cell key did not "
                           "include the code's version")
            break
        if mine["params"] != theirs["params"]:
            reasons.append(f"its {part} parameters changed")
        if mine["version"] != theirs["version"]:
            reasons.append(f"its {part}'s version changed ({theirs['version']} → {mine['version']})")
        if mine["code"] != theirs["code"]:
            reasons.append("its module's source changed (its own, or a module of yours it imports)"
                           if mine["code"].startswith("source")
                           else f"the {part} comes from another simlab ({theirs['code']} → {mine['code']})")
    if identity["root_seed"] != old["root_seed"]:
        reasons.append("the root seed changed")
    return "; ".join(dict.fromkeys(reasons)) or "no deal of it is stored yet"
