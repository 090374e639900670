"""``python -m kg.cli``: the same as ``kg``."""
import sys

from kg.cli import main

sys.exit(main())
