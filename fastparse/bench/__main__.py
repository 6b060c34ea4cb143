"""python -m fastparse.bench (and the fastparse-bench console script): see cli.py."""
import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
