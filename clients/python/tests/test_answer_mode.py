"""``check(answer=...)``: answer mode of ``POST /v1/verified/check``. Each citation and unsupported entry
carries ``answer_range`` into the answer, in the same unit as ``range`` (code points here, so Python slices
it). Passes once the service has answer mode."""

from __future__ import annotations

from verified_answers import Verified

POLICY = {"id": "policy", "text": "😀 Refunds are accepted within 30 days of purchase.\r\nOrders over $50 ship free."}
ANSWER = "🙂 Refunds are accepted within 30 days of purchase. Shipping to Mars takes a year 🚀."


def test_check_an_answer_gives_ranges_into_the_answer_and_the_source(client: Verified) -> None:
    result = client.check(
        sources=[POLICY],
        answer=ANSWER,
        messages=[{"role": "user", "content": "What is the refund policy?"}],
    )

    assert result.citations and result.unsupported
    for citation in result.citations:
        assert POLICY["text"][citation.range[0] : citation.range[1]] == citation.quote
        assert citation.answer_range is not None
        assert ANSWER[citation.answer_range[0] : citation.answer_range[1]] == citation.claim
    for unsupported in result.unsupported:
        assert unsupported.answer_range is not None
        assert ANSWER[unsupported.answer_range[0] : unsupported.answer_range[1]] == unsupported.claim


def test_check_names_the_words_of_a_partly_supported_claim_or_drops_it(client: Verified) -> None:
    source = {"id": "museum", "text": "The museum opened a new wing in 2021."}
    answer = "The museum opened a new glass wing in 2021 [1]."

    kept = client.check(sources=[source], answer=answer)
    assert kept.unsupported == []
    assert [(term.term, answer[term.answer_range[0] : term.answer_range[1]]) for term in kept.partial] == [
        ("glass", "glass")
    ]

    dropped = client.check(sources=[source], answer=answer, partial="drop")
    assert dropped.partial == []
    assert [entry.reason for entry in dropped.unsupported] == ["partial_support"]
