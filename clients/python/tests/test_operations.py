"""Create, extract, check, eval and list_models against the real service on the local model."""

from __future__ import annotations

import pytest

from verified_answers import CandidateClaim, EvalCase, Message, Source, Verified

POLICY = Source(
    id="policy",
    text="😀 Refunds are accepted within 30 days of purchase.\r\nOrders over $50 ship free. Café hours: 9 to 5.",
)
QUESTION = [Message(role="user", content="When are refunds accepted?")]


def test_create_grounds_the_answer_and_every_range_slices_the_quote_in_python(client: Verified) -> None:
    result = client.create(model="local", messages=QUESTION, sources=[POLICY])

    assert result.citations, "the local model cites the refund sentence"
    for citation in result.citations:
        assert POLICY.text[citation.range[0] : citation.range[1]] == citation.quote
    assert result.grounded and result.coverage == 1.0
    assert result.usage.model_calls == 1


def test_sources_and_messages_may_be_plain_dicts(client: Verified) -> None:
    result = client.create(
        model="local",
        messages=[{"role": "user", "content": "When are refunds accepted?"}],
        sources=[{"id": "policy", "text": POLICY.text}],
    )
    assert result.citations, "the local model cites the refund sentence"
    for citation in result.citations:
        assert citation.source == "policy"
        assert POLICY.text[citation.range[0] : citation.range[1]] == citation.quote


def test_extract_finds_fields_verbatim(client: Verified) -> None:
    sheet = Source(id="sheet", text="🧾 Invoice\r\nCustomer: Zoë Ärger-Smith\r\nTotal: €1,240.50\r\n")
    result = client.extract(model="local", sources=[sheet], schema={"customer": "the customer's name"})

    field = result.fields["customer"]
    assert field.grounded and field.value == "Zoë Ärger-Smith" and field.range is not None
    assert sheet.text[field.range[0] : field.range[1]] == field.value


def test_check_verifies_claims_with_no_model(client: Verified) -> None:
    result = client.check(
        sources=[POLICY],
        claims=[
            CandidateClaim(quote="Orders over $50 ship free.", source="policy"),
            {"claim": "Refunds take 60 days.", "quote": "within 60 days", "source": "policy"},
        ],
    )

    assert [citation.quote for citation in result.citations] == ["Orders over $50 ship free."]
    start, end = result.citations[0].range
    assert POLICY.text[start:end] == "Orders over $50 ship free."
    assert [(item.claim, item.reason) for item in result.unsupported] == [("Refunds take 60 days.", "quote_not_found")]
    assert result.coverage == 0.5 and result.usage.model_calls == 0


def test_check_takes_claims_or_an_answer_never_both(client: Verified) -> None:
    with pytest.raises(ValueError, match="exactly one"):
        client.check(sources=[POLICY])
    with pytest.raises(ValueError, match="exactly one"):
        client.check(sources=[POLICY], claims=[], answer="Refunds within 30 days.")


def test_eval_scores_cases_and_echoes_ids(client: Verified) -> None:
    result = client.eval(
        model="local",
        cases=[EvalCase(id=7, messages=QUESTION, sources=[POLICY]), {"id": "b", "messages": QUESTION, "sources": [POLICY]}],
        details=True,
    )
    assert [case.id for case in result.cases] == ["7", "b"]
    assert result.aggregate.n == 2 and result.aggregate.errored == 0
    for case in result.cases:
        assert case.result is not None
        for citation in case.result.citations:
            assert POLICY.text[citation.range[0] : citation.range[1]] == citation.quote


def test_eval_with_expected_answers_says_which_case_is_correct_and_where(client: Verified) -> None:
    result = client.eval(
        model="local",
        cases=[
            EvalCase(id="right", messages=QUESTION, sources=[POLICY], expected=["within 30 days"]),
            EvalCase(id="wrong", messages=QUESTION, sources=[POLICY], expected="60 days"),
            EvalCase(id="none", messages=QUESTION, sources=[POLICY]),
        ],
    )

    right, wrong, none = result.cases
    assert (right.correct, wrong.correct, none.correct) == (True, False, None)
    assert right.match is not None and right.match.expected == "within 30 days" and right.match.citation == 0
    assert wrong.match is None and none.match is None
    assert result.aggregate.correct_rate == 0.5
    # eval_all merges the rate over pages as one request would.
    merged = client.eval_all(model="local", cases=[{"messages": QUESTION, "sources": [POLICY], "expected": "30 days"}] * 3)
    assert merged.aggregate.correct_rate == 1.0 and [case.correct for case in merged.cases] == [True] * 3


def test_list_models_names_the_local_model(client: Verified) -> None:
    models = client.list_models()
    assert [(entry.id, entry.gateway) for entry in models.models if entry.id == "local"] == [("local", None)]


def test_reads_base_url_and_api_key_from_the_environment(monkeypatch: pytest.MonkeyPatch, service_url: str) -> None:
    monkeypatch.setenv("VERIFIED_BASE_URL", service_url + "/")
    monkeypatch.setenv("VERIFIED_API_KEY", "from-env")
    client = Verified()
    assert client.base_url == service_url
    assert client._transport.api_key == "from-env"
    assert client.check(sources=[POLICY], claims=[]).coverage == 0
