"""The folder `graphmend record` puts first on PYTHONPATH: Python loads its sitecustomize.py at startup."""
