"""The client cannot fall behind the API: every field of every response in the service's own OpenAPI document
(``GET /openapi.json`` of the built service) has a counterpart in the Python result types, at every depth, and
every operation the document lists is either a method of the client or named here as left out, with why."""

from __future__ import annotations

import dataclasses
import inspect
import json
import typing
import urllib.request
from typing import Any, Dict, List, Sequence, Set, Tuple

from verified_answers import (
    ChatCompletion,
    CheckResult,
    CreateResult,
    EvalResult,
    ExtractResult,
    ModelList,
    UngroundedError,
    UnsupportedClaim,
    Verified,
    VerifiedError,
)

RESULT_TYPES: Dict[Tuple[str, str], Any] = {
    ("post", "/v1/verified"): CreateResult,
    ("post", "/v1/verified/extract"): ExtractResult,
    ("post", "/v1/verified/eval"): EvalResult,
    ("post", "/v1/verified/check"): CheckResult,
    ("get", "/v1/models"): ModelList,
    # The gateway's chat.completion is kept as it came (`body`); the one field the service adds is typed.
    ("post", "/v1/chat/completions"): ChatCompletion,
}
LEFT_OUT = {
    ("get", "/healthz"): "a probe for orchestrators, not an API call",
    ("get", "/readyz"): "a probe for orchestrators, not an API call",
    ("get", "/openapi.json"): "the document itself",
    ("post", "/v1/guardrails/portkey"): "called by a Portkey gateway as its webhook guardrail, not by clients",
    ("post", "/v1/guardrails/litellm/beta/litellm_basic_guardrail_api"): "called by a LiteLLM proxy, not by clients",
}
ERROR_ATTRIBUTES = {
    # The error body's fields and the attribute of the raised error that holds each.
    "type": "type",
    "code": "type",  # the same string as type, kept on the wire for OpenAI-style clients
    "message": "message",
    "param": "param",
    "request_id": "request_id",
    "unsupported": "unsupported",
    "verification": "verification",  # a blocked chat completion's report
}


def document(service_url: str) -> Any:
    with urllib.request.urlopen(f"{service_url}/openapi.json", timeout=30) as response:
        return json.load(response)


def json_schema(response: Any) -> Any:
    return response["content"]["application/json"]["schema"]


def element_types(python_type: Any) -> List[Any]:
    """The types a JSON value read into ``python_type`` may hold: through Optional, Union, List and Dict."""
    origin = typing.get_origin(python_type)
    if origin is typing.Union:
        return [inner for arg in typing.get_args(python_type) for inner in element_types(arg)]
    if origin in (list, Sequence):
        return element_types(typing.get_args(python_type)[0])
    if origin is dict:
        return element_types(typing.get_args(python_type)[1])
    return [python_type]


def missing_fields(schema: Any, python_types: Sequence[Any], where: str) -> List[str]:
    """The paths of ``schema``'s object properties, at any depth, that no dataclass among ``python_types`` has."""
    if "anyOf" in schema:
        return [path for member in schema["anyOf"] for path in missing_fields(member, python_types, where)]
    if schema.get("type") == "array" and isinstance(schema.get("items"), dict):
        return missing_fields(schema["items"], python_types, f"{where}[]")
    if schema.get("type") != "object":
        return []
    if isinstance(schema.get("additionalProperties"), dict):
        return missing_fields(schema["additionalProperties"], python_types, f"{where}{{}}")
    classes = [kind for kind in python_types if dataclasses.is_dataclass(kind)]
    found: List[str] = []
    for name, property_schema in schema.get("properties", {}).items():
        owner = next((kind for kind in classes if name in {field.name for field in dataclasses.fields(kind)}), None)
        if owner is None:
            found.append(f"{where}.{name}")
            continue
        hints = typing.get_type_hints(owner)
        found += missing_fields(property_schema, element_types(hints[name]), f"{where}.{name}")
    return found


def test_every_operation_is_a_client_method_or_left_out_on_purpose(service_url: str) -> None:
    listed: Set[Tuple[str, str]] = {
        (method, path) for path, operations in document(service_url)["paths"].items() for method in operations
    }
    assert listed - set(RESULT_TYPES) - set(LEFT_OUT) == set()
    assert set(RESULT_TYPES) <= listed


def test_every_response_field_has_a_python_counterpart(service_url: str) -> None:
    paths = document(service_url)["paths"]
    missing: List[str] = []
    for (method, path), result_type in RESULT_TYPES.items():
        schema = json_schema(paths[path][method]["responses"]["200"])
        missing += missing_fields(schema, [result_type], f"{method.upper()} {path}")
    assert missing == []


def test_every_error_body_field_is_an_attribute_of_the_raised_error(service_url: str) -> None:
    paths = document(service_url)["paths"]
    error = UngroundedError("m", type="ungrounded", status=422)
    for (method, path) in RESULT_TYPES:
        error_schema = json_schema(paths[path][method]["responses"]["default"])["properties"]["error"]
        assert set(error_schema["properties"]) <= set(ERROR_ATTRIBUTES), path
        for attribute in ERROR_ATTRIBUTES.values():
            assert hasattr(error, attribute) and isinstance(error, VerifiedError)
        unsupported = error_schema["properties"]["unsupported"]
        assert missing_fields(unsupported, [UnsupportedClaim], f"{path} error.unsupported") == []


def test_the_walk_finds_a_field_the_client_lacks() -> None:
    # The check itself can fail: a schema with a field no dataclass has is reported, at depth.
    schema = {
        "type": "object",
        "properties": {"citations": {"type": "array", "items": {"type": "object", "properties": {"invented": {}}}}},
    }
    assert missing_fields(schema, [CheckResult], "x") == ["x.citations[].invented"]


# Each method and the operation whose request body its keyword arguments send, with the body fields it sets
# itself (``stream``: ``stream()`` sends it, ``create`` and ``eval`` never do).
REQUEST_METHODS: Dict[str, Tuple[str, Set[str]]] = {
    "create": ("/v1/verified", {"stream"}),
    "stream": ("/v1/verified", {"stream"}),
    "extract": ("/v1/verified/extract", set()),
    "eval": ("/v1/verified/eval", {"stream"}),
    "eval_all": ("/v1/verified/eval", {"stream"}),
    "check": ("/v1/verified/check", set()),
}


def test_every_request_field_is_a_keyword_argument(service_url: str) -> None:
    # "Every request field of the HTTP API is a keyword argument of the same name" (docs/python.md).
    paths = document(service_url)["paths"]
    missing: List[str] = []
    for method, (path, set_by_the_method) in REQUEST_METHODS.items():
        body = json_schema(paths[path]["post"]["requestBody"])
        parameters = set(inspect.signature(getattr(Verified, method)).parameters)
        missing += [f"{method}({name}=)" for name in body["properties"] if name not in parameters | set_by_the_method]
    assert missing == []
