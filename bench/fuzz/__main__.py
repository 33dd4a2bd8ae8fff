"""``python -m bench.fuzz``: the run; ``python -m bench.fuzz _world``: the world's child."""

import sys

if len(sys.argv) > 1 and sys.argv[1] == "_world":
    from .world import world_main

    world_main()
else:
    from .run import main

    main()
