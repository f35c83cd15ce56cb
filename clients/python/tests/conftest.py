"""The real built service, started once per session on the local model and a scripted gateway.

The service is the repository's own build (``dist/cli/main.js``, made by ``npm run build``) run with ``node``
(``VERIFIED_NODE`` names another binary). Model ids other than ``local`` go to a scripted OpenAI-compatible
gateway that these tests start on 127.0.0.1 and script per test, so errors and retries come from the real
service's own mapping of gateway failures.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import threading
import time
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional, Tuple

import pytest

from verified_answers import Verified

REPOSITORY = Path(__file__).resolve().parents[3]
BUILT_CLI = REPOSITORY / "dist" / "cli" / "main.js"

Reply = Tuple[int, Dict[str, str], Any]
"""What the scripted gateway answers one call with: status, headers, JSON body."""


def completion(content: Any) -> Reply:
    """A 200 Chat Completions answer whose message content is ``content`` (an object is JSON-encoded)."""
    text = content if isinstance(content, str) else json.dumps(content, ensure_ascii=False)
    body = {
        "id": "chatcmpl-scripted",
        "object": "chat.completion",
        "created": 1_700_000_000,
        "model": "scripted",
        "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": text}}],
        "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
    }
    return (200, {}, body)


def gateway_error(status: int, message: str, headers: Optional[Dict[str, str]] = None) -> Reply:
    """An OpenAI-style error answer."""
    return (status, headers or {}, {"error": {"message": message, "type": "scripted", "code": None}})


class ScriptedGateway:
    """An OpenAI-compatible gateway that answers from a queue of scripted replies and records every call."""

    def __init__(self) -> None:
        self.replies: List[Reply] = []
        self.calls: List[Dict[str, Any]] = []
        self.lock = threading.Lock()
        gateway = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                with gateway.lock:
                    gateway.calls.append(body)
                    status, headers, answer = gateway.replies.pop(0) if gateway.replies else completion({"claims": []})
                data = json.dumps(answer).encode("utf-8")
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                for name, value in headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def script(self, *replies: Reply) -> None:
        """Queues ``replies`` for the next calls, in order, and forgets earlier calls and replies."""
        with self.lock:
            self.replies = list(replies)
            self.calls = []

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.fixture(scope="session")
def gateway() -> Iterator[ScriptedGateway]:
    scripted = ScriptedGateway()
    yield scripted
    scripted.close()


@pytest.fixture(scope="session")
def service_url(gateway: ScriptedGateway) -> Iterator[str]:
    """Starts ``verified serve`` from the build and waits until it answers ``/readyz``."""
    if not BUILT_CLI.exists():
        pytest.fail(f"{BUILT_CLI} is missing: run `npm run build` at the repository's root first.")
    port = free_port()
    environment = {
        **{name: value for name, value in os.environ.items() if not name.startswith("VERIFIED_")},
        "VERIFIED_PORT": str(port),
        "VERIFIED_HOST": "127.0.0.1",
        "VERIFIED_GATEWAY_URL": gateway.url,
        "VERIFIED_GATEWAY_TIMEOUT_MS": "5000",
        "VERIFIED_LOG_LEVEL": "warn",
    }
    process = subprocess.Popen(
        [os.environ.get("VERIFIED_NODE", "node"), str(BUILT_CLI), "serve"],
        env=environment,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(f"{url}/readyz", timeout=2) as response:
                if response.status == 200:
                    break
        except OSError:
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            error = process.stderr.read().decode() if process.stderr else ""
            pytest.fail(f"verified serve did not start: {error}")
        time.sleep(0.1)
    yield url
    process.terminate()
    process.wait(timeout=30)


@pytest.fixture
def client(service_url: str, gateway: ScriptedGateway) -> Verified:
    """A client of the running service; the gateway starts each test with an empty script."""
    gateway.script()
    return Verified(base_url=service_url, api_key="test-key", sleep=lambda _seconds: None)
