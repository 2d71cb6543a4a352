"""``python -m scorio_core.cli``."""

from . import main

if __name__ == "__main__":
    raise SystemExit(main())
