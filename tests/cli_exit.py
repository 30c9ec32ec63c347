"""``tricksim`` called in-process as from a shell: the helper the command-line tests share."""
from __future__ import annotations

import pytest

from tricksim.cli import main


def run_main(args, capsys):
    """(exit code, stdout, stderr) of ``tricksim ARGS``."""
    with pytest.raises(SystemExit) as e:
        main(args)
    out = capsys.readouterr()
    return e.value.code, out.out, out.err
