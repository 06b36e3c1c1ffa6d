"""``python -m simlab.cli COMMAND ...``: the ``simlab`` command without its console script."""

import sys

from simlab.cli import main

sys.exit(main())
