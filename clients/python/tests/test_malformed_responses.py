"""Every failure is a ``VerifiedError``: a 2xx body that is not UTF-8, not JSON, nested too deep or not the
documented shape is an ``InvalidResponseError`` naming what is wrong, never a ``KeyError`` or
``UnicodeDecodeError``; a malformed error body still gives its typed error."""

from __future__ import annotations

import io
import json
from typing import Any, Callable

import pytest

from fakes import FakeResponse, body, client_of, http_error, opener_of
from verified_answers import InvalidResponseError, UngroundedError, Verified, VerifiedError

SOURCES = [{"id": "s", "text": "Refunds within 30 days."}]
CITATION = {"claim": "c", "quote": "Refunds", "source": "s", "range": [0, 7]}
GOOD_CHECK = {"text": "", "citations": [CITATION], "unsupported": [], "coverage": 1, "usage": {"model_calls": 0, "total_tokens": 0}}


def with_field(**changes: Any) -> bytes:
    return json.dumps({**GOOD_CHECK, **changes}).encode()


def check(client: Verified) -> Any:
    return client.check(sources=SOURCES, claims=[])


MALFORMED = {
    "not UTF-8": b'{"text": "\xff\xfe"}',
    "not JSON": b"<html>upstream</html>",
    "deep JSON": b"[" * 100_000 + b"]" * 100_000,
    "an unclosed deep JSON": b"[" * 100_000,
    "an array, not an object": b"[]",
    "a missing field": json.dumps({"text": ""}).encode(),
    "a string for a number": with_field(coverage="1"),
    "a boolean for an integer": with_field(usage={"model_calls": True, "total_tokens": 0}),
    "a range of three": with_field(citations=[{**CITATION, "range": [0, 1, 2]}]),
    "a range of strings": with_field(citations=[{**CITATION, "range": ["0", "7"]}]),
    "a citation that is a string": with_field(citations=["Refunds"]),
    "a detail that is a string": with_field(unsupported=[{"claim": "c", "reason": "no_support", "detail": "x"}]),
    "null citations": with_field(citations=None),
    "a number miss without checked": with_field(unsupported=[{"claim": "c", "reason": "number_not_found", "detail": {"number": "9"}}]),
}


@pytest.mark.parametrize("name", list(MALFORMED))
def test_a_malformed_body_is_an_invalid_response_error(name: str) -> None:
    client = client_of(opener_of(lambda: FakeResponse(body(MALFORMED[name]))))
    with pytest.raises(InvalidResponseError) as caught:
        check(client)
    assert caught.value.type == "invalid_response" and caught.value.status == 200
    assert "/v1/verified/check answered 200" in caught.value.message


def test_the_message_names_the_field_at_fault() -> None:
    client = client_of(opener_of(lambda: FakeResponse(body(MALFORMED["a range of three"]))))
    with pytest.raises(InvalidResponseError, match=r"result\.citations\[0\]\.range is not a \[start, end\] pair"):
        check(client)


@pytest.mark.parametrize(
    ("call", "answer"),
    [
        (lambda client: client.list_models(), {"models": [{"id": "local", "match": "exact"}]}),
        (lambda client: client.list_models(), {"models": None}),
        (lambda client: client.eval(model="local", cases=[]), {"aggregate": {"n": 0}, "cases": [], "usage": {}}),
        (
            lambda client: client.extract(model="local", sources=SOURCES, schema={"a": "b"}),
            {"id": "x", "model": "local", "fields": [], "coverage": 0, "usage": {}},
        ),
        (lambda client: client.create(model="local", messages=[], sources=SOURCES), {"id": 1}),
    ],
)
def test_every_operation_checks_its_shape(call: Callable[[Verified], Any], answer: Any) -> None:
    client = client_of(opener_of(lambda: FakeResponse(body(json.dumps(answer).encode()))))
    with pytest.raises(InvalidResponseError):
        call(client)


STREAM_MALFORMED = {
    "data that is not JSON": b"event: claim\ndata: {nope\n\n",
    "a line that is not UTF-8": b"event: claim\ndata: \xff\n\n",
    "a claim of the wrong shape": b'event: claim\ndata: {"claim": 1}\n\n',
    "deep data": b"event: attempt\ndata: " + b"[" * 100_000 + b"\n\n",
    "a done of the wrong shape": b'event: done\ndata: {"text": "x"}\n\n',
}


@pytest.mark.parametrize("name", list(STREAM_MALFORMED))
def test_a_malformed_stream_is_an_invalid_response_error(name: str) -> None:
    response = FakeResponse(body(STREAM_MALFORMED[name]), content_type="text/event-stream")
    client = client_of(opener_of(lambda: response))
    with pytest.raises(InvalidResponseError):
        list(client.stream(model="local", messages=[], sources=SOURCES))
    assert response.closed


@pytest.mark.parametrize(
    "error_body",
    [
        b"\xff\xfe",
        b"[" * 100_000,
        json.dumps({"error": {"type": "ungrounded", "message": 5, "unsupported": [1, {"claim": "c"}]}}).encode(),
        json.dumps({"error": ["not", "an", "object"]}).encode(),
    ],
)
def test_a_malformed_error_body_still_gives_the_typed_error(error_body: bytes) -> None:
    def fail() -> Any:
        raise http_error(422, io.BytesIO(error_body))

    client = client_of(opener_of(fail))
    with pytest.raises(UngroundedError) as caught:
        check(client)
    assert caught.value.status == 422 and caught.value.unsupported == []


def test_an_unsupported_list_keeps_its_well_formed_claims() -> None:
    good = {"claim": "c", "reason": "quote_not_found", "quote": "q", "source": "s"}
    error_body = json.dumps({"error": {"type": "ungrounded", "code": "ungrounded", "message": "m", "unsupported": [good, 7]}})

    def fail() -> Any:
        raise http_error(422, io.BytesIO(error_body.encode()))

    with pytest.raises(UngroundedError) as caught:
        check(client_of(opener_of(fail)))
    assert [(item.claim, item.quote, item.source) for item in caught.value.unsupported] == [("c", "q", "s")]


def test_an_exception_the_opener_raises_is_a_connection_error_not_a_crash() -> None:
    def broken() -> Any:
        raise ValueError("the opener broke")

    client = client_of(opener_of(broken), max_retries=0)
    with pytest.raises(VerifiedError) as caught:
        check(client)
    assert caught.value.type == "connection_error" and caught.value.status == 0


def test_a_reader_that_indexes_the_json_directly_still_raises_an_invalid_response_error() -> None:
    client = client_of(opener_of(lambda: FakeResponse(body(b'{"choices": []}'))))
    with pytest.raises(InvalidResponseError, match="IndexError"):
        client._transport.post_json("/v1/chat/completions", {}, lambda data: str(data["choices"][0]["message"]))
    raw = client_of(opener_of(lambda: FakeResponse(body(b'{"a": [1]}'))))._transport.post_json("/v1/x", None)
    assert raw == {"a": [1]}
