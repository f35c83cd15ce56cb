"""Typed errors, mirroring the TypeScript client: one class per error ``type``, one status-to-class function."""

from __future__ import annotations

import email.utils
import json
import re
import time
from typing import Any, Dict, List, Mapping, Optional, Type

from ._types import ResponseShapeError, UnsupportedClaim, VerificationReport, read

MAX_ERROR_MESSAGE_CHARS = 2000
"""An error body's ``message`` longer than this is cut (with ``…``): a hostile body cannot fill the logs."""


class VerifiedError(Exception):
    """Base class of every error the client raises."""

    def __init__(
        self,
        message: str,
        *,
        type: str,
        status: int,
        param: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
        request_id: Optional[str] = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.type = type
        """The service's stable error code (``invalid_key``, ``ungrounded`` …), or the client's own for status 0."""
        self.status = status
        """HTTP status; 0 when no response arrived (network failure, timeout)."""
        self.param = param
        """The request field at fault, as the wire names it, when one is."""
        self.headers: Dict[str, str] = {name.lower(): value for name, value in (headers or {}).items()}
        self.request_id = request_id
        """The service's ``x-request-id`` for the request (from the error body), to quote when reporting it."""


class InvalidRequestError(VerifiedError):
    """400 ``invalid_request``: the body is malformed, a field is missing or unknown, or a value is out of range."""


class NoSourcesError(InvalidRequestError):
    """400 ``no_sources``: ``sources`` is empty."""


class SourcesTooLargeError(InvalidRequestError):
    """400 ``sources_too_large``: the total source text is over the service's budget."""


class TooManyCasesError(InvalidRequestError):
    """400 ``too_many_cases``: more than 200 eval cases in one request; ``eval_all`` pages for you."""


class AuthenticationError(VerifiedError):
    """401 ``invalid_key``: the API key is missing or refused."""


class InsufficientQuotaError(VerifiedError):
    """402 ``insufficient_quota``: the gateway reports exhausted credits or quota."""


class NotFoundError(VerifiedError):
    """404 ``not_found``: no such path."""


class ModelNotFoundError(NotFoundError):
    """404 ``model_not_found``: the model is unknown, or no gateway is configured (use ``model="local"``)."""


class MethodNotAllowedError(VerifiedError):
    """405 ``method_not_allowed``."""


class RequestTimeoutError(VerifiedError):
    """408 ``request_timeout``: the request did not arrive within the service's request timeout."""


class PayloadTooLargeError(VerifiedError):
    """413 ``payload_too_large``: the request body is over the service's limit."""


class UnsupportedMediaTypeError(VerifiedError):
    """415 ``unsupported_media_type``."""


class UngroundedError(VerifiedError):
    """422 ``ungrounded``: no claim could be grounded; ``unsupported`` lists the claims that failed."""

    def __init__(
        self,
        message: str,
        *,
        unsupported: Optional[List[UnsupportedClaim]] = None,
        verification: Optional[VerificationReport] = None,
        **rest: Any,
    ) -> None:
        super().__init__(message, **rest)
        self.unsupported: List[UnsupportedClaim] = unsupported or []
        self.verification: Optional[VerificationReport] = verification
        """From ``chat.completions.create`` with ``action: "block"``: the report of the answer that failed."""


class RateLimitError(VerifiedError):
    """429 ``rate_limited``: ``retry_after`` is the service's ``Retry-After`` in seconds, when it sent one."""

    def __init__(self, message: str, *, retry_after: Optional[float] = None, **rest: Any) -> None:
        super().__init__(message, **rest)
        self.retry_after: Optional[float] = retry_after


class InternalServerError(VerifiedError):
    """5xx not otherwise classified (``internal_error``)."""


class ExtractionFailedError(VerifiedError):
    """502 ``extraction_failed``: the model's output was unusable after a re-ask."""


class GatewayError(VerifiedError):
    """502 ``gateway_error``: the model gateway failed."""


class ShuttingDownError(VerifiedError):
    """503 ``shutting_down``: the instance stopped before it finished; retrying reaches another."""


class GatewayTimeoutError(GatewayError):
    """504 ``gateway_timeout``: the model gateway did not answer in time."""


class InvalidResponseError(VerifiedError):
    """``invalid_response``: a 2xx answer the client cannot read: not UTF-8, not JSON, nested too deep, not the
    shape the API documents, or over ``max_response_bytes`` (a body, a streamed line or event). ``status`` is
    the response's."""


class RedirectError(VerifiedError):
    """``redirect``: the service answered 3xx. The client follows no redirect (it would carry the API key to
    wherever it points); ``location`` is where it pointed. Set ``base_url`` to the service's own address."""

    def __init__(self, message: str, *, location: Optional[str] = None, **rest: Any) -> None:
        super().__init__(message, **rest)
        self.location: Optional[str] = location


class APIConnectionError(VerifiedError):
    """Status 0, ``connection_error``: no response arrived (refused, reset, DNS …)."""


class APITimeoutError(APIConnectionError):
    """Status 0, ``timeout``: an attempt took longer than the client's ``timeout``."""


_CLASS_BY_TYPE: Dict[str, Type[VerifiedError]] = {
    "invalid_request": InvalidRequestError,
    "no_sources": NoSourcesError,
    "sources_too_large": SourcesTooLargeError,
    "too_many_cases": TooManyCasesError,
    "invalid_key": AuthenticationError,
    "insufficient_quota": InsufficientQuotaError,
    "model_not_found": ModelNotFoundError,
    "not_found": NotFoundError,
    "method_not_allowed": MethodNotAllowedError,
    "request_timeout": RequestTimeoutError,
    "payload_too_large": PayloadTooLargeError,
    "unsupported_media_type": UnsupportedMediaTypeError,
    "ungrounded": UngroundedError,
    "rate_limited": RateLimitError,
    "internal_error": InternalServerError,
    "extraction_failed": ExtractionFailedError,
    "gateway_error": GatewayError,
    "shutting_down": ShuttingDownError,
    "gateway_timeout": GatewayTimeoutError,
}

_TYPE_BY_STATUS = {
    400: "invalid_request",
    401: "invalid_key",
    403: "invalid_key",
    402: "insufficient_quota",
    404: "not_found",
    405: "method_not_allowed",
    408: "request_timeout",
    413: "payload_too_large",
    415: "unsupported_media_type",
    422: "ungrounded",
    429: "rate_limited",
    502: "gateway_error",
    504: "gateway_timeout",
}


def error_from_response(
    status: int, headers: Mapping[str, str], body_text: str, now: Optional[float] = None
) -> VerifiedError:
    """The one mapping from an HTTP error response to a typed error: by the body's ``error.type`` when known,
    else by status, else the base ``VerifiedError``."""
    body = _error_body(body_text)
    fallback = _TYPE_BY_STATUS.get(status, "internal_error" if status >= 500 else None)
    error_type = body.get("type") or fallback or "unknown_error"
    cls = _CLASS_BY_TYPE.get(error_type) or (_CLASS_BY_TYPE.get(fallback) if fallback else None) or VerifiedError
    lowered = {name.lower(): value for name, value in headers.items()}
    message = _capped(body.get("message") or _describe_bare(status, body_text))
    common: Dict[str, Any] = {
        "type": error_type,
        "status": status,
        "param": body.get("param"),
        "headers": lowered,
        "request_id": body.get("request_id"),
    }
    if issubclass(cls, UngroundedError):
        return cls(
            message,
            unsupported=_readable_unsupported(body.get("unsupported") or []),
            verification=_readable_verification(body.get("verification")),
            **common,
        )
    if issubclass(cls, RateLimitError):
        return cls(message, retry_after=parse_retry_after(lowered.get("retry-after"), now), **common)
    return cls(message, **common)


def parse_retry_after(value: Optional[str], now: Optional[float] = None) -> Optional[float]:
    """``Retry-After`` as seconds: delta-seconds or an HTTP date; None when absent or unreadable."""
    if value is None or value.strip() == "":
        return None
    text = value.strip()
    if re.fullmatch(r"\d+(\.\d+)?", text):
        return float(text)
    try:
        date = email.utils.parsedate_to_datetime(text)
    except (TypeError, ValueError):
        return None
    seconds = date.timestamp() - (time.time() if now is None else now)
    return float(max(0, int(-(-seconds // 1))))


def _error_body(text: str) -> Dict[str, Any]:
    """``{"error": {...}}`` read leniently: whatever fields have the right type are used."""
    try:
        parsed = json.loads(text)
    except (ValueError, RecursionError):
        return {}
    error = parsed.get("error") if isinstance(parsed, dict) else None
    if not isinstance(error, dict):
        return {}
    body: Dict[str, Any] = {}
    kind = error.get("type") if isinstance(error.get("type"), str) else error.get("code")
    if isinstance(kind, str):
        body["type"] = kind
    for name in ("message", "param", "request_id"):
        if isinstance(error.get(name), str):
            body[name] = error[name]
    if isinstance(error.get("unsupported"), list):
        body["unsupported"] = error["unsupported"]
    if isinstance(error.get("verification"), dict):
        body["verification"] = error["verification"]
    return body


def _readable_unsupported(items: List[Any]) -> List[UnsupportedClaim]:
    """The error body's unsupported claims that have the documented shape; a malformed one is left out."""
    readable: List[UnsupportedClaim] = []
    for index, item in enumerate(items):
        try:
            readable.append(read(UnsupportedClaim, item, f"error.unsupported[{index}]"))
        except ResponseShapeError:
            continue
    return readable


def _readable_verification(value: Any) -> Optional[VerificationReport]:
    """The error body's verification report when it has the documented shape, else None."""
    if not isinstance(value, dict):
        return None
    try:
        return read(VerificationReport, value, "error.verification")
    except ResponseShapeError:
        return None


def _capped(message: str) -> str:
    return message if len(message) <= MAX_ERROR_MESSAGE_CHARS else message[:MAX_ERROR_MESSAGE_CHARS] + "…"


def _describe_bare(status: int, body_text: str) -> str:
    excerpt = body_text.strip()[:200]
    if excerpt == "":
        return f"The service answered HTTP {status} with no error body."
    return f"The service answered HTTP {status} without a JSON error body: {excerpt}"
