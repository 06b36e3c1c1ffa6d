"""``python -m simlab.precompile``: compile the common kernels of this version into the numba cache
once (``simlab.compiling.warm_up``); ``make setup`` runs it. A module of its own: ``import
simlab`` loads ``simlab.compiling``, which ``python -m`` would then run a second time."""

from __future__ import annotations

import sys

from simlab.compiling import main

if __name__ == "__main__":
    sys.exit(main())
