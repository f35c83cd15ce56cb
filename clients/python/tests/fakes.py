"""A scripted HTTP response and a clock for the client's transport, so reads, deadlines and limits are tested by
counting reads and clock steps, not by waiting."""

from __future__ import annotations

import email.message
import io
import urllib.error
import urllib.request
from types import SimpleNamespace
from typing import Any, Callable, Dict, Iterator, List, Optional

from verified_answers import Verified
from verified_answers._transport import Opener, Response


class Clock:
    """A monotonic clock that moves only when told (``advance``) or at each read of a ``FakeResponse``."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class SocketRecorder:
    """Stands in for the socket under a response: records each timeout the client sets."""

    def __init__(self) -> None:
        self.timeouts: List[float] = []

    def settimeout(self, seconds: float) -> None:
        self.timeouts.append(seconds)


class FakeResponse:
    """A 2xx response whose body is ``chunks`` (each ``read1`` returns the next; then ``b""``), or an endless
    run of ``fill`` bytes. Each read advances ``clock`` by ``seconds_per_read`` and is counted."""

    def __init__(
        self,
        chunks: Iterator[bytes],
        *,
        status: int = 200,
        content_type: str = "application/json",
        clock: Optional[Clock] = None,
        seconds_per_read: float = 0.0,
    ) -> None:
        self.status = status
        self.headers = {"content-type": content_type}
        self.chunks = chunks
        self.clock = clock
        self.seconds_per_read = seconds_per_read
        self.reads = 0
        self.bytes_read = 0
        self.closed = False
        self.socket = SocketRecorder()
        self.fp = SimpleNamespace(raw=SimpleNamespace(_sock=self.socket))

    def read1(self, amt: int = -1) -> bytes:
        self.reads += 1
        if self.clock is not None:
            self.clock.advance(self.seconds_per_read)
        data = next(self.chunks, b"")
        self.bytes_read += len(data)
        return data

    def read(self, amt: Optional[int] = None) -> bytes:
        # What a client that reads "everything" would call: the whole rest of the body.
        return b"".join(iter(lambda: self.read1(), b""))

    def readline(self, limit: int = -1) -> bytes:
        return self.read1()

    def close(self) -> None:
        self.closed = True


def body(data: bytes) -> Iterator[bytes]:
    return iter([data])


def endless(fill: bytes, chunk: int = 64 * 1024, total: int = 256 * 1024 * 1024) -> Iterator[bytes]:
    """``total`` bytes of ``fill`` in chunks: far more than any limit under test, so a client that read it all
    would be seen reading it all."""
    sent = 0
    while sent < total:
        yield fill * (chunk // len(fill))
        sent += chunk


def http_error(status: int, fp: Any, headers: Optional[Dict[str, str]] = None) -> urllib.error.HTTPError:
    message = email.message.Message()
    for name, value in (headers or {}).items():
        message[name] = value
    return urllib.error.HTTPError("http://fake/v1", status, "scripted", message, fp)


class EndlessFile(io.RawIOBase):
    """A file of endless ``x`` bytes that counts what was read from it."""

    def __init__(self, prefix: bytes = b"") -> None:
        self.prefix = prefix
        self.bytes_read = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        size = len(buffer)
        data = (self.prefix + b"x" * size)[:size]
        self.prefix = self.prefix[size:]
        buffer[:size] = data
        self.bytes_read += size
        return size


def opener_of(*responses: Callable[[], Response]) -> "RecordingOpener":
    return RecordingOpener(list(responses))


class RecordingOpener:
    """Answers each request with the next scripted response (a callable, so it can raise), recording requests."""

    def __init__(self, responses: List[Callable[[], Response]]) -> None:
        self.responses = responses
        self.requests: List[urllib.request.Request] = []
        self.timeouts: List[float] = []

    def __call__(self, request: urllib.request.Request, timeout: float) -> Response:
        self.requests.append(request)
        self.timeouts.append(timeout)
        return self.responses.pop(0)()


def client_of(opener: Opener, clock: Optional[Clock] = None, **options: Any) -> Verified:
    return Verified(
        base_url="http://fake", api_key="k", opener=opener, sleep=lambda _s: None, clock=clock or Clock(), **options
    )
