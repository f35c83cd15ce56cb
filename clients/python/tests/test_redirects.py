"""The client follows no redirect: a 3xx (to another origin or its own) is a ``RedirectError`` naming where it
pointed, and the API key never reaches the other host."""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Iterator, List, Optional

import pytest

from verified_answers import RedirectError, Verified


class Recorder:
    """A local HTTP server that answers every request with ``status`` (and ``location``), recording the
    Authorization header of each."""

    def __init__(self, status: int = 200, location: Optional[str] = None) -> None:
        self.authorizations: List[Optional[str]] = []
        recorder = self

        class Handler(BaseHTTPRequestHandler):
            def answer(self) -> None:
                recorder.authorizations.append(self.headers.get("authorization"))
                length = int(self.headers.get("content-length") or 0)
                self.rfile.read(length)
                data = b'{"models": [{"id": "evil", "match": "exact", "gateway": null}]}'
                self.send_response(status)
                if location is not None:
                    self.send_header("location", location)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            do_GET = answer
            do_POST = answer

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def elsewhere() -> Iterator[Recorder]:
    recorder = Recorder()
    yield recorder
    recorder.close()


@pytest.mark.parametrize("status", [301, 302, 303, 307, 308])
def test_a_redirect_to_another_host_is_an_error_and_the_key_stays_home(status: int, elsewhere: Recorder) -> None:
    origin = Recorder(status, f"{elsewhere.url}/v1/models")
    try:
        client = Verified(base_url=origin.url, api_key="secret-key", max_retries=0)
        with pytest.raises(RedirectError) as caught:
            client.list_models()
        with pytest.raises(RedirectError):
            client.check(sources=[{"id": "s", "text": "t"}], claims=[])
    finally:
        origin.close()
    assert caught.value.status == status and caught.value.location == f"{elsewhere.url}/v1/models"
    assert elsewhere.url in caught.value.message
    assert origin.authorizations == ["Bearer secret-key", "Bearer secret-key"]
    assert elsewhere.authorizations == []


def test_a_redirect_to_the_same_origin_is_not_followed_either() -> None:
    origin = Recorder(302, "/v2/models")
    try:
        with pytest.raises(RedirectError) as caught:
            Verified(base_url=origin.url, api_key="k", max_retries=0).list_models()
    finally:
        origin.close()
    assert caught.value.location == "/v2/models" and len(origin.authorizations) == 1
