"""The client's copies of the service's limits and error types equal their one definition in the service."""

from __future__ import annotations

import json
import re
from typing import Dict

from conftest import REPOSITORY
from verified_answers import EVAL_PAGE_SIZE, MAX_EVAL_CASE_ID_LENGTH, VerifiedError, error_from_response
from verified_answers._client import _status_of
from verified_answers._errors import _CLASS_BY_TYPE


def limit(name: str) -> int:
    text = (REPOSITORY / "src" / "limits.ts").read_text(encoding="utf-8")
    match = re.search(rf"export const {name} = ([\d_]+);", text)
    assert match is not None, f"{name} is not in src/limits.ts"
    return int(match.group(1).replace("_", ""))


def test_page_size_and_case_id_length_are_the_services() -> None:
    assert EVAL_PAGE_SIZE == limit("MAX_EVAL_CASES")
    assert MAX_EVAL_CASE_ID_LENGTH == limit("MAX_EVAL_CASE_ID_LENGTH")


def registry() -> Dict[str, int]:
    """Error type → status, from the service's one error registry (``src/errors/error-registry.ts``)."""
    text = (REPOSITORY / "src" / "errors" / "error-registry.ts").read_text(encoding="utf-8")
    entries = re.findall(r"^  (\w+): \{\s*status: (\d+)", text, re.M)
    assert len(entries) >= 19
    return {name: int(status) for name, status in entries}


def test_every_error_type_of_the_registry_has_its_class_and_status() -> None:
    for error_type, status in registry().items():
        body = json.dumps({"error": {"type": error_type, "code": error_type, "message": "m"}})
        error = error_from_response(status, {}, body)
        assert type(error) is not VerifiedError, error_type
        assert (error.type, error.status) == (error_type, status)
        assert _status_of(error_type) == status
    assert set(_CLASS_BY_TYPE) == set(registry())
