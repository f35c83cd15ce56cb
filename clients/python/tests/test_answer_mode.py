"""``check(answer=...)``: answer mode of ``POST /v1/verified/check``. Each citation and unsupported entry
carries ``answer_range`` into the answer, in the same unit as ``range`` (code points here, so Python slices
it). Passes once the service has answer mode."""

from __future__ import annotations

from dataclasses import replace

from conftest import ScriptedGateway, completion
from verified_answers import AnswerMiss, ClaimEvent, DoneEvent, NumberMiss, UnsupportedEvent, Verified

POLICY = {"id": "policy", "text": "😀 Refunds are accepted within 30 days of purchase.\r\nOrders over $50 ship free."}
ANSWER = "🙂 Refunds are accepted within 30 days of purchase. Shipping to Mars takes a year 🚀."


def test_check_an_answer_gives_ranges_into_the_answer_and_the_source(client: Verified) -> None:
    result = client.check(
        sources=[POLICY],
        answer=ANSWER,
        messages=[{"role": "user", "content": "What is the refund policy?"}],
    )

    assert result.citations and result.unsupported
    for citation in result.citations:
        assert POLICY["text"][citation.range[0] : citation.range[1]] == citation.quote
        assert citation.answer_range is not None
        assert ANSWER[citation.answer_range[0] : citation.answer_range[1]] == citation.claim
    for unsupported in result.unsupported:
        assert unsupported.answer_range is not None
        assert ANSWER[unsupported.answer_range[0] : unsupported.answer_range[1]] == unsupported.claim


MENU = {
    "id": "menu",
    "text": "Soup of the day: leek. Dessert: tarte tatin, made by Chef Marta Okafor. "
    'The chef says "every tart is baked at dawn".',
}
SHOP = {"id": "shop", "text": "Refunds are accepted within 30 days of purchase. Orders over $50 ship free."}
EVERY_REASON = (
    "Refunds are accepted within 30 days of purchase [menu]. The soup is leek [kitchen]. "
    "Chef Giulio Rossi bakes bread. The dessert is apple crumble with cream [menu]. "
    'Refunds take 90 days [shop]. The chef says "every tart is baked at noon" [menu].'
)


def test_every_reason_reads_its_typed_detail_with_explain(client: Verified) -> None:
    result = client.check(sources=[SHOP, MENU], answer=EVERY_REASON, explain=True)

    details = {item.reason: item.detail for item in result.unsupported}
    assert details["wrong_source"] == AnswerMiss(found_in=["shop"])
    assert details["unknown_source"] == AnswerMiss(marker="[kitchen]")
    assert details["entity_not_found"] == AnswerMiss(entity="Giulio")
    assert details["no_support"] == AnswerMiss(words=["apple", "crumble", "cream"])
    assert details["number_not_found"] == NumberMiss(number="90", checked="source")
    assert details["quote_not_found"] == AnswerMiss(quotation="every tart is baked at noon")


def test_a_wrong_source_drop_reads_without_explain(client: Verified) -> None:
    result = client.check(sources=[SHOP, MENU], answer="Refunds are accepted within 30 days of purchase [menu].")

    [dropped] = result.unsupported
    assert dropped.reason == "wrong_source" and dropped.detail == AnswerMiss(found_in=["shop"])


def test_dropped_claims_carry_their_best_span_and_citations_their_support(client: Verified) -> None:
    answer = "The dessert is apple crumble with cream [menu]. Orders over $50 ship with a gift and a card [shop]."
    result = client.check(sources=[SHOP, MENU], answer=answer)

    [dropped] = result.unsupported
    assert dropped.reason == "no_support" and dropped.source == "menu"
    assert dropped.quote is not None and dropped.range is not None and dropped.support is not None
    assert MENU["text"][dropped.range[0] : dropped.range[1]] == dropped.quote
    assert 0 < dropped.support < 1
    [citation] = result.citations
    assert citation.support is not None and 0 < citation.support <= 1


def test_check_names_the_words_of_a_partly_supported_claim_or_drops_it(client: Verified) -> None:
    source = {"id": "museum", "text": "The museum opened a new wing in 2021."}
    answer = "The museum opened a new glass wing in 2021 [1]."

    kept = client.check(sources=[source], answer=answer)
    assert kept.unsupported == []
    assert [(term.term, answer[term.answer_range[0] : term.answer_range[1]]) for term in kept.partial] == [
        ("glass", "glass")
    ]

    dropped = client.check(sources=[source], answer=answer, partial="drop")
    assert dropped.partial == []
    assert [entry.reason for entry in dropped.unsupported] == ["partial_support"]


MUSEUM = {"id": "museum", "text": "The museum opened a new wing in 2021. Entry is free on Sundays."}
PARTLY = "The museum opened a new glass wing in 2021 [museum]. Entry is free on Sundays [museum]."
ASKED = [{"role": "user", "content": "What did the museum open?"}]


def test_create_in_text_format_names_partial_words_or_drops_them(client: Verified, gateway: ScriptedGateway) -> None:
    gateway.script(completion(PARTLY), completion(PARTLY), completion(PARTLY))

    kept = client.create(model="gpt-test", messages=ASKED, sources=[MUSEUM], answer_format="text")
    assert kept.text == PARTLY and kept.unsupported == []
    assert [(term.term, PARTLY[term.answer_range[0] : term.answer_range[1]]) for term in kept.partial] == [
        ("glass", "glass")
    ]
    dropped = client.create(model="gpt-test", messages=ASKED, sources=[MUSEUM], answer_format="text", partial="drop")
    assert dropped.text == "Entry is free on Sundays [museum]." and dropped.partial == []
    assert [entry.reason for entry in dropped.unsupported] == ["partial_support"]
    with client.stream(model="gpt-test", messages=ASKED, sources=[MUSEUM], answer_format="text") as stream:
        events = list(stream)
    assert isinstance(events[-1], DoneEvent) and events[-1].result.partial == kept.partial


def test_create_in_text_format_gives_the_answer_as_written_which_answer_ranges_index(
    client: Verified, gateway: ScriptedGateway
) -> None:
    gateway.script(completion(PARTLY), completion(PARTLY))

    dropped = client.create(model="gpt-test", messages=ASKED, sources=[MUSEUM], answer_format="text", partial="drop")
    assert dropped.text == "Entry is free on Sundays [museum]." and dropped.answer == PARTLY
    placed = [(c.answer_range, c.claim) for c in dropped.citations]
    placed += [(u.answer_range, u.claim) for u in dropped.unsupported]
    for answer_range, claim in placed:
        assert answer_range is not None and PARTLY[answer_range[0] : answer_range[1]].startswith(claim[:-1])
    case = {"messages": ASKED, "sources": [MUSEUM]}
    evaluated = client.eval(model="gpt-test", cases=[case], answer_format="text", details=True)
    [scored] = evaluated.cases
    assert scored.result is not None and scored.result.answer == PARTLY


def test_eval_in_text_format_keeps_each_case_partial_words_in_its_details(
    client: Verified, gateway: ScriptedGateway
) -> None:
    gateway.script(completion(PARTLY), completion(PARTLY))
    case = {"id": "glass", "messages": ASKED, "sources": [MUSEUM]}

    kept = client.eval(model="gpt-test", cases=[case], answer_format="text", details=True)
    dropped = client.eval_all(model="gpt-test", cases=[case], answer_format="text", partial="drop", details=True)

    [kept_case] = kept.cases
    assert kept_case.result is not None and [term.term for term in kept_case.result.partial] == ["glass"]
    [dropped_case] = dropped.cases
    assert dropped_case.result is not None and dropped_case.result.partial == []
    assert [entry.reason for entry in dropped_case.result.unsupported] == ["partial_support"]


CITY = {
    "id": "facts",
    "text": "Paris is the capital of France. The city hosts many museums. It has about two million inhabitants. "
    "Its river is the Seine. Its metro opened in 1900.",
}
QUARTER = {"id": "report_q3", "text": "Revenue in Q3 was 12.5 million. Profit was 2 million."}


def test_check_reads_an_equivalent_form_each_clause_and_support_pooled_over_a_page(client: Verified) -> None:
    answer = (
        "Revenue in Q3 was 12.5M [report_q3]. Paris is the capital of France [facts], and profit was 2 million "
        "[report_q3]. The city hosts many museums, and its metro opened in 1900 [facts]."
    )
    result = client.check(sources=[CITY, QUARTER], answer=answer, offsets="codepoint")

    texts = {"facts": CITY["text"], "report_q3": QUARTER["text"]}
    pooled = "The city hosts many museums, and its metro opened in 1900."
    assert [(c.claim, c.quote, c.source) for c in result.citations] == [
        ("Revenue in Q3 was 12.5M.", "Revenue in Q3 was 12.5 million.", "report_q3"),
        ("Paris is the capital of France", "Paris is the capital of France.", "facts"),
        ("and profit was 2 million.", "Profit was 2 million.", "report_q3"),
        (pooled, "The city hosts many museums.", "facts"),
        (pooled, "Its metro opened in 1900.", "facts"),
    ]
    for citation in result.citations:
        assert texts[citation.source][citation.range[0] : citation.range[1]] == citation.quote
    assert result.unsupported == [] and result.partial == [] and result.coverage == 1


def test_a_quotation_off_only_in_case_says_so_in_strict_mode_and_lenient_mode_keeps_it(client: Verified) -> None:
    answer = 'The chef says "Every tart is baked at dawn" [menu].'

    strict = client.check(sources=[MENU], answer=answer, explain=True)
    [dropped] = strict.unsupported
    assert dropped.reason == "quote_not_found"
    assert dropped.detail == AnswerMiss(
        quotation="Every tart is baked at dawn",
        differs_only_in="first_letter_case",
        source_text="every tart is baked at dawn",
    )
    lenient = client.check(sources=[MENU], answer=answer, explain=True, mode="lenient")
    assert lenient.unsupported == [] and lenient.coverage == 1


def test_eval_with_explain_says_why_each_case_dropped_a_sentence(client: Verified, gateway: ScriptedGateway) -> None:
    quoted = 'The chef says "Every tart is baked at dawn" [menu].'
    gateway.script(completion(quoted), completion(quoted))
    case = {"messages": ASKED, "sources": [MENU]}

    explained = client.eval(model="gpt-test", cases=[case], answer_format="text", explain=True, details=True)
    paged = client.eval_all(model="gpt-test", cases=[case], answer_format="text", explain=True, details=True)

    for evaluated in (explained, paged):
        [scored] = evaluated.cases
        assert scored.result is not None
        [dropped] = scored.result.unsupported
        assert dropped.detail == AnswerMiss(
            quotation="Every tart is baked at dawn",
            differs_only_in="first_letter_case",
            source_text="every tart is baked at dawn",
        )


HISTORY = {
    "id": "history",
    "text": "The depot was built by local firms. Its roof holds solar panels. Staff planted a garden beside it. "
    "The depot ships blue widgets to Lyon.",
}
POOLED = "The depot has solar panels on its roof and ships blue widgets to Lyon [history]."
MISCITED = "Orders over $50 ship free [history]."


def test_create_in_text_format_pools_support_and_names_found_in_json_and_streamed(
    client: Verified, gateway: ScriptedGateway
) -> None:
    answer = f"{POOLED} {MISCITED}"
    gateway.script(completion(answer), completion(answer))

    result = client.create(model="gpt-test", messages=ASKED, sources=[HISTORY, SHOP], answer_format="text")
    with client.stream(model="gpt-test", messages=ASKED, sources=[HISTORY, SHOP], answer_format="text") as stream:
        events = list(stream)

    pooled_range = (0, len(POOLED))
    assert [(c.quote, c.source, c.answer_range) for c in result.citations] == [
        ("The depot ships blue widgets to Lyon.", "history", pooled_range),
        ("Its roof holds solar panels.", "history", pooled_range),
    ]
    [miscited] = result.unsupported
    assert miscited.reason == "wrong_source" and miscited.detail == AnswerMiss(found_in=["shop"])
    assert [event.citation for event in events if isinstance(event, ClaimEvent)] == result.citations
    assert [event.unsupported for event in events if isinstance(event, UnsupportedEvent)] == result.unsupported
    assert isinstance(events[-1], DoneEvent) and replace(events[-1].result, id=result.id) == result
