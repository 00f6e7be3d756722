"""analyzer.cli.lineinput.read_line: a line typed at a terminal, and a Ctrl-C never lost."""

from __future__ import annotations

import subprocess
import sys

import pexpect
import pytest

TIMEOUT = 1800  # a hang guard only
CHILD = """
from analyzer.cli.lineinput import read_line
while True:
    try:
        print("read", repr(read_line("> ")))
    except KeyboardInterrupt:
        print("interrupted")
    except EOFError:
        print("end")
        break
"""


def _child() -> pexpect.spawn:
    child = pexpect.spawn(sys.executable, ["-c", CHILD], encoding="utf-8", timeout=TIMEOUT)
    child.delaybeforesend = None  # every answer as soon as the prompt shows, as a program sends
    return child


def test_a_line_typed_is_read_without_its_newline_and_ctrl_d_ends_the_input():
    child = _child()
    child.expect("> ")
    child.sendline("5h 6d   ♥é")
    child.expect(r"read '5h 6d   ♥é'\r\n")
    child.expect("> ")
    child.sendline("")
    child.expect(r"read ''\r\n")
    child.expect("> ")
    child.sendeof()
    child.expect("end")
    child.expect(pexpect.EOF)


ONE_READ = """
from analyzer.cli.lineinput import read_line
try:
    read_line("> ")
except KeyboardInterrupt:
    print("interrupted")
"""


@pytest.mark.slow
def test_a_ctrl_c_sent_as_the_prompt_shows_is_never_lost():
    """A Ctrl-C sent the moment the prompt shows, to each of 100 new processes while two others
    keep both cores busy. ``input()`` loses some of them (a Ctrl-C between its check for
    signals and its read: the process sits at its prompt, here until the hang guard). On the
    2-core machine, with ``input`` in place of ``read_line``, this test hung in each of 3 runs,
    and in 2 of 4 runs of 40 processes; ``read_line`` lost none of 800."""
    busy = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(2)]
    try:
        for _ in range(100):
            child = pexpect.spawn(sys.executable, ["-c", ONE_READ], encoding="utf-8",
                                  timeout=TIMEOUT)
            child.delaybeforesend = None
            child.expect("> ")
            child.sendintr()
            child.expect("interrupted")
            child.close(force=True)  # not waited for: its ending is more of the load
    finally:
        for process in busy:
            process.kill()
            process.wait()


def test_piped_input_is_read_as_input_reads_it():
    done = subprocess.run([sys.executable, "-c", CHILD], input="a b\n\nlast", text=True,
                          capture_output=True, timeout=TIMEOUT)
    assert done.stdout.splitlines() == ["> read 'a b'", "> read ''", "> read 'last'", "> end"]
