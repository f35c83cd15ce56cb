"""Bounded reads: a body, an error body and a streamed line or event are read up to ``max_response_bytes`` and
no further; one deadline (``timeout``) covers the whole call, so a server that drips its body cannot hold it.
Proved by counting bytes, reads and steps of an injected clock, not by waiting."""

from __future__ import annotations

import io
import json
from typing import Any, List

import pytest

from fakes import Clock, EndlessFile, FakeResponse, client_of, endless, http_error, opener_of
from verified_answers import APITimeoutError, InvalidResponseError, UngroundedError, VerifiedError
from verified_answers._errors import MAX_ERROR_MESSAGE_CHARS
from verified_answers._transport import READ_CHUNK_BYTES

LIMIT = 1024 * 1024
SOURCES = [{"id": "s", "text": "Refunds within 30 days."}]


def test_a_body_over_the_limit_stops_at_the_limit() -> None:
    response = FakeResponse(endless(b"x"))
    client = client_of(opener_of(lambda: response), max_response_bytes=LIMIT)
    with pytest.raises(InvalidResponseError, match=f"a body over {LIMIT} bytes"):
        client.check(sources=SOURCES, claims=[])
    assert LIMIT < response.bytes_read <= LIMIT + READ_CHUNK_BYTES
    assert response.closed


def test_a_streamed_line_over_the_limit_stops_at_the_limit() -> None:
    response = FakeResponse(endless(b"x"), content_type="text/event-stream")
    client = client_of(opener_of(lambda: response), max_response_bytes=LIMIT)
    with pytest.raises(InvalidResponseError, match=f"a line over {LIMIT} bytes"):
        list(client.stream(model="local", messages=[], sources=SOURCES))
    assert LIMIT < response.bytes_read <= LIMIT + 2 * READ_CHUNK_BYTES


def test_a_streamed_event_of_many_lines_over_the_limit_stops_at_the_limit() -> None:
    response = FakeResponse(endless(b"data: 1\n"), content_type="text/event-stream")
    client = client_of(opener_of(lambda: response), max_response_bytes=LIMIT)
    with pytest.raises(InvalidResponseError, match=f"an event over {LIMIT} bytes"):
        list(client.stream(model="local", messages=[], sources=SOURCES))
    assert response.bytes_read <= LIMIT + 2 * READ_CHUNK_BYTES


def test_an_error_body_is_read_up_to_the_limit_and_its_message_is_capped() -> None:
    endless_body = EndlessFile()

    def fail() -> Any:
        raise http_error(500, endless_body)

    client = client_of(opener_of(fail), max_response_bytes=LIMIT, max_retries=0)
    with pytest.raises(VerifiedError) as caught:
        client.check(sources=SOURCES, claims=[])
    assert caught.value.status == 500
    assert endless_body.bytes_read <= LIMIT + 2 * READ_CHUNK_BYTES
    assert len(caught.value.message) <= MAX_ERROR_MESSAGE_CHARS + 1


def test_a_long_error_message_is_capped() -> None:
    error_body = json.dumps({"error": {"type": "ungrounded", "code": "ungrounded", "message": "m" * 500_000}})

    def fail() -> Any:
        raise http_error(422, io.BytesIO(error_body.encode()))

    client = client_of(opener_of(fail), max_response_bytes=LIMIT, max_retries=0)
    with pytest.raises(UngroundedError) as caught:
        client.check(sources=SOURCES, claims=[])
    assert len(caught.value.message) <= MAX_ERROR_MESSAGE_CHARS + 1


def test_a_dripping_body_ends_at_the_calls_deadline() -> None:
    clock = Clock()
    # One byte per read, each read taking a second: the body would take 24 s to arrive.
    drip = FakeResponse(iter([b"{"] + [b" "] * 22 + [b"}"]), clock=clock, seconds_per_read=1.0)
    opener = opener_of(lambda: drip)
    client = client_of(opener, clock=clock, timeout=5)

    with pytest.raises(APITimeoutError):
        client.check(sources=SOURCES, claims=[])

    assert drip.reads == 5
    # Each read waits at most what is left of the deadline, and no retry starts after it.
    assert drip.socket.timeouts == [5.0, 4.0, 3.0, 2.0, 1.0]
    assert len(opener.requests) == 1 and opener.timeouts == [5.0]


def test_a_dripping_stream_ends_at_the_calls_deadline() -> None:
    clock = Clock()
    drip = FakeResponse(iter([b": heartbeat\n"] * 100), content_type="text/event-stream", clock=clock, seconds_per_read=1.0)
    client = client_of(opener_of(lambda: drip), clock=clock, timeout=5)

    with pytest.raises(APITimeoutError):
        list(client.stream(model="local", messages=[], sources=SOURCES))
    assert drip.reads == 5


def test_a_retry_waits_only_within_the_deadline() -> None:
    clock = Clock()
    waits: List[float] = []

    def busy() -> Any:
        clock.advance(1)
        raise http_error(503, io.BytesIO(b""))

    def sleep(seconds: float) -> None:
        waits.append(seconds)
        clock.advance(seconds)

    client = client_of(opener_of(busy, busy, busy), clock=clock, timeout=3)
    client._transport.sleep = sleep
    client._transport.random = lambda: 1.0
    with pytest.raises(VerifiedError) as caught:
        client.check(sources=SOURCES, claims=[])
    assert caught.value.status == 503
    # Attempt 1 ends at 1 s and its 0.5 s backoff ends before the 3 s deadline; attempt 2 ends at 2.5 s, and
    # its 1 s backoff would pass the deadline, so the call ends there with attempt 2's error.
    assert waits == [0.5]
