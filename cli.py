"""`python cli.py ...` from a checkout runs graphmend's command line, which lives in the package.

graphmend installs one import package, `graphmend` (the `codemods/` folder: `graphmend.cli`,
`from graphmend import check_source`); this file is not installed, so a user's own `cli` module never
meets ours.
"""

from graphmend.cli import main

if __name__ == "__main__":
    main()
