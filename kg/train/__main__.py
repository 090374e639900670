import sys

from kg.train.cli import main

sys.exit(main(sys.argv[1:]))
