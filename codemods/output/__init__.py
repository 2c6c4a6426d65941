"""Findings rendered for people and machines: text, json, sarif (GitHub code scanning), github annotations."""

from graphmend.output.formats import FORMATS, printable, render

__all__ = ["FORMATS", "printable", "render"]
