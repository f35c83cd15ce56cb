"""Ranges in each unit: code points by default (Python's ``str`` index), UTF-8 bytes, UTF-16 code units."""

from __future__ import annotations

import random
from typing import List, Tuple

import pytest

from verified_answers import CandidateClaim, Source, Verified

LETTERS = ["a", "Z", "é", "e\u0301", "😀", "👩🏽\u200d💻", "𝔘", "中", "ß", "$", "5"]
SEPARATORS = [" ", "\r\n", "\n", " \r\n "]


def utf16_length(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def cut(unit: str, text: str, start: int, end: int) -> str:
    """The text ``[start, end)`` names in ``unit``, cut the way that unit's language cuts it."""
    if unit == "codepoint":
        return text[start:end]
    if unit == "utf8":
        return text.encode("utf-8")[start:end].decode("utf-8")
    return text.encode("utf-16-le")[2 * start : 2 * end].decode("utf-16-le")


def generated_texts(count: int, seed: int) -> List[Tuple[str, List[str]]]:
    """Texts of words made of astral characters, combining marks and accents, separated by spaces and CRLF,
    each with quotes of whole words drawn from it (a strict quote starts and ends on a word boundary)."""
    generator = random.Random(seed)
    texts = []
    for _ in range(count):
        words = ["".join(generator.choice(LETTERS) for _ in range(generator.randint(1, 4))) for _ in range(12)]
        separators = [generator.choice(SEPARATORS) for _ in words]
        text = "".join(word + separator for word, separator in zip(words, separators)) + "END"
        quotes = []
        for _ in range(3):
            first = generator.randrange(len(words))
            last = generator.randint(first, len(words) - 1)
            quote = "".join(words[index] + separators[index] for index in range(first, last)) + words[last]
            quotes.append(quote)
        texts.append((text, quotes))
    return texts


@pytest.mark.parametrize("unit", ["codepoint", "utf8", "utf16"])
def test_check_ranges_slice_the_quote_in_each_unit(client: Verified, unit: str) -> None:
    for index, (text, quotes) in enumerate(generated_texts(40, seed=26)):
        source = Source(id=f"s{index}", text=text)
        result = client.check(
            sources=[source],
            claims=[CandidateClaim(quote=quote, source=source.id) for quote in quotes],
            offsets=unit,  # type: ignore[arg-type]
        )
        assert len(result.citations) == len(quotes)
        for citation in result.citations:
            assert cut(unit, text, *citation.range) == citation.quote


def test_codepoint_is_the_default_and_differs_from_utf16(client: Verified) -> None:
    text = "😀 Orders over $50 ship free."
    claims = [CandidateClaim(quote="Orders over $50 ship free.", source="s")]
    default = client.check(sources=[Source(id="s", text=text)], claims=claims)
    utf16 = client.check(sources=[Source(id="s", text=text)], claims=claims, offsets="utf16")
    utf8 = client.check(sources=[Source(id="s", text=text)], claims=claims, offsets="utf8")

    assert default.citations[0].range == (2, 28)
    assert utf16.citations[0].range == (3, 29)
    assert utf8.citations[0].range == (5, 31)
    assert utf16_length(text[:2]) == 3


@pytest.mark.parametrize("unit", ["codepoint", "utf8", "utf16"])
def test_create_extract_and_eval_ranges_in_each_unit(client: Verified, unit: str) -> None:
    notes = Source(id="notes", text="😀 Café\r\nRefunds are accepted within 30 days.\r\nCity: 𝔘lm\r\n")
    question = [{"role": "user", "content": "When are refunds accepted?"}]

    created = client.create(model="local", messages=question, sources=[notes], offsets=unit)  # type: ignore[arg-type]
    extracted = client.extract(model="local", sources=[notes], schema={"city": "the city"}, offsets=unit)  # type: ignore[arg-type]
    evaluated = client.eval(
        model="local", cases=[{"messages": question, "sources": [notes]}], details=True, offsets=unit  # type: ignore[arg-type]
    )

    assert created.citations
    for citation in created.citations:
        assert cut(unit, notes.text, *citation.range) == citation.quote
    city = extracted.fields["city"]
    assert city.range is not None and cut(unit, notes.text, *city.range) == "𝔘lm"
    details = evaluated.cases[0].result
    assert details is not None and details.citations
    for citation in details.citations:
        assert cut(unit, notes.text, *citation.range) == citation.quote
