"""The client's copies of the service's limits equal the one definition in ``src/limits.ts``."""

from __future__ import annotations

import re

from conftest import REPOSITORY
from verified_answers import EVAL_PAGE_SIZE, MAX_EVAL_CASE_ID_LENGTH


def limit(name: str) -> int:
    text = (REPOSITORY / "src" / "limits.ts").read_text(encoding="utf-8")
    match = re.search(rf"export const {name} = ([\d_]+);", text)
    assert match is not None, f"{name} is not in src/limits.ts"
    return int(match.group(1).replace("_", ""))


def test_page_size_and_case_id_length_are_the_services() -> None:
    assert EVAL_PAGE_SIZE == limit("MAX_EVAL_CASES")
    assert MAX_EVAL_CASE_ID_LENGTH == limit("MAX_EVAL_CASE_ID_LENGTH")
