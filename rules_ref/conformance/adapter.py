"""The reference adapter at the path earlier versions documented (now ``rules-ref adapter``)."""

import sys

from rules_ref.protocol.reference_adapter import main

if __name__ == "__main__":
    sys.exit(main())
