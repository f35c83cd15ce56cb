"""``client.chat.completions.create``: the OpenAI Chat Completions wire through the service (``POST
/v1/chat/completions``), with the answer's check against sources returned as a typed ``VerificationReport``."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Dict, Iterator, List, Literal, Mapping, Optional, Sequence, Union, overload

from ._errors import error_from_response
from ._transport import BodyTooLarge, BoundedReader, Response, Transport
from ._types import ResponseShapeError, VerificationReport, read_verification_report

PATH = "/v1/chat/completions"


@dataclass(frozen=True)
class ChatCompletion:
    """The ``chat.completion`` as the gateway sent it (``body``), and the report when verification was asked."""

    body: Dict[str, Any]
    verification: Optional[VerificationReport]

    @property
    def content(self) -> Optional[str]:
        """The first choice's message content."""
        choices = self.body.get("choices") or []
        content = choices[0].get("message", {}).get("content") if choices else None
        return content if isinstance(content, str) else None


class ChatCompletionStream:
    """A streamed chat completion: iterate it (once) for each ``chat.completion.chunk`` as a dict; afterwards
    ``verification`` holds the report of the chunk before ``[DONE]`` (None when none was asked)."""

    def __init__(self, response: Response, transport: Transport, deadline: float) -> None:
        self._response = response
        self._transport = transport
        self._reader = BoundedReader(response, deadline, transport.clock)
        self.verification: Optional[VerificationReport] = None

    def __enter__(self) -> ChatCompletionStream:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Stops reading and closes the connection."""
        self._response.close()

    def __iter__(self) -> Iterator[Dict[str, Any]]:
        # Read as the create stream is: each line and each event at most max_response_bytes, under the call's
        # deadline, and every malformed line, chunk or report an InvalidResponseError.
        status = self._response.status
        limit = self._transport.max_response_bytes
        try:
            data: List[str] = []
            size = 0
            while True:
                try:
                    raw = self._reader.read_line(limit)
                except BodyTooLarge:
                    raise self._transport.invalid(PATH, status, f"a line over {limit} bytes") from None
                except Exception as error:
                    raise self._transport.no_response("POST", PATH, error) from error
                if raw == b"":
                    return
                try:
                    line = raw.decode("utf-8").rstrip("\r\n")
                except UnicodeDecodeError:
                    raise self._transport.invalid(PATH, status, "a streamed line that is not UTF-8") from None
                if line.startswith("data:"):
                    size += len(raw)
                    if size > limit:
                        raise self._transport.invalid(PATH, status, f"an event over {limit} bytes")
                    data.append(line[5:].lstrip(" "))
                    continue
                if line != "" or not data:
                    continue
                text, data, size = "\n".join(data), [], 0
                if text == "[DONE]":
                    return
                chunk = self._transport.read_json(PATH, status, text.encode("utf-8"), _chunk)
                if isinstance(chunk.get("error"), dict) and "choices" not in chunk:
                    raise error_from_response(_status_of(chunk["error"]), {}, text)
                if isinstance(chunk.get("verification"), dict):
                    self.verification = _chunk_report(chunk)
                yield chunk
        finally:
            self.close()


def _chunk(value: Any) -> Dict[str, Any]:
    """A chunk (or completion) as a JSON object; its ``verification`` report checked when present."""
    if not isinstance(value, dict):
        raise ResponseShapeError("chunk", "is not an object")
    if isinstance(value.get("verification"), dict):
        read_verification_report(value["verification"])
    return value


def _chunk_report(chunk: Mapping[str, Any]) -> Optional[VerificationReport]:
    report = chunk.get("verification")
    return read_verification_report(report) if isinstance(report, dict) else None


def _status_of(error: Mapping[str, Any]) -> int:
    return 422 if error.get("type") == "ungrounded" else 502


class ChatCompletions:
    """``client.chat.completions``."""

    def __init__(self, transport: Transport) -> None:
        self._transport = transport

    @overload
    def create(
        self,
        *,
        model: str,
        messages: Sequence[Mapping[str, Any]],
        verification: Optional[Mapping[str, Any]] = None,
        stream: Literal[False] = False,
        **fields: Any,
    ) -> ChatCompletion: ...

    @overload
    def create(
        self,
        *,
        model: str,
        messages: Sequence[Mapping[str, Any]],
        verification: Optional[Mapping[str, Any]] = None,
        stream: Literal[True],
        **fields: Any,
    ) -> ChatCompletionStream: ...

    def create(
        self,
        *,
        model: str,
        messages: Sequence[Mapping[str, Any]],
        verification: Optional[Mapping[str, Any]] = None,
        stream: bool = False,
        **fields: Any,
    ) -> Union[ChatCompletion, ChatCompletionStream]:
        """The OpenAI Chat Completions call (every other keyword is sent as a body field, as named);
        ``verification`` (``sources``, ``action``, ``min_coverage``…) asks for the answer to be checked, its
        ranges in code points unless it names ``offsets``. ``stream=True`` returns a ``ChatCompletionStream``."""
        body: Dict[str, Any] = {"model": model, "messages": [dict(message) for message in messages], **fields}
        if verification is not None:
            body["verification"] = {"offsets": "codepoint", **verification}
        if stream:
            body["stream"] = True
            deadline = self._transport.deadline()
            response = self._transport.with_retries(
                lambda: self._transport.open(PATH, body, deadline, accept="text/event-stream"), deadline
            )
            return ChatCompletionStream(response, self._transport, deadline)
        answer = self._transport.post_json(PATH, body, _chunk)
        return ChatCompletion(body=answer, verification=_chunk_report(answer))


class Chat:
    """``client.chat``: ``client.chat.completions.create(...)``."""

    def __init__(self, transport: Transport) -> None:
        self.completions = ChatCompletions(transport)
