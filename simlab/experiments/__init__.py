"""Experiments: YAML configs, a parallel and resumable runner, statistical reports.

Modules (imported on demand, so worker processes stay light), each importing
only modules listed before it:

- ``config``: the YAML schema and its validation (``load_config``).
- ``worker``: what a worker process runs (a chunk of deals of one cell).
- ``store``: the SQLite results database of an output folder.
- ``pool``: the supervised worker processes of the loky backend (a dead or endless
  worker costs its deal, not the run).
- ``lock``, ``history``: one run per folder; what changed since the folder's last run.
- ``progress``: progress bars, or log lines when the output is not a terminal.
- ``stats``, ``resolutions``, ``tables``: intervals and tests (statsmodels, scipy), their ranges
  over the ways unknown results resolve, the tables (claims, comparisons paired by deal).
- ``plots``, ``markdown``, ``report``: figures, ``report.md`` and the output files.
- ``folders``: which output folders a run may write into (one simlab made, inside the results root).
- ``runner``: planning, dispatch (the pool, joblib threads, or dask), resuming.
- ``rebuild``: the output files again from the database (``simlab report``).
- ``recover``: a damaged database again from ``deals.csv`` (``simlab recover``).

The user-facing entry points are ``simlab.run``, ``simlab.summarize`` and
``simlab.load_config``; the subcommands that call them (``simlab run``, ``report``,
``recover``, ``deals``) are ``simlab.cli.experiments``.
"""
