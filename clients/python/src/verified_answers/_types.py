"""Results of the verified service as dataclasses, read from the wire's snake_case JSON.

Readers ignore fields they do not know, so a newer service with more fields still reads.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Literal, Mapping, Optional, Tuple, Union

OffsetUnit = Literal["utf16", "codepoint", "utf8"]
"""The unit of every ``range``: UTF-16 code units, code points (Python's ``str`` index) or UTF-8 bytes."""

MatchMode = Literal["strict", "lenient"]
CheckNumbers = Union[bool, Literal["source", "row", "quote"]]
PartialPolicy = Literal["keep", "drop"]
Range = Tuple[int, int]
"""``[start, end)`` into a source's original text, in the request's ``offsets`` unit."""

JsonObject = Dict[str, Any]


@dataclass(frozen=True)
class Source:
    """A caller-supplied source chunk; ``id`` comes back in citations as ``source``."""

    id: str
    text: str


@dataclass(frozen=True)
class Message:
    """One conversation message."""

    role: Literal["system", "user", "assistant"]
    content: str


@dataclass(frozen=True)
class CandidateClaim:
    """A claim you already have, for ``check``: its quote and the source it quotes."""

    quote: str
    source: str
    claim: Optional[str] = None


@dataclass(frozen=True)
class Citation:
    """A grounded claim: ``text[range[0]:range[1]] == quote`` in the cited source (code points by default)."""

    claim: str
    quote: str
    source: str
    range: Range
    answer_range: Optional[Range] = None
    """In answer mode: where the claim sits in the answer."""


@dataclass(frozen=True)
class NumberMiss:
    """Why a number check dropped a claim: the failing number and what it was checked against."""

    number: str
    checked: str
    cells: Optional[List[Dict[str, str]]] = None
    text: Optional[str] = None


@dataclass(frozen=True)
class UnsupportedClaim:
    """A claim that could not be grounded, with the reason."""

    claim: str
    reason: str
    detail: Optional[NumberMiss] = None
    answer_range: Optional[Range] = None
    """In answer mode: where the claim sits in the answer."""


@dataclass(frozen=True)
class Usage:
    """Token and call counts of a create or extract request."""

    prompt_tokens: int
    completion_tokens: int
    total_tokens: int
    model_calls: int


@dataclass(frozen=True)
class CallUsage:
    """Token and call counts of an eval or check request."""

    total_tokens: int
    model_calls: int


@dataclass(frozen=True)
class CreateResult:
    """Result of ``create``."""

    id: str
    model: str
    text: str
    citations: List[Citation]
    unsupported: List[UnsupportedClaim]
    coverage: float
    abstained: bool
    grounded: bool
    usage: Usage


@dataclass(frozen=True)
class ExtractField:
    """One extracted field: a verbatim substring of a source (``grounded``), or ``value`` None."""

    value: Optional[str]
    grounded: bool
    source: Optional[str] = None
    range: Optional[Range] = None
    reason: Optional[str] = None


@dataclass(frozen=True)
class ExtractResult:
    """Result of ``extract``."""

    id: str
    model: str
    fields: Dict[str, ExtractField]
    coverage: float
    usage: Usage


@dataclass(frozen=True)
class CaseError:
    """Why an eval case failed."""

    type: str
    code: str
    message: str


@dataclass(frozen=True)
class EvalCaseDetails:
    """A scored case's create-style result (``details=True``)."""

    text: str
    citations: List[Citation]
    unsupported: List[UnsupportedClaim]
    coverage: float
    abstained: bool
    grounded: bool
    usage: Usage


@dataclass(frozen=True)
class EvalCaseResult:
    """One case: scored (``coverage``, counts) or failed (``error``)."""

    id: Optional[str] = None
    coverage: Optional[float] = None
    citations: Optional[int] = None
    unsupported: Optional[int] = None
    result: Optional[EvalCaseDetails] = None
    error: Optional[CaseError] = None
    # With details=True, instead of ``result``: "details_budget" when the result was longer than its share.
    result_omitted: Optional[str] = None


@dataclass(frozen=True)
class EvalAggregate:
    """Mean coverage and unsupported rate over the scored cases; ``n`` counts every case."""

    coverage_mean: float
    unsupported_rate: float
    n: int
    errored: int


@dataclass(frozen=True)
class EvalResult:
    """Result of ``eval`` and ``eval_all``."""

    aggregate: EvalAggregate
    cases: List[EvalCaseResult]
    usage: CallUsage


@dataclass(frozen=True)
class PartialTerm:
    """In answer mode: a word of a kept, partially supported claim that none of its spans holds."""

    claim: str
    term: str
    answer_range: Range


@dataclass(frozen=True)
class CheckResult:
    """Result of ``check``; no model is called, so usage is zero."""

    text: str
    citations: List[Citation]
    unsupported: List[UnsupportedClaim]
    coverage: float
    usage: CallUsage
    partial: List[PartialTerm] = field(default_factory=list)
    """In answer mode: the words of kept claims that their spans lack, each with its place in the answer."""


@dataclass(frozen=True)
class ModelListEntry:
    """A model id, a prefix pattern (``ollama/*``) or ``*``, and the gateway it goes to (None: local)."""

    id: str
    match: str
    gateway: Optional[str]


@dataclass(frozen=True)
class ModelList:
    """``GET /v1/models``."""

    models: List[ModelListEntry] = field(default_factory=list)


@dataclass(frozen=True)
class ClaimEvent:
    """A streamed claim that passed the check."""

    citation: Citation


@dataclass(frozen=True)
class UnsupportedEvent:
    """A streamed claim that failed the check."""

    unsupported: UnsupportedClaim


@dataclass(frozen=True)
class AttemptEvent:
    """Model call ``attempt`` (2, 3, …) starts; the events before it came from an earlier call."""

    attempt: int


@dataclass(frozen=True)
class DoneEvent:
    """The result, the same as ``create`` returns; always the last event."""

    result: CreateResult


StreamEvent = Union[ClaimEvent, UnsupportedEvent, AttemptEvent, DoneEvent]


def _range(value: Any) -> Range:
    return (int(value[0]), int(value[1]))


def _optional_range(value: Any) -> Optional[Range]:
    return None if value is None else _range(value)


def read_citation(data: Mapping[str, Any]) -> Citation:
    return Citation(
        claim=data["claim"],
        quote=data["quote"],
        source=data["source"],
        range=_range(data["range"]),
        answer_range=_optional_range(data.get("answer_range")),
    )


def read_unsupported(data: Mapping[str, Any]) -> UnsupportedClaim:
    detail = data.get("detail")
    return UnsupportedClaim(
        claim=data["claim"],
        reason=data["reason"],
        detail=None
        if detail is None
        else NumberMiss(
            number=detail["number"], checked=detail["checked"], cells=detail.get("cells"), text=detail.get("text")
        ),
        answer_range=_optional_range(data.get("answer_range")),
    )


def read_usage(data: Mapping[str, Any]) -> Usage:
    return Usage(
        prompt_tokens=data["prompt_tokens"],
        completion_tokens=data["completion_tokens"],
        total_tokens=data["total_tokens"],
        model_calls=data["model_calls"],
    )


def read_call_usage(data: Mapping[str, Any]) -> CallUsage:
    return CallUsage(total_tokens=data["total_tokens"], model_calls=data["model_calls"])


def read_create_result(data: Mapping[str, Any]) -> CreateResult:
    return CreateResult(
        id=data["id"],
        model=data["model"],
        text=data["text"],
        citations=[read_citation(item) for item in data["citations"]],
        unsupported=[read_unsupported(item) for item in data["unsupported"]],
        coverage=data["coverage"],
        abstained=data["abstained"],
        grounded=data["grounded"],
        usage=read_usage(data["usage"]),
    )


def read_extract_result(data: Mapping[str, Any]) -> ExtractResult:
    return ExtractResult(
        id=data["id"],
        model=data["model"],
        fields={
            name: ExtractField(
                value=item.get("value"),
                grounded=item["grounded"],
                source=item.get("source"),
                range=_optional_range(item.get("range")),
                reason=item.get("reason"),
            )
            for name, item in data["fields"].items()
        },
        coverage=data["coverage"],
        usage=read_usage(data["usage"]),
    )


def read_case(data: Mapping[str, Any]) -> EvalCaseResult:
    error = data.get("error")
    details = data.get("result")
    return EvalCaseResult(
        id=data.get("id"),
        coverage=data.get("coverage"),
        citations=data.get("citations"),
        unsupported=data.get("unsupported"),
        result=None
        if details is None
        else EvalCaseDetails(
            text=details["text"],
            citations=[read_citation(item) for item in details["citations"]],
            unsupported=[read_unsupported(item) for item in details["unsupported"]],
            coverage=details["coverage"],
            abstained=details["abstained"],
            grounded=details["grounded"],
            usage=read_usage(details["usage"]),
        ),
        error=None if error is None else CaseError(type=error["type"], code=error["code"], message=error["message"]),
        result_omitted=data.get("result_omitted"),
    )


def read_eval_result(data: Mapping[str, Any]) -> EvalResult:
    aggregate = data["aggregate"]
    return EvalResult(
        aggregate=EvalAggregate(
            coverage_mean=aggregate["coverage_mean"],
            unsupported_rate=aggregate["unsupported_rate"],
            n=aggregate["n"],
            errored=aggregate["errored"],
        ),
        cases=[read_case(item) for item in data["cases"]],
        usage=read_call_usage(data["usage"]),
    )


def read_check_result(data: Mapping[str, Any]) -> CheckResult:
    return CheckResult(
        text=data["text"],
        citations=[read_citation(item) for item in data["citations"]],
        unsupported=[read_unsupported(item) for item in data["unsupported"]],
        coverage=data["coverage"],
        usage=read_call_usage(data["usage"]),
        partial=[
            PartialTerm(claim=item["claim"], term=item["term"], answer_range=(item["answer_range"][0], item["answer_range"][1]))
            for item in data.get("partial") or []
        ],
    )


def read_model_list(data: Mapping[str, Any]) -> ModelList:
    return ModelList(
        models=[ModelListEntry(id=item["id"], match=item["match"], gateway=item["gateway"]) for item in data["models"]]
    )


def read_stream_event(name: str, data: Any) -> Optional[StreamEvent]:
    """One streamed create event; None for an event this client does not know (newer services may add some)."""
    if name == "claim":
        return ClaimEvent(citation=read_citation(data))
    if name == "unsupported":
        return UnsupportedEvent(unsupported=read_unsupported(data))
    if name == "attempt":
        return AttemptEvent(attempt=data["attempt"])
    if name == "done":
        return DoneEvent(result=read_create_result(data))
    return None


@dataclass(frozen=True)
class VerificationReport:
    """The check of the first choice's answer: ``verdict`` ``pass`` or ``fail``; ``text`` without the
    unsupported sentences; ranges in the request's ``offsets`` (code points unless asked otherwise)."""

    verdict: str
    action: str
    sources_from: str
    text: str
    citations: List[Citation]
    unsupported: List[UnsupportedClaim]
    coverage: float
    abstained: bool
    partial: List[PartialTerm] = field(default_factory=list)
    """Each word of a kept, partially supported claim that none of its spans holds."""


def read_verification_report(data: Mapping[str, Any]) -> VerificationReport:
    return VerificationReport(
        verdict=data["verdict"],
        action=data["action"],
        sources_from=data["sources_from"],
        text=data["text"],
        citations=[read_citation(item) for item in data["citations"]],
        unsupported=[read_unsupported(item) for item in data["unsupported"]],
        coverage=data["coverage"],
        abstained=data["abstained"],
        partial=[
            PartialTerm(claim=item["claim"], term=item["term"], answer_range=(item["answer_range"][0], item["answer_range"][1]))
            for item in data.get("partial") or []
        ],
    )
