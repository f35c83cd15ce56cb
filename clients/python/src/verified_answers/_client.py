"""``Verified``: the Python client of the verified service."""

from __future__ import annotations

import dataclasses
import json
import math
import os
import threading
import time
from typing import Any, Callable, Dict, Iterator, List, Mapping, Optional, Sequence, Union

from ._chat import Chat
from ._errors import VerifiedError, error_from_response
from ._transport import (
    DEFAULT_MAX_RESPONSE_BYTES,
    BodyTooLarge,
    BoundedReader,
    Opener,
    Response,
    Transport,
    default_opener,
)
from ._types import (
    AnswerFormat,
    CandidateClaim,
    CheckNumbers,
    CheckResult,
    CreateResult,
    DoneEvent,
    EvalAggregate,
    EvalCaseResult,
    EvalResult,
    CallUsage,
    ExtractResult,
    MatchMode,
    Message,
    ModelList,
    OffsetUnit,
    PartialPolicy,
    Source,
    StreamEvent,
    ResponseShapeError,
    read,
    read_stream_event,
)

DEFAULT_BASE_URL = "http://127.0.0.1:8787"
"""Where the service listens unless ``base_url`` or ``VERIFIED_BASE_URL`` says otherwise."""
DEFAULT_TIMEOUT = 60.0
"""Seconds a call may take in all: its attempts, backoff waits and reads (a stream's too)."""
DEFAULT_MAX_RETRIES = 2
DEFAULT_OFFSETS: OffsetUnit = "codepoint"
"""Ranges in code points, so that ``text[start:end]`` is the quote in Python."""
EVAL_PAGE_SIZE = 200
"""Cases per eval request: the service's limit (``MAX_EVAL_CASES``)."""
MAX_EVAL_CASE_ID_LENGTH = 256
"""The longest string an eval case ``id`` may be (``MAX_EVAL_CASE_ID_LENGTH``)."""
DEFAULT_EVAL_CONCURRENCY = 2
"""Pages in flight at once in ``eval_all`` unless ``concurrency`` says otherwise."""

SourceLike = Union[Source, Mapping[str, Any]]
MessageLike = Union[Message, Mapping[str, Any]]
ClaimLike = Union[CandidateClaim, Mapping[str, Any]]


@dataclasses.dataclass(frozen=True)
class EvalCase:
    """One eval case: a conversation and its sources; ``id`` (1 to 256 characters, or a number) labels its result.
    ``expected``: an acceptable answer, or a list of 1 to 20; the case's result then says whether one of them
    occurs in a grounded claim (``correct``, ``match``)."""

    messages: Sequence[MessageLike]
    sources: Sequence[SourceLike]
    id: Optional[Union[str, int, float]] = None
    expected: Optional[Union[str, Sequence[str]]] = None


EvalCaseLike = Union[EvalCase, Mapping[str, Any]]


class Verified:
    """The client of the verified service: grounded answers, extraction, evaluation and claim checks."""

    def __init__(
        self,
        base_url: Optional[str] = None,
        api_key: Optional[str] = None,
        *,
        timeout: float = DEFAULT_TIMEOUT,
        max_retries: int = DEFAULT_MAX_RETRIES,
        offsets: OffsetUnit = DEFAULT_OFFSETS,
        max_response_bytes: int = DEFAULT_MAX_RESPONSE_BYTES,
        opener: Opener = default_opener,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """``base_url`` defaults to ``VERIFIED_BASE_URL``, else ``http://127.0.0.1:8787``; ``api_key`` to
        ``VERIFIED_API_KEY`` (sent as a bearer token). ``offsets`` is the unit of every range unless a call
        says otherwise. ``timeout`` bounds each call as a whole (attempts, waits and reads);
        ``max_response_bytes`` each body, streamed line and streamed event read. ``opener``, ``sleep`` and
        ``clock`` are for tests."""
        url = base_url or _environment("VERIFIED_BASE_URL") or DEFAULT_BASE_URL
        self.base_url = url.rstrip("/")
        self.offsets: OffsetUnit = offsets
        self._transport = Transport(
            base_url=self.base_url,
            api_key=api_key if api_key is not None else _environment("VERIFIED_API_KEY"),
            timeout=timeout,
            opener=opener,
            max_retries=max_retries,
            sleep=sleep,
            clock=clock,
            max_response_bytes=max_response_bytes,
        )
        self.chat = Chat(self._transport)
        """``chat.completions.create``: the OpenAI Chat Completions wire, verified on request."""

    def create(
        self,
        *,
        model: str,
        messages: Sequence[MessageLike],
        sources: Sequence[SourceLike],
        mode: Optional[MatchMode] = None,
        min_coverage: Optional[float] = None,
        retry: Optional[int] = None,
        check_numbers: Optional[CheckNumbers] = None,
        explain: Optional[bool] = None,
        allow_ungrounded: Optional[bool] = None,
        temperature: Optional[float] = None,
        max_tokens: Optional[int] = None,
        offsets: Optional[OffsetUnit] = None,
        answer_format: Optional[AnswerFormat] = None,
        partial: Optional[PartialPolicy] = None,
    ) -> CreateResult:
        """An answer whose every claim is checked against ``sources`` (``POST /v1/verified``)."""
        body = self._create_body(locals())
        return self._transport.post_json("/v1/verified", body, lambda data: read(CreateResult, data))

    def stream(
        self,
        *,
        model: str,
        messages: Sequence[MessageLike],
        sources: Sequence[SourceLike],
        mode: Optional[MatchMode] = None,
        min_coverage: Optional[float] = None,
        retry: Optional[int] = None,
        check_numbers: Optional[CheckNumbers] = None,
        explain: Optional[bool] = None,
        allow_ungrounded: Optional[bool] = None,
        temperature: Optional[float] = None,
        max_tokens: Optional[int] = None,
        offsets: Optional[OffsetUnit] = None,
        answer_format: Optional[AnswerFormat] = None,
        partial: Optional[PartialPolicy] = None,
    ) -> CreateStream:
        """``create``, streamed: iterate for ``ClaimEvent``, ``UnsupportedEvent``, ``AttemptEvent`` and last
        ``DoneEvent``; an ``error`` event is raised as its typed error. Retries happen only before it opens."""
        body = self._create_body(locals())
        body["stream"] = True
        deadline = self._transport.deadline()
        response = self._transport.with_retries(
            lambda: self._transport.open("/v1/verified", body, deadline, accept="text/event-stream"), deadline
        )
        return CreateStream(response, self._transport, deadline)

    def extract(
        self,
        *,
        model: str,
        sources: Sequence[SourceLike],
        schema: Mapping[str, str],
        mode: Optional[MatchMode] = None,
        offsets: Optional[OffsetUnit] = None,
    ) -> ExtractResult:
        """Each field of ``schema`` as a verbatim substring of a source, or None (``POST /v1/verified/extract``)."""
        body = _body(
            model=model,
            sources=_plain(sources),
            schema=dict(schema),
            mode=mode,
            offsets=offsets or self.offsets,
        )
        return self._transport.post_json("/v1/verified/extract", body, lambda data: read(ExtractResult, data))

    def eval(
        self,
        *,
        model: str,
        cases: Sequence[EvalCaseLike],
        mode: Optional[MatchMode] = None,
        check_numbers: Optional[CheckNumbers] = None,
        retry: Optional[int] = None,
        min_coverage: Optional[float] = None,
        details: Optional[bool] = None,
        offsets: Optional[OffsetUnit] = None,
        answer_format: Optional[AnswerFormat] = None,
        partial: Optional[PartialPolicy] = None,
        explain: Optional[bool] = None,
    ) -> EvalResult:
        """Scores up to 200 cases in one request (``POST /v1/verified/eval``); ``eval_all`` takes any number."""
        body = _body(
            model=model,
            cases=_plain(cases),
            mode=mode,
            check_numbers=check_numbers,
            retry=retry,
            min_coverage=min_coverage,
            details=details,
            offsets=offsets or self.offsets,
            answer_format=answer_format,
            partial=partial,
            explain=explain,
        )
        return self._transport.post_json("/v1/verified/eval", body, lambda data: read(EvalResult, data))

    def eval_all(
        self,
        *,
        model: str,
        cases: Sequence[EvalCaseLike],
        concurrency: int = DEFAULT_EVAL_CONCURRENCY,
        on_progress: Optional[Callable[[int, int], None]] = None,
        mode: Optional[MatchMode] = None,
        check_numbers: Optional[CheckNumbers] = None,
        retry: Optional[int] = None,
        min_coverage: Optional[float] = None,
        details: Optional[bool] = None,
        offsets: Optional[OffsetUnit] = None,
        answer_format: Optional[AnswerFormat] = None,
        partial: Optional[PartialPolicy] = None,
        explain: Optional[bool] = None,
    ) -> EvalResult:
        """Scores a dataset of any size: pages of 200, at most ``concurrency`` in flight, merged exactly as one
        request would have been. Each case's ``id`` stays here and labels its result. The first page that
        fails (after retries) stops the pages not yet sent and is raised. ``on_progress(done, total)`` is
        called as pages finish."""
        if not isinstance(concurrency, int) or concurrency < 1:
            raise ValueError(f'"concurrency" must be a whole number of at least 1; got {concurrency!r}.')
        plain_cases: List[Dict[str, Any]] = _plain(cases)
        ids: List[Optional[str]] = []
        for index, case in enumerate(plain_cases):
            case_id = case.pop("id", None)
            if case_id is not None:
                problem = eval_case_id_problem(case_id)
                if problem is not None:
                    raise ValueError(f'"cases[{index}].id" {problem}.')
            ids.append(None if case_id is None else _id_text(case_id))
        starts = list(range(0, len(plain_cases), EVAL_PAGE_SIZE))
        pages: List[Optional[EvalResult]] = [None] * len(starts)
        lock = threading.Lock()
        state: Dict[str, Any] = {"next": 0, "done": 0, "failure": None}

        def worker() -> None:
            while True:
                with lock:
                    if state["failure"] is not None or state["next"] >= len(starts):
                        return
                    page = state["next"]
                    state["next"] += 1
                page_cases = plain_cases[starts[page] : starts[page] + EVAL_PAGE_SIZE]
                try:
                    result = self.eval(
                        model=model,
                        cases=page_cases,
                        mode=mode,
                        check_numbers=check_numbers,
                        retry=retry,
                        min_coverage=min_coverage,
                        details=details,
                        offsets=offsets,
                        answer_format=answer_format,
                        partial=partial,
                        explain=explain,
                    )
                    if len(result.cases) != len(page_cases):
                        raise VerifiedError(
                            f"An eval page of {len(page_cases)} cases came back with {len(result.cases)} results.",
                            type="invalid_response",
                            status=200,
                        )
                except BaseException as error:
                    with lock:
                        if state["failure"] is None:
                            state["failure"] = error
                    return
                with lock:
                    pages[page] = result
                    state["done"] += len(page_cases)
                    done = state["done"]
                if on_progress is not None:
                    on_progress(done, len(plain_cases))

        threads = [threading.Thread(target=worker, daemon=True) for _ in range(min(concurrency, len(starts)))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        if state["failure"] is not None:
            raise state["failure"]
        merged = merge_eval_results([page for page in pages if page is not None])
        return dataclasses.replace(
            merged,
            cases=[
                case if ids[index] is None else dataclasses.replace(case, id=ids[index])
                for index, case in enumerate(merged.cases)
            ],
        )

    def check(
        self,
        *,
        sources: Sequence[SourceLike],
        claims: Optional[Sequence[ClaimLike]] = None,
        answer: Optional[str] = None,
        messages: Optional[Sequence[MessageLike]] = None,
        mode: Optional[MatchMode] = None,
        check_numbers: Optional[CheckNumbers] = None,
        explain: Optional[bool] = None,
        offsets: Optional[OffsetUnit] = None,
        partial: Optional[PartialPolicy] = None,
    ) -> CheckResult:
        """Checks claims you already have (``claims=``), or an answer's text (``answer=``, with the
        ``messages=`` that led to it), against ``sources`` with no model (``POST /v1/verified/check``)."""
        if (claims is None) == (answer is None):
            raise ValueError("check() takes either claims= or answer=, exactly one of them.")
        body = _body(
            sources=_plain(sources),
            claims=None if claims is None else _plain(claims),
            answer=answer,
            messages=None if messages is None else _plain(messages),
            mode=mode,
            check_numbers=check_numbers,
            explain=explain,
            offsets=offsets or self.offsets,
            partial=partial,
        )
        return self._transport.post_json("/v1/verified/check", body, lambda data: read(CheckResult, data))

    def list_models(self) -> ModelList:
        """The model ids and patterns the service accepts, and the gateway each goes to (``GET /v1/models``)."""
        return self._transport.post_json("/v1/models", None, lambda data: read(ModelList, data))

    def _create_body(self, arguments: Dict[str, Any]) -> Dict[str, Any]:
        fields = {name: value for name, value in arguments.items() if name != "self"}
        fields["messages"] = _plain(fields["messages"])
        fields["sources"] = _plain(fields["sources"])
        fields["offsets"] = fields["offsets"] or self.offsets
        return _body(**fields)


class CreateStream:
    """A streamed create being read: iterate it (once) for its events; ``result`` holds the ``done`` result
    afterwards. ``close()`` (or leaving a ``with`` block) drops the connection, which stops the model call.
    The call's ``timeout`` covers the whole stream; each line and each event is at most ``max_response_bytes``."""

    def __init__(self, response: Response, transport: Transport, deadline: float) -> None:
        self._response = response
        self._transport = transport
        self._reader = BoundedReader(response, deadline, transport.clock)
        self.result: Optional[CreateResult] = None

    def __enter__(self) -> CreateStream:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Stops reading and closes the connection."""
        self._response.close()

    def __iter__(self) -> Iterator[StreamEvent]:
        path = "/v1/verified"
        status = self._response.status
        try:
            content_type = str(self._response.headers.get("content-type") or "")
            if content_type.startswith("application/json"):
                # A service that answered plain JSON: its result is the stream's one `done`.
                raw = self._read(lambda: self._reader.read_all(self._transport.max_response_bytes))
                result = self._transport.read_json(path, status, raw, lambda data: read(CreateResult, data))
                self.result = result
                yield DoneEvent(result=result)
                return
            for name, data in self._events():
                if name == "error":
                    error = data.get("error", {}) if isinstance(data, dict) else {}
                    error_type = error.get("type") if isinstance(error, dict) else None
                    raise error_from_response(_status_of(error_type), {}, json.dumps(data))
                try:
                    parsed = read_stream_event(name, data)
                except ResponseShapeError as problem:
                    raise self._transport.invalid(path, status, f"a {name} event not in the documented shape: {problem}") from None
                if parsed is None:
                    continue
                if isinstance(parsed, DoneEvent):
                    self.result = parsed.result
                yield parsed
        finally:
            self.close()
        if self.result is None:
            raise VerifiedError("The stream ended before its done event.", type="connection_error", status=0)

    def _read(self, read: Callable[[], bytes]) -> bytes:
        """One bounded read of the stream, its failures typed."""
        try:
            return read()
        except BodyTooLarge:
            raise self._transport.invalid(
                "/v1/verified", self._response.status, f"a line over {self._transport.max_response_bytes} bytes"
            ) from None
        except Exception as error:
            raise self._transport.no_response("POST", "/v1/verified", error) from error

    def _events(self) -> Iterator[tuple[str, Any]]:
        """Server-sent events: ``event:`` and ``data:`` lines up to a blank line; ``:`` lines are heartbeats. An
        event's data lines together are at most ``max_response_bytes``."""
        limit = self._transport.max_response_bytes
        status = self._response.status
        name = "message"
        data: List[str] = []
        size = 0
        while True:
            raw = self._read(lambda: self._reader.read_line(limit))
            if raw == b"":
                return
            try:
                line = raw.decode("utf-8").rstrip("\r\n")
            except UnicodeDecodeError:
                raise self._transport.invalid("/v1/verified", status, "a streamed line that is not UTF-8") from None
            if line == "":
                if data:
                    yield name, self._parse("\n".join(data))
                name, data, size = "message", [], 0
            elif line.startswith(":"):
                continue
            elif line.startswith("event:"):
                name = line[6:].strip()
            elif line.startswith("data:"):
                size += len(raw)
                if size > limit:
                    raise self._transport.invalid("/v1/verified", status, f"an event over {limit} bytes")
                data.append(line[5:].lstrip(" "))

    def _parse(self, text: str) -> Any:
        try:
            return json.loads(text)
        except RecursionError:
            raise self._transport.invalid("/v1/verified", self._response.status, "an event nested too deep") from None
        except ValueError:
            raise self._transport.invalid("/v1/verified", self._response.status, "an event that is not JSON") from None


def eval_case_id_problem(case_id: object) -> Optional[str]:
    """Why ``case_id`` cannot name an eval case, or None: a string of 1 to 256 characters, or a finite number."""
    if isinstance(case_id, bool) or not isinstance(case_id, (str, int, float)):
        return "must be a string or a number"
    if isinstance(case_id, (int, float)):
        return None if math.isfinite(case_id) else "must be a finite number"
    if case_id == "":
        return "must not be empty"
    if len(case_id) > MAX_EVAL_CASE_ID_LENGTH:
        return f"is {len(case_id)} characters long; the limit is {MAX_EVAL_CASE_ID_LENGTH}"
    return None


def merge_eval_results(results: Sequence[EvalResult]) -> EvalResult:
    """Eval results merged as if they had been one request: ``coverage_mean`` over every scored case (not a
    mean of page means), ``unsupported_rate`` as total unsupported over total claims, ``correct_rate`` as correct
    cases over the scored cases that carry ``expected`` (None when none does), counts and usage summed."""
    cases: List[EvalCaseResult] = [case for result in results for case in result.cases]
    scored = [case for case in cases if case.error is None]
    claims = sum((case.citations or 0) + (case.unsupported or 0) for case in scored)
    unsupported = sum(case.unsupported or 0 for case in scored)
    judged = [case for case in scored if case.correct is not None]
    return EvalResult(
        aggregate=EvalAggregate(
            coverage_mean=sum(case.coverage or 0 for case in scored) / len(scored) if scored else 0,
            unsupported_rate=unsupported / claims if claims else 0,
            n=len(cases),
            errored=len(cases) - len(scored),
            correct_rate=sum(1 for case in judged if case.correct) / len(judged) if judged else None,
        ),
        cases=cases,
        usage=CallUsage(
            total_tokens=sum(result.usage.total_tokens for result in results),
            model_calls=sum(result.usage.model_calls for result in results),
        ),
    )


_STATUS_BY_TYPE = {
    "invalid_request": 400,
    "no_sources": 400,
    "sources_too_large": 400,
    "too_many_cases": 400,
    "invalid_key": 401,
    "insufficient_quota": 402,
    "model_not_found": 404,
    "not_found": 404,
    "method_not_allowed": 405,
    "request_timeout": 408,
    "payload_too_large": 413,
    "unsupported_media_type": 415,
    "ungrounded": 422,
    "rate_limited": 429,
    "internal_error": 500,
    "extraction_failed": 502,
    "gateway_error": 502,
    "shutting_down": 503,
    "gateway_timeout": 504,
}
"""Each error type's HTTP status (the service's error registry), for ``error`` events, which carry none."""


def _status_of(error_type: object) -> int:
    """The HTTP status an error type would have had, for an ``error`` event (which has none of its own)."""
    return _STATUS_BY_TYPE.get(error_type, 500) if isinstance(error_type, str) else 500


def _id_text(case_id: Union[str, int, float]) -> str:
    """A case id as the service echoes it: numbers the way JavaScript writes them (``1``, not ``1.0``)."""
    if isinstance(case_id, float) and case_id.is_integer():
        return str(int(case_id))
    return str(case_id)


def _body(**fields: Any) -> Dict[str, Any]:
    """A request body: the fields that were given (None means "not sent")."""
    return {name: value for name, value in fields.items() if value is not None}


def _plain(value: Any) -> Any:
    """Dataclasses and mappings as plain JSON values; a dataclass field that is None is left out."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {
            item.name: _plain(getattr(value, item.name))
            for item in dataclasses.fields(value)
            if getattr(value, item.name) is not None
        }
    if isinstance(value, Mapping):
        return {str(name): _plain(item) for name, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    return value


def _environment(name: str) -> Optional[str]:
    value = os.environ.get(name, "").strip()
    return value or None
