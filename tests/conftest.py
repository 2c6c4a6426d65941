"""Fixtures shared by the verifier tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from graphmend.verify import Verifier


@pytest.fixture(scope="session")
def verifier() -> Iterator[Verifier]:
    """One pair of verify workers per test process, for every verifier test module: MindSpore is imported
    once per version and xdist worker (again only after a crash, a hang or a kill), not once per Cell."""
    with Verifier() as shared:
        yield shared
