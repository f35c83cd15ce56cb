"""Typed errors, mirroring the TypeScript client: one class per error ``type``, one status-to-class function."""

from __future__ import annotations

import email.utils
import json
import re
import time
from typing import Any, Dict, List, Mapping, Optional, Type

from ._types import UnsupportedClaim, VerificationReport, read_unsupported, read_verification_report


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
    message = body.get("message") or _describe_bare(status, body_text)
    common: Dict[str, Any] = {"type": error_type, "status": status, "param": body.get("param"), "headers": lowered}
    if issubclass(cls, UngroundedError):
        verification = body.get("verification")
        return cls(
            message,
            unsupported=[read_unsupported(item) for item in body.get("unsupported") or []],
            verification=read_verification_report(verification) if isinstance(verification, dict) else None,
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
    except ValueError:
        return {}
    error = parsed.get("error") if isinstance(parsed, dict) else None
    if not isinstance(error, dict):
        return {}
    body: Dict[str, Any] = {}
    kind = error.get("type") if isinstance(error.get("type"), str) else error.get("code")
    if isinstance(kind, str):
        body["type"] = kind
    for name in ("message", "param"):
        if isinstance(error.get(name), str):
            body[name] = error[name]
    if isinstance(error.get("unsupported"), list):
        body["unsupported"] = error["unsupported"]
    if isinstance(error.get("verification"), dict):
        body["verification"] = error["verification"]
    return body


def _describe_bare(status: int, body_text: str) -> str:
    excerpt = body_text.strip()[:200]
    if excerpt == "":
        return f"The service answered HTTP {status} with no error body."
    return f"The service answered HTTP {status} without a JSON error body: {excerpt}"
