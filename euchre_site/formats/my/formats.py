from euchre_site.formats.numeric import *  # noqa: F403
