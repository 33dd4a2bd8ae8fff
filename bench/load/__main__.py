"""``python -m bench.load`` or ``python bench/load``: the load bench (bench/load/__init__.py
says what it measures)."""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
# Run as a directory (``python bench/load``), Python puts that directory first on sys.path:
# its modules would shadow top-level ones of the same name, and neither ``bench.load`` nor the
# site (``euchre_site``, ``games``, ``tests``) would import. The repository's root goes there.
if sys.path and Path(sys.path[0] or ".").resolve() == HERE:
    sys.path[0] = str(ROOT)
elif str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.load.cli import main  # noqa: E402

if __name__ == "__main__":
    main()
