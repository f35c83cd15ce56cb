"""Results of the verified service as dataclasses, read from the wire's snake_case JSON.

Readers ignore fields they do not know, so a newer service with more fields still reads; a field of the wrong
type, or a required one missing, raises ``ResponseShapeError`` (the client raises it as an
``InvalidResponseError``).
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass, field, fields, is_dataclass
from typing import Any, Dict, List, Literal, Optional, Tuple, Type, TypeVar, Union, get_args, get_origin, get_type_hints

OffsetUnit = Literal["utf16", "codepoint", "utf8"]
"""The unit of every ``range``: UTF-16 code units, code points (Python's ``str`` index) or UTF-8 bytes."""

MatchMode = Literal["strict", "lenient"]
CheckNumbers = Union[bool, Literal["source", "row", "quote"]]
PartialPolicy = Literal["keep", "drop"]
AnswerFormat = Literal["json", "text"]
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
    support: Optional[float] = None
    """In answer mode: the share of the claim's content words that the quoted span holds (0 to 1)."""
    answer_range: Optional[Range] = None
    """In answer mode: where the claim sits in the answer."""


@dataclass(frozen=True)
class CheckedCell:
    """A table cell a number was checked against: its row label, column header and text."""

    row: str
    column: str
    text: str


@dataclass(frozen=True)
class NumberMiss:
    """Why a number check dropped a claim (``number_not_found``): the failing number and what it was checked
    against: ``checked`` is ``"cells"`` (with ``cells``), ``"line"`` or ``"quote"`` (with ``text``) or
    ``"source"``."""

    number: str
    checked: str
    cells: Optional[List[CheckedCell]] = None
    text: Optional[str] = None
    seen: Optional[str] = None
    """Answer mode: the source sentence that holds the number, outside the spans that support the claim."""


@dataclass(frozen=True)
class AnswerMiss:
    """Answer mode: why a claim was dropped. Which field is set follows the reason: ``found_in`` with
    ``wrong_source`` (always: the sources that do support the claim), ``words`` with ``no_support`` (the
    content words its best span lacks), ``entity`` with ``entity_not_found``, ``quotation`` with
    ``quote_not_found``, ``marker`` with ``unknown_source``; the last four when ``explain=True``."""

    found_in: Optional[List[str]] = None
    words: Optional[List[str]] = None
    entity: Optional[str] = None
    quotation: Optional[str] = None
    marker: Optional[str] = None
    differs_only_in: Optional[str] = None
    """With ``quote_not_found`` in strict mode: ``first_letter_case`` or ``case`` when the cited source holds
    the quotation with only that different (lenient mode keeps it)."""
    source_text: Optional[str] = None
    """With ``differs_only_in``: the quotation as the source writes it."""


Detail = Union[NumberMiss, AnswerMiss]
"""An unsupported claim's ``detail``: a ``NumberMiss`` when it has ``number``, else an ``AnswerMiss``."""


@dataclass(frozen=True)
class Near:
    """Where the named source holds a strict quote under lenient matching: its text there and its range."""

    quote: str
    range: Range


@dataclass(frozen=True)
class UnsupportedClaim:
    """A claim that could not be grounded, with the reason."""

    claim: str
    reason: str
    detail: Optional[Detail] = None
    answer_range: Optional[Range] = None
    """In answer mode: where the claim sits in the answer."""
    quote: Optional[str] = None
    """Claims: the quote the model tried. Answer mode: the claim's best span in the sources, if any."""
    source: Optional[str] = None
    """Claims: the source id the model named. Answer mode: the source of the best span, if any."""
    range: Optional[Range] = None
    """Where ``quote`` sits in ``source`` (answer mode's best span)."""
    support: Optional[float] = None
    """Answer mode: the share of the claim's content words the best span holds (0 to 1)."""
    near: Optional[Near] = None
    """With ``quote_not_found`` in strict mode: where lenient matching finds the quote in the named source."""


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
class PartialTerm:
    """In answer mode: a word of a kept, partially supported claim that none of its spans holds."""

    claim: str
    term: str
    answer_range: Range


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
    partial: List[PartialTerm] = field(default_factory=list)
    """With ``answer_format: "text"``: the words of kept claims that their spans lack."""
    answer: Optional[str] = None
    """With ``answer_format="text"``: the model's answer as written, before its unsupported sentences were
    removed; every ``answer_range`` (and each ``partial`` word's) counts into it. ``text`` is it with the drops
    removed."""


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
    partial: List[PartialTerm] = field(default_factory=list)
    """With ``answer_format="text"``: the words of kept claims that their spans lack."""
    answer: Optional[str] = None
    """With ``answer_format="text"``: the model's answer as written; every ``answer_range`` counts into it."""


@dataclass(frozen=True)
class ExpectedMatch:
    """Which expected answer a correct case's grounded claims hold: the answer as the case wrote it, the index
    of the citation that holds it, and ``range`` in that claim's text (in the request's ``offsets`` unit)."""

    expected: str
    citation: int
    range: Range


@dataclass(frozen=True)
class EvalCaseResult:
    """One case: scored (``coverage``, counts) or failed (``error``). With ``expected`` on the case, a scored
    case has ``correct``, and ``match`` when it is correct."""

    id: Optional[str] = None
    coverage: Optional[float] = None
    citations: Optional[int] = None
    unsupported: Optional[int] = None
    correct: Optional[bool] = None
    match: Optional[ExpectedMatch] = None
    result: Optional[EvalCaseDetails] = None
    error: Optional[CaseError] = None
    # With details=True, instead of ``result``: "details_budget" when the result was longer than its share.
    result_omitted: Optional[str] = None


@dataclass(frozen=True)
class EvalAggregate:
    """Mean coverage and unsupported rate over the scored cases; ``n`` counts every case. ``correct_rate``:
    correct cases over the scored cases that carry ``expected`` (None when none does)."""

    coverage_mean: float
    unsupported_rate: float
    n: int
    errored: int
    correct_rate: Optional[float] = None


@dataclass(frozen=True)
class EvalResult:
    """Result of ``eval`` and ``eval_all``."""

    aggregate: EvalAggregate
    cases: List[EvalCaseResult]
    usage: CallUsage


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




class ResponseShapeError(ValueError):
    """A response whose JSON does not have the shape the API documents; ``where`` names the field."""

    def __init__(self, where: str, problem: str) -> None:
        super().__init__(f"{where} {problem}")
        self.where = where


# One reader for every result type, driven by the dataclasses' own annotations: each field is checked against
# its JSON type and named (``citations[2].range``) when it is wrong. A field with no default must be present
# (it may be null when its type is Optional); one with a default may be absent.

_HINTS: Dict[type, Dict[str, Any]] = {}


def _hints(kind: type) -> Dict[str, Any]:
    hints = _HINTS.get(kind)
    if hints is None:
        hints = _HINTS[kind] = get_type_hints(kind)
    return hints


def _scalar(kind: type, value: Any, where: str) -> Any:
    names = {str: "a string", int: "an integer", float: "a number", bool: "a boolean"}
    accepted: Tuple[type, ...] = (int, float) if kind is float else (kind,)
    if isinstance(value, bool) != (kind is bool) or not isinstance(value, accepted):
        raise ResponseShapeError(where, f"is not {names[kind]}")
    return value


def _read_as(kind: Any, value: Any, where: str) -> Any:
    """``value`` (parsed JSON) read as ``kind``: a dataclass, a scalar, ``Range``, ``List``, ``Dict``, a
    ``Literal`` of strings, ``Optional`` of one of those, or ``Detail``."""
    origin = get_origin(kind)
    if origin is Union:
        options = [option for option in get_args(kind) if option is not type(None)]
        if value is None and len(options) < len(get_args(kind)):
            return None
        if set(options) == {NumberMiss, AnswerMiss}:
            return read_detail(value, where)
        return _read_as(options[0], value, where)
    if origin is Literal:
        return _scalar(str, value, where)
    if origin is tuple:
        return _range(value, where)
    if origin is list:
        if not isinstance(value, list):
            raise ResponseShapeError(where, "is not an array")
        (item_kind,) = get_args(kind)
        return [_read_as(item_kind, item, f"{where}[{index}]") for index, item in enumerate(value)]
    if origin is dict:
        if not isinstance(value, dict):
            raise ResponseShapeError(where, "is not an object")
        item_kind = get_args(kind)[1]
        return {name: _read_as(item_kind, item, f"{where}.{name}") for name, item in value.items()}
    if kind in (str, int, float, bool):
        return _scalar(kind, value, where)
    if is_dataclass(kind):
        return _read_dataclass(kind, value, where)
    raise TypeError(f"no reader for {kind!r}")


def _read_dataclass(kind: Any, value: Any, where: str) -> Any:
    if not isinstance(value, dict):
        raise ResponseShapeError(where, "is not an object")
    hints = _hints(kind)
    values: Dict[str, Any] = {}
    for item in fields(kind):
        if item.name in value:
            values[item.name] = _read_as(hints[item.name], value[item.name], f"{where}.{item.name}")
        elif item.default is MISSING and item.default_factory is MISSING:
            raise ResponseShapeError(f"{where}.{item.name}", "is missing")
    return kind(**values)


def _range(value: Any, where: str) -> Range:
    if not isinstance(value, list) or len(value) != 2:
        raise ResponseShapeError(where, "is not a [start, end] pair")
    return (_scalar(int, value[0], f"{where}[0]"), _scalar(int, value[1], f"{where}[1]"))


def read_detail(value: Any, where: str = "detail") -> Detail:
    """A ``NumberMiss`` when the detail names a ``number``, else an ``AnswerMiss`` (every field optional)."""
    kind = NumberMiss if isinstance(value, dict) and "number" in value else AnswerMiss
    detail: Detail = _read_dataclass(kind, value, where)
    return detail


R = TypeVar("R")


def read(kind: Type[R], value: Any, where: str = "result") -> R:
    """Parsed JSON read as the result dataclass ``kind``; ``ResponseShapeError`` naming the field at fault."""
    result: R = _read_dataclass(kind, value, where)
    return result


def read_stream_event(name: str, data: Any) -> Optional[StreamEvent]:
    """One streamed create event; None for an event this client does not know (newer services may add some)."""
    if name == "claim":
        return ClaimEvent(citation=read(Citation, data, "claim event"))
    if name == "unsupported":
        return UnsupportedEvent(unsupported=read(UnsupportedClaim, data, "unsupported event"))
    if name == "attempt":
        return read(AttemptEvent, data, "attempt event")
    if name == "done":
        return DoneEvent(result=read(CreateResult, data, "done event"))
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


def read_verification_report(value: Any, where: str = "verification") -> VerificationReport:
    """A chat completion's (or chunk's) ``verification`` report; ``ResponseShapeError`` for a wrong shape."""
    return read(VerificationReport, value, where)
