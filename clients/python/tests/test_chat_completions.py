"""``client.chat.completions.create``: ``POST /v1/chat/completions`` with ``verification``; the report typed,
its ranges in code points, so Python slices them."""

from __future__ import annotations

import pytest
from conftest import ScriptedGateway, completion

from verified_answers import UngroundedError, Verified, VerificationReport

POLICY = {"id": "policy", "text": "😀 Refunds are accepted within 30 days of purchase. Orders over $50 ship free."}
ANSWER = "😀 Refunds are accepted within 30 days of purchase [policy]. Shipping to Mars takes a year [policy]."
QUESTION = [{"role": "user", "content": "What is the refund policy?"}]


def test_create_returns_the_completion_and_its_report_in_code_points(client: Verified, gateway: ScriptedGateway) -> None:
    gateway.script(completion(ANSWER))
    result = client.chat.completions.create(
        model="scripted", messages=QUESTION, temperature=0.2, verification={"sources": [POLICY]}
    )

    assert result.content == ANSWER
    assert result.body["object"] == "chat.completion"
    report = result.verification
    assert isinstance(report, VerificationReport)
    assert (report.verdict, report.sources_from, report.coverage) == ("fail", "verification", 0.5)
    citation = report.citations[0]
    assert POLICY["text"][citation.range[0] : citation.range[1]] == citation.quote
    assert citation.answer_range is not None
    assert ANSWER[citation.answer_range[0] : citation.answer_range[1]].startswith("😀 Refunds")
    assert [entry.claim for entry in report.unsupported] == ["Shipping to Mars takes a year."]
    # The gateway gets the body as sent, without the service's own field.
    assert gateway.calls[0]["temperature"] == 0.2 and "verification" not in gateway.calls[0]


def test_a_stream_yields_chunks_and_then_holds_the_report(client: Verified) -> None:
    with client.chat.completions.create(
        model="local", messages=QUESTION, stream=True, verification={"sources": [POLICY]}
    ) as stream:
        chunks = list(stream)

    content = "".join((chunk["choices"][0]["delta"].get("content") or "") for chunk in chunks if chunk["choices"])
    assert "[policy]" in content
    assert chunks[-1]["choices"] == []
    assert stream.verification is not None and stream.verification.verdict == "pass"


def test_block_raises_ungrounded_with_the_report(client: Verified, gateway: ScriptedGateway) -> None:
    gateway.script(completion(ANSWER))
    with pytest.raises(UngroundedError) as raised:
        client.chat.completions.create(
            model="scripted", messages=QUESTION, verification={"sources": [POLICY], "action": "block"}
        )
    assert raised.value.verification is not None
    assert raised.value.verification.verdict == "fail"
