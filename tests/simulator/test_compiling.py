"""The line that says a first compile is under way (issue #26): said for a long compile, silent for a cache
load."""
import io
import time

from tricksim.simulator.compiling import announced


def test_a_long_compile_is_said_before_and_timed_after(monkeypatch):
    monkeypatch.delenv("TRICKSIM_QUIET_COMPILE", raising=False)
    out = io.StringIO()
    with announced("the spades kernel for simple", after=0.05, stream=out):
        time.sleep(0.4)
        during = out.getvalue()
    assert during == "tricksim: compiling the spades kernel for simple (first use; cached for later runs)…\n"
    last = out.getvalue()[len(during):]
    assert last.startswith("tricksim: compiled the spades kernel for simple in ") and last.endswith(" s\n")


def test_a_quick_load_says_nothing_and_quiet_silences_all(monkeypatch):
    monkeypatch.delenv("TRICKSIM_QUIET_COMPILE", raising=False)
    out = io.StringIO()
    with announced("the double-dummy solver", after=5.0, stream=out):
        pass
    assert out.getvalue() == ""
    monkeypatch.setenv("TRICKSIM_QUIET_COMPILE", "1")
    with announced("the double-dummy solver", after=0.01, stream=out):
        time.sleep(0.1)
    assert out.getvalue() == ""
