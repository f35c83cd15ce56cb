"""One HTTP attempt over ``urllib.request``, bounded reads, and the retry policy around it (the TypeScript
client's), all under one deadline per call."""

from __future__ import annotations

import http.client
import json
import random as random_module
import socket
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Optional, Protocol, TypeVar, overload

from ._errors import (
    APIConnectionError,
    APITimeoutError,
    AuthenticationError,
    InvalidResponseError,
    RateLimitError,
    RedirectError,
    VerifiedError,
    error_from_response,
)
from ._types import ResponseShapeError

INITIAL_RETRY_DELAY = 0.5
"""Seconds: the first backoff step before jitter."""
MAX_RETRY_DELAY = 8.0
"""Seconds: the backoff cap before jitter."""
MAX_RETRY_AFTER = 60.0
"""A ``Retry-After`` longer than this is not waited out: the ``RateLimitError`` is raised at once."""
DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024 * 1024
"""The most bytes one response body, error body, streamed line or streamed event may have (an eval with
``details`` answers up to 32 Mi characters of details)."""
READ_CHUNK_BYTES = 64 * 1024
"""Bytes asked of the socket per read; the deadline is checked, and the socket's timeout set, before each."""


class Response(Protocol):
    """What the client reads of an HTTP response (``http.client.HTTPResponse`` fits)."""

    status: int
    headers: Any

    def read1(self, amt: int = -1) -> bytes: ...
    def close(self) -> None: ...


Opener = Callable[[urllib.request.Request, float], Response]
"""Sends a request with a timeout in seconds; follows no redirect by default. Injected in tests."""


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    """A 3xx is returned as the error it is, never followed: a redirect would carry the API key elsewhere."""

    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


_OPENER = urllib.request.build_opener(_NoRedirects)


def default_opener(request: urllib.request.Request, timeout: float) -> Response:
    response: Response = _OPENER.open(request, timeout=timeout)
    return response


def masked_url(url: str) -> str:
    """``url`` as it may be printed: a ``user:password@`` after the scheme becomes ``***@``."""
    scheme, separator, rest = url.partition("://")
    if separator == "":
        return url
    authority_end = min((at for at in (rest.find(stop) for stop in "/?#") if at >= 0), default=len(rest))
    user_info_end = rest.rfind("@", 0, authority_end)
    return url if user_info_end < 0 else f"{scheme}://***{rest[user_info_end:]}"


class BodyTooLarge(Exception):
    """A body, line or event over the read limit."""


class BoundedReader:
    """Reads a response in chunks of at most ``READ_CHUNK_BYTES`` under a deadline: before each read the deadline
    is checked and the socket's timeout set to what is left, so a server that drips its body cannot hold the
    call past it. Raises ``socket.timeout`` when the deadline has passed, ``BodyTooLarge`` over a limit."""

    def __init__(self, response: Any, deadline: float, clock: Callable[[], float]) -> None:
        self.response = response
        self.deadline = deadline
        self.clock = clock
        self.buffer = bytearray()
        self.scanned = 0
        self.reads = 0

    def chunk(self) -> bytes:
        remaining = self.deadline - self.clock()
        if remaining <= 0:
            raise socket.timeout("the call's deadline passed while reading the response")
        _set_socket_timeout(self.response, remaining)
        self.reads += 1
        read1 = getattr(self.response, "read1", None)
        data: bytes = read1(READ_CHUNK_BYTES) if read1 is not None else self.response.read(READ_CHUNK_BYTES)
        return data

    def read_all(self, limit: int) -> bytes:
        """The whole body; ``BodyTooLarge`` as soon as it passes ``limit`` bytes."""
        parts = [bytes(self.buffer)]
        total = len(self.buffer)
        self.buffer.clear()
        while True:
            data = self.chunk()
            if data == b"":
                return b"".join(parts)
            total += len(data)
            if total > limit:
                raise BodyTooLarge(f"over {limit} bytes")
            parts.append(data)

    def read_line(self, limit: int) -> bytes:
        """The next line with its ``\\n`` (the rest at the end; ``b""`` once read out); ``BodyTooLarge`` when a
        line passes ``limit`` bytes. Each byte is scanned once."""
        while True:
            newline = self.buffer.find(b"\n", self.scanned)
            if newline >= 0:
                line = bytes(self.buffer[: newline + 1])
                del self.buffer[: newline + 1]
                self.scanned = 0
                return line
            if len(self.buffer) > limit:
                raise BodyTooLarge(f"a line over {limit} bytes")
            self.scanned = len(self.buffer)
            data = self.chunk()
            if data == b"":
                line = bytes(self.buffer)
                self.buffer.clear()
                self.scanned = 0
                return line
            self.buffer += data


def _set_socket_timeout(response: Any, seconds: float) -> None:
    """Sets the timeout of the socket under an ``http.client.HTTPResponse`` (or the ``HTTPError`` wrapping
    one), when there is one to reach."""
    for path in (("fp", "raw", "_sock"), ("fp", "fp", "raw", "_sock")):
        target: Any = response
        for name in path:
            target = getattr(target, name, None)
            if target is None:
                break
        settimeout = getattr(target, "settimeout", None)
        if callable(settimeout):
            settimeout(seconds)
            return


@dataclass
class Transport:
    """Where and how a call is sent. ``timeout`` is the call's one deadline, in seconds from its start: every
    attempt, backoff wait and read of the call ends by then."""

    base_url: str
    api_key: Optional[str]
    timeout: float
    opener: Opener = default_opener
    max_retries: int = 2
    sleep: Callable[[float], None] = time.sleep
    random: Callable[[], float] = field(default=random_module.random)
    clock: Callable[[], float] = time.monotonic
    max_response_bytes: int = DEFAULT_MAX_RESPONSE_BYTES

    def deadline(self) -> float:
        """When a call starting now must end."""
        return self.clock() + self.timeout

    def open(
        self, path: str, body: Optional[Dict[str, Any]], deadline: float, accept: str = "application/json"
    ) -> Response:
        """One attempt: the 2xx response, open; a typed ``VerifiedError`` otherwise."""
        method = "GET" if body is None else "POST"
        remaining = deadline - self.clock()
        if remaining <= 0:
            raise self.timed_out(method, path)
        headers = {"accept": accept, "user-agent": "verified-answers-python"}
        data = None
        if body is not None:
            headers["content-type"] = "application/json"
            data = json.dumps(body, ensure_ascii=False).encode("utf-8")
        if self.api_key is not None:
            headers["authorization"] = f"Bearer {self.api_key}"
        request = urllib.request.Request(f"{self.base_url}{path}", data=data, headers=headers, method=method)
        try:
            return self.opener(request, remaining)
        except urllib.error.HTTPError as error:
            raise self.error_response(method, path, error, deadline) from None
        except Exception as error:
            raise self.no_response(method, path, error) from error

    def error_response(self, method: str, path: str, error: urllib.error.HTTPError, deadline: float) -> VerifiedError:
        """The typed error of a non-2xx answer, its body read within the deadline and ``max_response_bytes``."""
        headers = dict(error.headers.items()) if error.headers is not None else {}
        if 300 <= error.code < 400:
            error.close()
            location = next((value for name, value in headers.items() if name.lower() == "location"), None)
            return RedirectError(
                f"{method} {path} answered {error.code}, a redirect to {masked_url(location or '(no location)')}; "
                f"the client follows no redirect (it would carry the API key there): set base_url to the "
                "service's own address.",
                type="redirect",
                status=error.code,
                headers=headers,
                location=location,
            )
        try:
            raw = BoundedReader(error, deadline, self.clock).read_all(self.max_response_bytes)
            text = raw.decode("utf-8", errors="replace")
        except BodyTooLarge:
            text = f"(an error body over {self.max_response_bytes} bytes, not read)"
        except Exception as problem:
            if _is_timeout(problem):
                return self.timed_out(method, path)
            text = ""
        finally:
            error.close()
        failure = error_from_response(error.code, headers, text)
        if isinstance(failure, AuthenticationError) and self.api_key is None:
            failure.message += " No API key was sent: pass api_key= to Verified() or set VERIFIED_API_KEY."
            failure.args = (failure.message,)
        return failure

    def timed_out(self, method: str, path: str) -> APITimeoutError:
        return APITimeoutError(
            f"{method} {path} did not complete within {self.timeout} s; raise timeout= for long runs.",
            type="timeout",
            status=0,
        )

    def no_response(self, method: str, path: str, error: BaseException) -> VerifiedError:
        """The status-0 error for an attempt that got no (whole) response; a ``VerifiedError`` as it is."""
        if isinstance(error, VerifiedError):
            return error
        if _is_timeout(error):
            return self.timed_out(method, path)
        reason = error.reason if isinstance(error, urllib.error.URLError) else error
        if isinstance(reason, (OSError, http.client.HTTPException, urllib.error.URLError)):
            return APIConnectionError(
                f"Could not reach the service at {masked_url(self.base_url)}: {reason}", type="connection_error", status=0
            )
        return APIConnectionError(
            f"{method} {path} failed while talking to {masked_url(self.base_url)}: {type(error).__name__}: {error}",
            type="connection_error",
            status=0,
        )

    def invalid(self, path: str, status: int, problem: str) -> InvalidResponseError:
        return InvalidResponseError(
            f"{path} answered {status} with {problem}.", type="invalid_response", status=status
        )

    @overload
    def post_json(self, path: str, body: Optional[Dict[str, Any]]) -> Any: ...
    @overload
    def post_json(self, path: str, body: Optional[Dict[str, Any]], read: Callable[[Any], T]) -> T: ...
    def post_json(self, path: str, body: Optional[Dict[str, Any]], read: Callable[[Any], Any] = lambda data: data) -> Any:
        """POSTs ``body`` (GETs when None) with retries and returns the answer read by ``read`` from its JSON
        (``read`` raises ``ResponseShapeError`` for a wrong shape; without it, the parsed JSON as it is)."""
        method = "GET" if body is None else "POST"
        deadline = self.deadline()

        def attempt() -> Any:
            response = self.open(path, body, deadline)
            try:
                raw = BoundedReader(response, deadline, self.clock).read_all(self.max_response_bytes)
            except BodyTooLarge:
                raise self.invalid(path, response.status, f"a body over {self.max_response_bytes} bytes") from None
            except Exception as error:
                raise self.no_response(method, path, error) from error
            finally:
                response.close()
            return self.read_json(path, response.status, raw, read)

        return self.with_retries(attempt, deadline)

    def read_json(self, path: str, status: int, raw: bytes, read: Callable[[Any], T]) -> T:
        """``raw`` as UTF-8 JSON read by ``read``; an ``InvalidResponseError`` for anything else."""
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise self.invalid(path, status, "a body that is not UTF-8") from None
        try:
            parsed = json.loads(text)
        except RecursionError:
            raise self.invalid(path, status, "JSON nested too deep to read") from None
        except ValueError:
            raise self.invalid(path, status, "a body that is not JSON") from None
        try:
            return read(parsed)
        except ResponseShapeError as error:
            raise self.invalid(path, status, f"a body not in the documented shape: {error}") from None
        except RecursionError:
            raise self.invalid(path, status, "JSON nested too deep to read") from None
        except (KeyError, IndexError, TypeError, ValueError, AttributeError) as error:
            # A reader that indexes the JSON directly: its failure is a malformed answer all the same.
            raise self.invalid(path, status, f"a body not in the documented shape ({type(error).__name__}: {error})") from None

    def with_retries(self, attempt: Callable[[], T], deadline: float) -> T:
        """Runs ``attempt``, repeating it on 429, 5xx and no-response failures, with backoff and jitter, while
        the wait ends before ``deadline``."""
        retry = 0
        while True:
            try:
                return attempt()
            except VerifiedError as error:
                if retry >= self.max_retries or not is_retryable(error):
                    raise
                delay = retry_delay(retry, error, self.random)
                if delay is None or self.clock() + delay >= deadline:
                    raise
                self.sleep(delay)
                retry += 1


T = TypeVar("T")


def _is_timeout(error: BaseException) -> bool:
    reason = error.reason if isinstance(error, urllib.error.URLError) else error
    return isinstance(reason, (socket.timeout, TimeoutError))


def is_retryable(error: VerifiedError) -> bool:
    """429, any 5xx, and failures with no response (timeouts included)."""
    return isinstance(error, (RateLimitError, APIConnectionError)) or error.status >= 500


def retry_delay(retry: int, error: VerifiedError, random: Callable[[], float]) -> Optional[float]:
    """Seconds before retry number ``retry`` (0 first), or None to give up now."""
    # Retry-After is authoritative when present; one longer than we are willing to wait ends the call.
    if isinstance(error, RateLimitError) and error.retry_after is not None:
        return None if error.retry_after > MAX_RETRY_AFTER else error.retry_after
    step = min(INITIAL_RETRY_DELAY * 2.0**retry, MAX_RETRY_DELAY)
    return step * (0.5 + random() / 2)
