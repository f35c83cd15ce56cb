"""One HTTP attempt over ``urllib.request``, and the retry policy around it (the TypeScript client's)."""

from __future__ import annotations

import http.client
import json
import random as random_module
import socket
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Optional, Protocol, TypeVar

from ._errors import (
    APIConnectionError,
    APITimeoutError,
    AuthenticationError,
    RateLimitError,
    VerifiedError,
    error_from_response,
)

INITIAL_RETRY_DELAY = 0.5
"""Seconds: the first backoff step before jitter."""
MAX_RETRY_DELAY = 8.0
"""Seconds: the backoff cap before jitter."""
MAX_RETRY_AFTER = 60.0
"""A ``Retry-After`` longer than this is not waited out: the ``RateLimitError`` is raised at once."""


class Response(Protocol):
    """What the client reads of an HTTP response (``http.client.HTTPResponse`` fits)."""

    status: int
    headers: Any

    def read(self, amt: Optional[int] = None) -> bytes: ...
    def readline(self, limit: int = -1) -> bytes: ...
    def close(self) -> None: ...


Opener = Callable[[urllib.request.Request, float], Response]
"""Sends a request with a timeout in seconds; ``urllib.request.urlopen`` by default. Injected in tests."""


def default_opener(request: urllib.request.Request, timeout: float) -> Response:
    response: Response = urllib.request.urlopen(request, timeout=timeout)
    return response


def masked_url(url: str) -> str:
    """``url`` as it may be printed: a ``user:password@`` after the scheme becomes ``***@``."""
    scheme, separator, rest = url.partition("://")
    if separator == "":
        return url
    authority_end = min((at for at in (rest.find(stop) for stop in "/?#") if at >= 0), default=len(rest))
    user_info_end = rest.rfind("@", 0, authority_end)
    return url if user_info_end < 0 else f"{scheme}://***{rest[user_info_end:]}"


@dataclass
class Transport:
    """Where and how one attempt is sent."""

    base_url: str
    api_key: Optional[str]
    timeout: float
    opener: Opener = default_opener
    max_retries: int = 2
    sleep: Callable[[float], None] = time.sleep
    random: Callable[[], float] = field(default=random_module.random)

    def open(self, path: str, body: Optional[Dict[str, Any]], accept: str = "application/json") -> Response:
        """One attempt: the 2xx response, open; a typed ``VerifiedError`` otherwise."""
        method = "GET" if body is None else "POST"
        headers = {"accept": accept, "user-agent": "verified-answers-python"}
        data = None
        if body is not None:
            headers["content-type"] = "application/json"
            data = json.dumps(body, ensure_ascii=False).encode("utf-8")
        if self.api_key is not None:
            headers["authorization"] = f"Bearer {self.api_key}"
        request = urllib.request.Request(f"{self.base_url}{path}", data=data, headers=headers, method=method)
        try:
            return self.opener(request, self.timeout)
        except urllib.error.HTTPError as error:
            text = _read_text(error)
            failure = error_from_response(error.code, dict(error.headers.items()), text)
            if isinstance(failure, AuthenticationError) and self.api_key is None:
                failure.message += " No API key was sent: pass api_key= to Verified() or set VERIFIED_API_KEY."
                failure.args = (failure.message,)
            raise failure from None
        except Exception as error:
            raise self.no_response(method, path, error) from error

    def no_response(self, method: str, path: str, error: BaseException) -> VerifiedError:
        """The status-0 error for an attempt that got no (whole) response."""
        if isinstance(error, VerifiedError):
            return error
        reason = error.reason if isinstance(error, urllib.error.URLError) else error
        if isinstance(reason, (socket.timeout, TimeoutError)):
            return APITimeoutError(
                f"{method} {path} did not answer within {self.timeout} s; raise timeout= for long runs.",
                type="timeout",
                status=0,
            )
        if isinstance(reason, (OSError, http.client.HTTPException, urllib.error.URLError)):
            return APIConnectionError(
                f"Could not reach the service at {masked_url(self.base_url)}: {reason}", type="connection_error", status=0
            )
        raise error

    def post_json(self, path: str, body: Optional[Dict[str, Any]]) -> Any:
        """POSTs ``body`` (GETs when None) with retries and returns the parsed JSON answer."""

        def attempt() -> Any:
            response = self.open(path, body)
            try:
                text = response.read().decode("utf-8")
            except Exception as error:
                raise self.no_response("GET" if body is None else "POST", path, error) from error
            finally:
                response.close()
            try:
                return json.loads(text)
            except ValueError:
                raise VerifiedError(
                    f"{path} answered {response.status} with a body that is not JSON.",
                    type="invalid_response",
                    status=response.status,
                ) from None

        return self.with_retries(attempt)

    def with_retries(self, attempt: Callable[[], T]) -> T:
        """Runs ``attempt``, repeating it on 429, 5xx and no-response failures, with backoff and jitter."""
        retry = 0
        while True:
            try:
                return attempt()
            except VerifiedError as error:
                if retry >= self.max_retries or not is_retryable(error):
                    raise
                delay = retry_delay(retry, error, self.random)
                if delay is None:
                    raise
                self.sleep(delay)
                retry += 1


T = TypeVar("T")


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


def _read_text(error: urllib.error.HTTPError) -> str:
    try:
        return error.read().decode("utf-8", errors="replace")
    except Exception:
        return ""
    finally:
        error.close()
