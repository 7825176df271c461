"""Fixtures shared by the test files."""
import signal
import pytest


@pytest.fixture
def ctrl_c_live():
    """Python's default SIGINT handler, as in a script or a Jupyter kernel: a shell starts background jobs (CI, nohup
    ... &) with SIGINT ignored, and then Python keeps ignoring it (and so, rightly, does `interruptible`)."""
    outer = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, outer)
