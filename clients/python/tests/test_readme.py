"""The README's "From Python" example, run as written against the service."""

from __future__ import annotations

import re
from typing import Any, Dict

import pytest

from conftest import REPOSITORY


def test_the_readme_example_answers_from_its_source(monkeypatch: pytest.MonkeyPatch, service_url: str) -> None:
    readme = (REPOSITORY / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## From Python") :]
    match = re.search(r"```python\n(.*?)```", section, re.S)
    assert match is not None
    monkeypatch.setenv("VERIFIED_BASE_URL", service_url)
    scope: Dict[str, Any] = {}
    exec(match.group(1), scope)
    answer = scope["answer"]
    assert [citation.quote for citation in answer.citations] == ["Refunds are accepted within 30 days."]
