"""Run the benchmark sections: ``python -m benchmarks [--only NAME]``."""

from __future__ import annotations

import argparse
import importlib
import sys
from typing import Sequence

SECTIONS = ("policies", "solver", "fans", "windmill", "ladder", "critical", "relaxation", "fair_rounds")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__)
    parser.add_argument("--only", choices=SECTIONS, metavar="NAME",
                        help=f"run one section: {', '.join(SECTIONS)}")
    args = parser.parse_args(argv)
    for name in [args.only] if args.only else SECTIONS:
        section = importlib.import_module(f"benchmarks.{name}")
        print(f"== {name}")
        section.run()
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
