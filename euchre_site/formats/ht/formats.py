from euchre_site.formats.numeric import *  # noqa: F403

# Haitian Creole writes numbers the French way.
DECIMAL_SEPARATOR = ","
THOUSAND_SEPARATOR = " "
