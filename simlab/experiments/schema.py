"""The layout of the results database: its file name, tables and columns.

One SQLite file per output folder (``store.ResultStore`` reads and writes it,
``health`` checks a file taken for one), one row per (cell, deal) in ``deals``;
``cells`` keeps each cell's identity (``cells.cell_identity``), ``sessions`` every
run that wrote to it and ``configs`` every config the folder has seen.
"""

from __future__ import annotations

DATABASE_NAME = "results.sqlite"
ROW_COLUMNS = ("cell", "deal", "verdict", "end_reason", "moves", "cards_home", "nodes",
               "cpu_seconds", "error", "traceback")
# Optional per-deal counts, NULL where a policy did not compute them: the critical
# decisions along a won line (``PlayRecord.critical*``, the solver's ``probe_budget``).
# Columns added to the database after its first release (``ResultStore._add_optional_columns``).
CRITICAL_COLUMNS = ("critical_decisions", "decision_positions", "critical_undecided")
# The per-deal value of a policy that bounds perfect play (``PlayRecord.value``,
# ``Policy.bound``), NULL for a player.
BOUND_COLUMNS = ("bound_value",)
# Every optional column and its SQLite type (``ResultStore._add_optional_columns``).
OPTIONAL_COLUMNS = {**{c: "INTEGER" for c in CRITICAL_COLUMNS}, **{c: "REAL" for c in BOUND_COLUMNS}}

SCHEMA = """
CREATE TABLE IF NOT EXISTS cells (
    cell TEXT PRIMARY KEY, identity TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS deals (
    cell TEXT NOT NULL, deal INTEGER NOT NULL, verdict TEXT NOT NULL, end_reason TEXT NOT NULL,
    moves INTEGER NOT NULL, cards_home INTEGER NOT NULL, nodes INTEGER NOT NULL,
    cpu_seconds REAL NOT NULL, error TEXT NOT NULL, traceback TEXT NOT NULL,
    PRIMARY KEY (cell, deal)
);
CREATE TABLE IF NOT EXISTS sessions (
    started TEXT NOT NULL, finished TEXT, status TEXT NOT NULL, planned INTEGER NOT NULL,
    played INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS configs (
    recorded TEXT NOT NULL, config TEXT NOT NULL, cells TEXT NOT NULL
);
"""

# Tables a results database must have and the columns each must have (``SCHEMA``).
REQUIRED_TABLES = {"cells": ("cell", "identity"), "deals": ROW_COLUMNS}
