"""Typed errors and retries: gateway failures mapped by the real service, and the client's own policy."""

from __future__ import annotations

import socket
import threading
from typing import Any, Iterator, List

import pytest

from conftest import ScriptedGateway, completion, gateway_error
from verified_answers import (
    APIConnectionError,
    APITimeoutError,
    AuthenticationError,
    GatewayError,
    InternalServerError,
    InvalidRequestError,
    NoSourcesError,
    RateLimitError,
    UngroundedError,
    Verified,
    VerifiedError,
    error_from_response,
)

REPORT = {"id": "report", "text": "Revenue for 2024 was $18.4 million 📈, up 22% over 2023."}
QUESTION = [{"role": "user", "content": "How did revenue do?"}]
CLAIM = {"claim": "Revenue was $18.4 million 📈.", "quote": "Revenue for 2024 was $18.4 million 📈", "source": "report"}


def create(client: Verified) -> Any:
    return client.create(model="gpt-test", messages=QUESTION, sources=[REPORT])


def test_a_gateway_answer_round_trips_emoji_and_python_slices_it(client: Verified, gateway: ScriptedGateway) -> None:
    gateway.script(completion({"claims": [CLAIM]}))
    result = create(client)

    assert [citation.quote for citation in result.citations] == [CLAIM["quote"]]
    assert result.text == "Revenue was $18.4 million 📈 [report]."
    start, end = result.citations[0].range
    assert REPORT["text"][start:end] == CLAIM["quote"]
    assert gateway.calls[0]["model"] == "gpt-test"
    assert any("📈" in message["content"] for message in gateway.calls[0]["messages"])


def test_a_rate_limited_call_waits_retry_after_and_succeeds(service_url: str, gateway: ScriptedGateway) -> None:
    waits: List[float] = []
    client = Verified(base_url=service_url, api_key="k", sleep=waits.append)
    gateway.script(
        gateway_error(429, "slow down", {"retry-after": "3"}),
        completion({"claims": [CLAIM]}),
    )

    result = create(client)

    assert waits == [3.0]
    assert len(gateway.calls) == 2
    assert result.coverage == 1.0


def test_retries_stop_after_max_retries_with_the_typed_error(service_url: str, gateway: ScriptedGateway) -> None:
    waits: List[float] = []
    client = Verified(base_url=service_url, api_key="k", sleep=waits.append, max_retries=1)
    gateway.script(*[gateway_error(500, "upstream broke")] * 20)

    with pytest.raises(GatewayError) as caught:
        create(client)

    assert caught.value.status == 502 and caught.value.type == "gateway_error"
    assert len(waits) == 1 and 0.25 <= waits[0] <= 0.5
    # The service retries a 500 itself, so each client attempt may cost more than one gateway call.
    assert len(gateway.calls) >= 2


def test_a_refused_gateway_key_is_an_authentication_error(client: Verified, gateway: ScriptedGateway) -> None:
    gateway.script(gateway_error(401, "bad key"))
    with pytest.raises(AuthenticationError) as caught:
        create(client)
    assert caught.value.status == 401


def test_ungrounded_lists_the_failed_claims(client: Verified, gateway: ScriptedGateway) -> None:
    invented = {"claim": "Profit doubled.", "quote": "profit doubled", "source": "report"}
    gateway.script(completion({"claims": [invented]}))
    with pytest.raises(UngroundedError) as caught:
        create(client)
    assert caught.value.status == 422
    assert [(item.claim, item.reason) for item in caught.value.unsupported] == [("Profit doubled.", "quote_not_found")]


def test_bad_input_names_the_parameter(client: Verified) -> None:
    with pytest.raises(InvalidRequestError) as caught:
        client.create(model="local", messages=QUESTION, sources=[REPORT], retry=99)
    assert (caught.value.status, caught.value.param) == (400, "retry")
    with pytest.raises(NoSourcesError):
        client.extract(model="local", sources=[], schema={"x": "anything"})


def test_no_service_is_a_connection_error_after_the_retries() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    waits: List[float] = []
    client = Verified(base_url=f"http://127.0.0.1:{port}", sleep=waits.append)
    with pytest.raises(APIConnectionError) as caught:
        client.list_models()
    assert caught.value.status == 0 and caught.value.type == "connection_error"
    assert len(waits) == 2


def test_a_connection_error_never_prints_the_base_urls_user_and_password() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    client = Verified(base_url=f"http://admin:s3cret-pass@127.0.0.1:{port}", max_retries=0)
    with pytest.raises(APIConnectionError) as caught:
        client.list_models()
    assert f"http://***@127.0.0.1:{port}" in str(caught.value)
    assert "s3cret" not in str(caught.value)


@pytest.fixture
def silent_server() -> Iterator[str]:
    """A server that accepts connections and never answers."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    accepted: List[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        listener.settimeout(0.1)
        while not stop.is_set():
            try:
                accepted.append(listener.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{listener.getsockname()[1]}"
    stop.set()
    thread.join()
    for connection in accepted:
        connection.close()
    listener.close()


def test_a_silent_service_is_a_timeout_error(silent_server: str) -> None:
    client = Verified(base_url=silent_server, timeout=0.2, max_retries=0)
    with pytest.raises(APITimeoutError) as caught:
        client.list_models()
    assert caught.value.type == "timeout"


@pytest.mark.parametrize(
    ("status", "body", "expected"),
    [
        (400, '{"error": {"type": "no_sources", "code": "no_sources", "message": "m"}}', NoSourcesError),
        (429, "", RateLimitError),
        (503, "<html>busy</html>", InternalServerError),
        (418, "teapot", VerifiedError),
    ],
)
def test_one_function_maps_status_and_type_to_a_class(status: int, body: str, expected: type) -> None:
    error = error_from_response(status, {"Retry-After": "2"}, body)
    assert type(error) is expected
    assert error.status == status
    if isinstance(error, RateLimitError):
        assert error.retry_after == 2.0
