"""Reports of the verifier tests, computed on demand on the session's Verifier (tests/conftest.py)."""

from __future__ import annotations

from collections.abc import Callable

from graphmend.verify import Report, Request, Verifier


class Reports(dict):
    """Each case's (report, fixes applied), verified the first time a test asks for it: under xdist a
    case is verified by the worker that runs a test reading it, and by no other."""

    def __init__(self, verifier: Verifier, request_of: Callable[[str], tuple[Request, int]]):
        super().__init__()
        self.verifier, self.request_of = verifier, request_of

    def __missing__(self, case: str) -> tuple[Report, int]:
        request, applied = self.request_of(case)
        self[case] = computed = (self.verifier.verify(request), applied)
        return computed
