"""``eval_all``: any number of cases in pages of 200, merged exactly as one request would be."""

from __future__ import annotations

import dataclasses
import json
import threading
import urllib.request
from typing import Any, List, Tuple

import pytest

from verified_answers import EvalCase, Verified, merge_eval_results
from verified_answers._transport import default_opener

QUESTION = [{"role": "user", "content": "When are refunds accepted?"}]
GROUNDED = {"id": "policy", "text": "Refunds are accepted within 30 days of purchase. 😀"}
UNRELATED = {"id": "menu", "text": "Soup of the day: leek. Dessert: tarte tatin."}


def dataset(size: int) -> List[EvalCase]:
    return [
        EvalCase(id=f"case-{index}", messages=QUESTION, sources=[GROUNDED if index % 3 else UNRELATED])
        for index in range(size)
    ]


def test_eval_all_pages_by_200_and_merges_the_aggregate_exactly(service_url: str) -> None:
    pages: List[int] = []
    lock = threading.Lock()

    def recording_opener(request: urllib.request.Request, timeout: float) -> Any:
        if request.full_url.endswith("/v1/verified/eval") and isinstance(request.data, bytes):
            with lock:
                pages.append(len(json.loads(request.data)["cases"]))
        return default_opener(request, timeout)

    client = Verified(base_url=service_url, api_key="k", opener=recording_opener)
    progress: List[Tuple[int, int]] = []
    cases = dataset(450)

    result = client.eval_all(model="local", cases=cases, concurrency=2, on_progress=lambda done, total: progress.append((done, total)))

    assert sorted(pages) == [50, 200, 200]
    assert [case.id for case in result.cases] == [f"case-{index}" for index in range(450)]
    assert result.aggregate.n == 450 and result.aggregate.errored == 0
    scored = [case for case in result.cases if case.error is None]
    assert result.aggregate.coverage_mean == pytest.approx(sum(case.coverage or 0 for case in scored) / len(scored))
    claims = sum((case.citations or 0) + (case.unsupported or 0) for case in scored)
    unsupported = sum(case.unsupported or 0 for case in scored)
    assert result.aggregate.unsupported_rate == pytest.approx(unsupported / claims if claims else 0)
    # Different pages score differently, so a mean of page means would differ from the exact mean.
    single = client.eval(model="local", cases=cases[:200])
    assert result.cases[:200] == [
        dataclasses.replace(case, id=f"case-{index}") for index, case in enumerate(single.cases)
    ]
    assert progress[-1] == (450, 450) and len(progress) == 3


def test_merge_is_the_aggregate_of_all_cases_not_a_mean_of_means(client: Verified) -> None:
    grounded = {"messages": QUESTION, "sources": [GROUNDED], "expected": "30 days"}
    unrelated = {"messages": QUESTION, "sources": [UNRELATED], "expected": "30 days"}
    small = client.eval(model="local", cases=[grounded])
    large = client.eval(model="local", cases=[unrelated, unrelated, {"messages": QUESTION, "sources": [UNRELATED]}])
    merged = merge_eval_results([small, large])
    together = client.eval(
        model="local", cases=[grounded, unrelated, unrelated, {"messages": QUESTION, "sources": [UNRELATED]}]
    )
    assert merged.aggregate == together.aggregate
    # One correct of the three cases that carry `expected`: not the mean of the pages' rates (1 and 0).
    assert merged.aggregate.correct_rate == pytest.approx(1 / 3)
    assert merged.usage == together.usage


def test_eval_all_checks_case_ids_before_sending_anything(client: Verified) -> None:
    with pytest.raises(ValueError, match=r'"cases\[1\].id" must not be empty'):
        client.eval_all(model="local", cases=[{"messages": QUESTION, "sources": [GROUNDED]}, {"id": "", "messages": QUESTION, "sources": [GROUNDED]}])
    with pytest.raises(ValueError, match="concurrency"):
        client.eval_all(model="local", cases=dataset(1), concurrency=0)
