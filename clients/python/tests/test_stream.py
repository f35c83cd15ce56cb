"""``stream``: the events of a streamed create, ending in the same result ``create`` gives."""

from __future__ import annotations

import dataclasses

import pytest

from conftest import ScriptedGateway, completion
from verified_answers import ClaimEvent, DoneEvent, UngroundedError, UnsupportedEvent, Verified

POLICY = {"id": "policy", "text": "🛒 Refunds are accepted within 30 days.\r\nOrders over $50 ship free."}
QUESTION = [{"role": "user", "content": "When are refunds accepted, and what ships free?"}]


def test_stream_yields_claims_then_done_with_the_create_result(client: Verified) -> None:
    with client.stream(model="local", messages=QUESTION, sources=[POLICY]) as stream:
        events = list(stream)
    created = client.create(model="local", messages=QUESTION, sources=[POLICY])

    assert isinstance(events[-1], DoneEvent)
    done = events[-1].result
    assert stream.result == done
    assert dataclasses.replace(done, id=created.id) == created
    claims = [event.citation for event in events if isinstance(event, ClaimEvent)]
    assert claims == done.citations and claims
    for citation in claims:
        assert POLICY["text"][citation.range[0] : citation.range[1]] == citation.quote


def test_stream_sends_unsupported_events_from_the_gateway(client: Verified, gateway: ScriptedGateway) -> None:
    good = {"claim": "Refunds within 30 days.", "quote": "Refunds are accepted within 30 days.", "source": "policy"}
    bad = {"claim": "Refunds take a year.", "quote": "within a year", "source": "policy"}
    gateway.script(completion({"claims": [good, bad]}))

    events = list(client.stream(model="gpt-test", messages=QUESTION, sources=[POLICY]))

    kinds = [type(event).__name__ for event in events]
    assert kinds.count("ClaimEvent") == 1 and kinds.count("UnsupportedEvent") == 1 and kinds[-1] == "DoneEvent"
    unsupported = [event.unsupported for event in events if isinstance(event, UnsupportedEvent)]
    assert [(item.claim, item.reason) for item in unsupported] == [("Refunds take a year.", "quote_not_found")]


def test_a_stream_that_fails_raises_the_typed_error(client: Verified, gateway: ScriptedGateway) -> None:
    gateway.script(completion({"claims": [{"claim": "x", "quote": "not in it", "source": "policy"}]}))
    with pytest.raises(UngroundedError) as caught:
        list(client.stream(model="gpt-test", messages=QUESTION, sources=[POLICY]))
    assert caught.value.type == "ungrounded"
