#!/usr/bin/env python3
"""Build spans.jsonl (extractive QA spans with char offsets) from the raw XQuAD and TAT-QA files.

Standard library only.  Run from anywhere:
    python3 data/scripts/build_spans.py
    python3 scripts/bench-data/build_spans.py DATA_DIR OUT_DIR   (npm run bench:data: raw/ read from DATA_DIR)

Each output line: id, context, question, answer, start, origin   (+ answer_kind, source_dataset)
`start` is a JavaScript string index (UTF-16 code units), so that in node
    context.slice(start, start + answer.length) === answer
The dataset offsets are Python code-point offsets; they are converted here (they only differ
when a context holds characters outside the BMP).  Items whose gold offset does not reproduce
the answer exactly are dropped (counted in the printed summary).  Run verify_spans.mjs afterwards.
"""
import json
import os
import sys

from write_jsonl import write_unique_jsonl

# `npm run bench:data` passes the folder holding raw/ and the folder to write spans.jsonl into
# (the data folder's own copy of this script reads and writes beside itself).
HERE = os.path.dirname(os.path.abspath(__file__))
RAW = os.path.join(os.path.abspath(sys.argv[1]), "raw") if len(sys.argv) > 1 else os.path.join(os.path.dirname(HERE), "raw")
OUT = os.path.join(os.path.abspath(sys.argv[2]) if len(sys.argv) > 2 else os.path.dirname(HERE), "spans.jsonl")

XQUAD_COMMIT = "7d30520c717524000f0d9d2f9c10a069acd9d285"
TATQA_COMMIT = "ec12a30c26365ff05face6ffc431aaff9cb67c91"


def utf16_index(s, cp_index):
    return len(s[:cp_index].encode("utf-16-le")) // 2


def build_xquad(out, stats):
    d = json.load(open(os.path.join(RAW, "xquad", "xquad.en.json"), encoding="utf-8"))
    for art in d["data"]:
        title = art.get("title", "")
        for p in art["paragraphs"]:
            ctx = p["context"]
            for qa in p["qas"]:
                a = qa["answers"][0]
                text, st = a["text"], a["answer_start"]
                if ctx[st:st + len(text)] != text:
                    stats["xquad_dropped"] += 1
                    continue
                out.append({
                    "id": f"xquad-en-{qa['id']}",
                    "context": ctx,
                    "question": qa["question"],
                    "answer": text,
                    "start": utf16_index(ctx, st),
                    "origin": f"XQuAD en (google-deepmind/xquad@{XQUAD_COMMIT[:7]} xquad.en.json; SQuAD v1.1 dev subset) article '{title}' qid {qa['id']}",
                    "answer_kind": "squad_span",
                    "source_dataset": "xquad",
                })
                stats["xquad"] += 1


def build_tatqa(out, stats):
    d = json.load(open(os.path.join(RAW, "tat-qa", "tatqa_dataset_dev_tagop_ec12a30.json"), encoding="utf-8"))
    for item in d:
        paras = sorted(item["paragraphs"], key=lambda p: p["order"])
        sep = "\n"
        ctx = sep.join(p["text"] for p in paras)
        base = {}
        pos = 0
        for p in paras:
            base[str(p["order"])] = pos
            pos += len(p["text"]) + len(sep)
        by_order = {str(p["order"]): p["text"] for p in paras}
        for q in item["questions"]:
            m = q.get("mapping") or {}
            if m.get("table"):
                continue
            pm = m.get("paragraph") or {}
            spans = [(k, s, e) for k, lst in pm.items() for (s, e) in lst]
            if q["answer_type"] != "span" or len(spans) != 1:
                continue
            if not isinstance(q["answer"], list) or len(q["answer"]) != 1:
                continue
            k, s, e = spans[0]
            ans = q["answer"][0]
            if k not in by_order:
                stats["tatqa_dropped"] += 1
                continue
            # The TAT-QA authors generated `mapping` heuristically: some spans carry a leading or
            # trailing space, or differ from the gold answer only in letter case.  Trim the mapped
            # span; when it then differs from the answer only in case, keep the verbatim span as
            # `answer` and the dataset's string as `dataset_answer`.  Anything else is dropped.
            sl = by_order[k][s:e]
            lead = len(sl) - len(sl.lstrip())
            verb = sl.strip()
            s2 = s + lead
            extra = {}
            if verb == ans:
                stats["tatqa_exact"] += 1
            elif verb.lower() == ans.lower() and verb:
                extra = {"dataset_answer": ans}
                ans = verb
                stats["tatqa_case_fixed"] += 1
            else:
                stats["tatqa_dropped"] += 1
                continue
            if sl != verb:
                stats["tatqa_trimmed"] += 1
            st = base[k] + s2
            assert ctx[st:st + len(ans)] == ans
            out.append({
                "id": f"tatqa-dev-{q['uid']}",
                "context": ctx,
                "question": q["question"],
                "answer": ans,
                "start": utf16_index(ctx, st),
                "origin": f"TAT-QA dev (NExTplusplus/TAT-QA@{TATQA_COMMIT[:7]} dataset_tagop/tatqa_dataset_dev.json) table {item['table']['uid']} question {q['uid']}; paragraphs joined with '\\n', mapping paragraph {k} [{s},{e}]" + (" (trimmed)" if sl != verb else ""),
                "answer_kind": "financial_report_span",
                "source_dataset": "tat-qa",
                **extra,
            })
            stats["tatqa"] += 1


def main():
    out = []
    stats = {"xquad": 0, "xquad_dropped": 0, "tatqa": 0, "tatqa_exact": 0, "tatqa_case_fixed": 0, "tatqa_trimmed": 0, "tatqa_dropped": 0}
    build_xquad(out, stats)
    build_tatqa(out, stats)
    write_unique_jsonl(OUT, out)
    print(json.dumps(stats), "total", len(out), "->", OUT)


if __name__ == "__main__":
    sys.exit(main())
