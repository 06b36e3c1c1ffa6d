"""Throughput benchmarks, run by ``make bench`` (``python -m benchmarks``).

Each section is a module here with ``run() -> None`` that prints its own table;
``__main__`` lists the sections. Times are CPU seconds of this one process
(``time.process_time``), so the figures are per core.
"""
