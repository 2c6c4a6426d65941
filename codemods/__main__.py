"""`python -m graphmend ...` is the `graphmend` command."""

from graphmend.cli import main

main()
