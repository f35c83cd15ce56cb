"""``pip install ./clients/python`` from a clone: into a venv made with ``--system-site-packages`` from
Debian's Python, built without isolation (only Debian's packages are reachable here)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1]
# The installed copy is what is imported, not a source tree on PYTHONPATH.
ENVIRONMENT = {name: value for name, value in os.environ.items() if name != "PYTHONPATH"}


def test_pip_installs_the_package_with_its_type_marker(tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True)
    python = venv / "bin" / "python"
    subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", "--no-build-isolation", "--no-index", str(PACKAGE)],
        check=True,
        cwd=tmp_path,
        env=ENVIRONMENT,
    )
    shown = subprocess.run(
        [
            str(python),
            "-c",
            "import pathlib, verified_answers as v; "
            "print(pathlib.Path(v.__file__).parent.joinpath('py.typed').exists(), v.Verified.__name__, v.DEFAULT_OFFSETS)",
        ],
        check=True,
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=ENVIRONMENT,
    )
    assert shown.stdout.split() == ["True", "Verified", "codepoint"]
    assert str(venv) in subprocess.run(
        [str(python), "-c", "import verified_answers; print(verified_answers.__file__)"],
        check=True,
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=ENVIRONMENT,
    ).stdout
