#!/usr/bin/env python3
"""Build table_cells.jsonl from the raw TAT-QA and WikiTableQuestions files.

Standard library only.  Run from anywhere:
    python3 data/scripts/build_table_cells.py
    python3 scripts/bench-data/build_table_cells.py DATA_DIR OUT_DIR   (npm run bench:data: raw/ read from DATA_DIR)

Each output line:
  id, table_markdown, row_label, column, value, origin      (required fields)
  question   the real dataset question this cell is bound to (or null)
  binding    "answer"           the cell is the gold single-cell answer (TAT-QA mapping)
             "operand"          the cell is a gold fact/operand of an arithmetic question (TAT-QA mapping)
             "heuristic_answer" WTQ: the gold answer equals exactly one cell and the question names its row
             "table_cell"       WTQ: a numeric cell of a real table, no question attached
  table_id   id of the source table (to group cells / find distinct tables)

Rendering rules (so that a consumer can look a cell up unambiguously):
  * one GitHub pipe-table header row; the first column holds the row labels;
  * newlines inside cells become a single space; cells are otherwise verbatim (only trimmed);
  * tables containing a '|' anywhere are skipped (no escaping needed);
  * a triple is emitted only if its row label is unique among the table's data rows and its
    column header is unique among the table's headers, and the value contains a digit.
"""
import csv
import io
import json
import os
import re
import sys

from write_jsonl import write_unique_jsonl

# `npm run bench:data` passes the folder holding raw/ and the folder to write table_cells.jsonl into
# (the data folder's own copy of this script reads and writes beside itself).
HERE = os.path.dirname(os.path.abspath(__file__))
RAW = os.path.join(os.path.abspath(sys.argv[1]), "raw") if len(sys.argv) > 1 else os.path.join(os.path.dirname(HERE), "raw")
OUT = os.path.join(os.path.abspath(sys.argv[2]) if len(sys.argv) > 2 else os.path.dirname(HERE), "table_cells.jsonl")

TATQA_COMMIT = "ec12a30c26365ff05face6ffc431aaff9cb67c91"
WTQ_COMMIT = "7d455a5a707b96341ef72aff9428749d443d8aa9"


def norm(s):
    return re.sub(r"[\r\n]+", " ", str(s)).strip()


def render_markdown(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join([" --- "] * len(header)) + "|"]
    for r in rows:
        lines.append("| " + " | ".join(r) + " |")
    return "\n".join(lines)


def has_digit(s):
    return any(ch.isdigit() for ch in s)


# --------------------------------------------------------------------------- TAT-QA
def tatqa_layout(table):
    """Return (k, header) where k = number of header rows and header = list of column names."""
    t = [[norm(c) for c in row] for row in table]
    ncol = max(len(r) for r in t)
    t = [r + [""] * (ncol - len(r)) for r in t]
    k = 0
    while k < len(t) and (t[k][0] == "" or all(c == "" for c in t[k][1:])):
        k += 1
    if k == 0:
        k = 1
    if k >= len(t):
        return None
    hdr_rows = t[:k]
    data_cols = list(range(1, ncol))
    header = None
    # 1) bottom-most header row whose data-column names are all non-empty and unique
    for r in reversed(hdr_rows):
        names = [r[j] for j in data_cols]
        if all(names) and len(set(names)) == len(names):
            header = [r[0]] + names
            break
    if header is None:
        # 2) forward-fill spanning header cells to the right, then join the parts top-down
        filled = []
        for r in hdr_rows:
            fr, last = list(r), ""
            for j in data_cols:
                if fr[j]:
                    last = fr[j]
                else:
                    fr[j] = last
            filled.append(fr)
        names = []
        for j in data_cols:
            parts = []
            for r in filled:
                if r[j] and (not parts or parts[-1] != r[j]):
                    parts.append(r[j])
            names.append(" ".join(parts))
        col0 = next((r[0] for r in reversed(hdr_rows) if r[0]), "")
        header = [col0] + names
    return k, header, t


def build_tatqa(records):
    path = os.path.join(RAW, "tat-qa", "tatqa_dataset_dev_tagop_ec12a30.json")
    data = json.load(open(path, encoding="utf-8"))
    tables_used = set()
    for item in data:
        uid = item["table"]["uid"]
        lay = tatqa_layout(item["table"]["table"])
        if lay is None:
            continue
        k, header, t = lay
        if any("|" in c for r in t for c in r):
            continue
        body = t[k:]
        md = render_markdown(header, body)
        hcount = {}
        for h in header:
            hcount[h] = hcount.get(h, 0) + 1
        lcount = {}
        for r in body:
            lcount[r[0]] = lcount.get(r[0], 0) + 1
        seen = {}
        for q in item["questions"]:
            tab = (q.get("mapping") or {}).get("table") or []
            if not tab:
                continue
            single_answer = (
                q["answer_type"] == "span"
                and len(tab) == 1
                and isinstance(q["answer"], list)
                and len(q["answer"]) == 1
            )
            for (ri, ci) in tab:
                if ri < k or ri >= len(t) or ci < 1 or ci >= len(header):
                    continue
                label, col, val = t[ri][0], header[ci], t[ri][ci]
                if not label or lcount.get(label) != 1 or not col or hcount.get(col) != 1:
                    continue
                if not val or not has_digit(val):
                    continue
                binding = "answer" if (single_answer and norm(q["answer"][0]) == val) else "operand"
                key = (ri, ci)
                prev = seen.get(key)
                if prev is not None and not (prev["binding"] == "operand" and binding == "answer"):
                    continue
                rec = {
                    "id": f"tatqa-dev-{uid[:8]}-r{ri}c{ci}",
                    "table_markdown": md,
                    "row_label": label,
                    "column": col,
                    "value": val,
                    "origin": f"TAT-QA dev (NExTplusplus/TAT-QA@{TATQA_COMMIT[:7]} dataset_tagop/tatqa_dataset_dev.json) table {uid} question {q['uid']} mapping [{ri},{ci}]",
                    "question": q["question"],
                    "binding": binding,
                    "table_id": f"tatqa:{uid}",
                }
                seen[key] = rec
        for key in sorted(seen):
            records.append(seen[key])
            tables_used.add(uid)
    return len(tables_used)


# --------------------------------------------------------------------------- WikiTableQuestions
def read_wtq_csv(path):
    with open(path, encoding="utf-8", newline="") as f:
        rows = list(csv.reader(f, quotechar='"', escapechar="\\", doublequote=False))
    return [[norm(c) for c in r] for r in rows]


def build_wtq(records):
    base = os.path.join(RAW, "wikitablequestions")
    qs = []
    with open(os.path.join(base, "pristine-unseen-tables.tsv"), encoding="utf-8") as f:
        next(f)
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) != 4:
                continue
            qs.append(parts)
    tables_used = set()
    cache = {}
    used_cells = set()
    for qid, utt, ctx, target in qs:
        if "|" in target:  # multi-answer list
            continue
        target = target.replace("\\n", " ").replace("\\p", "|").replace("\\\\", "\\").strip()
        if not target or not has_digit(target):
            continue
        if ctx not in cache:
            rows = read_wtq_csv(os.path.join(base, ctx))
            ok = rows and all(len(r) == len(rows[0]) for r in rows) and not any("|" in c for r in rows for c in r)
            cache[ctx] = rows if ok else None
        rows = cache[ctx]
        if not rows or len(rows) < 3:
            continue
        header, body = rows[0], rows[1:]
        hits = [(i, j) for i, r in enumerate(body) for j in range(1, len(r)) if r[j] == target]
        if len(hits) != 1:
            continue
        i, j = hits[0]
        label, col = body[i][0], header[j]
        if not label or sum(1 for r in body if r[0] == label) != 1:
            continue
        if not col or header.count(col) != 1:
            continue
        # the question must name the row: label (>= 3 chars, has a letter) appears in the question
        if len(label) < 3 or not re.search(r"[A-Za-z]", label) or label.lower() not in utt.lower():
            continue
        if (ctx, i, j) in used_cells:
            continue
        used_cells.add((ctx, i, j))
        tid = ctx.replace("csv/", "").replace("-csv/", "-").replace(".csv", "")
        records.append({
            "id": f"wtq-{qid}",
            "table_markdown": render_markdown(header, body),
            "row_label": label,
            "column": col,
            "value": target,
            "origin": f"WikiTableQuestions pristine-unseen-tables (ppasupat/WikiTableQuestions@{WTQ_COMMIT[:7]}) question {qid}, table {ctx}",
            "question": utt,
            "binding": "heuristic_answer",
            "table_id": f"wtq:{tid}",
        })
        tables_used.add(ctx)
    # Second pass: question-free cells from the same real tables (binding "table_cell"), for layout
    # diversity (Wikipedia tables).  Only tables whose first column is a usable row-label column
    # (unique, non-empty, contains a letter) are used; at most PER_TABLE cells per table, taken in
    # a fixed diagonal order so different rows and columns are covered.
    PER_TABLE = 5
    for ctx in sorted(cache):
        rows = cache[ctx]
        if not rows or len(rows) < 4:
            continue
        header, body = rows[0], rows[1:]
        labels = [r[0] for r in body]
        if len(set(labels)) != len(labels) or not all(l and re.search(r"[A-Za-z]", l) for l in labels):
            continue
        cols = [j for j in range(1, len(header)) if header[j] and header.count(header[j]) == 1]
        if not cols:
            continue
        tid = ctx.replace("csv/", "").replace("-csv/", "-").replace(".csv", "")
        picked = 0
        for step in range(len(body) * len(cols)):
            if picked >= PER_TABLE:
                break
            i = step % len(body)
            j = cols[(step // len(body) + i) % len(cols)]
            val = body[i][j]
            if (ctx, i, j) in used_cells or not val or not has_digit(val):
                continue
            used_cells.add((ctx, i, j))
            records.append({
                "id": f"wtq-{tid}-r{i + 1}c{j}",
                "table_markdown": render_markdown(header, body),
                "row_label": body[i][0],
                "column": header[j],
                "value": val,
                "origin": f"WikiTableQuestions table {ctx} (ppasupat/WikiTableQuestions@{WTQ_COMMIT[:7]}), data row {i + 1}, column {j}; no question",
                "question": None,
                "binding": "table_cell",
                "table_id": f"wtq:{tid}",
            })
            tables_used.add(ctx)
            picked += 1
    return len(tables_used)


def main():
    records = []
    n_t = build_tatqa(records)
    n_tat_cells = len(records)
    n_w = build_wtq(records)
    n_wtq_cells = len(records) - n_tat_cells
    write_unique_jsonl(OUT, records)
    print(f"TAT-QA: {n_tat_cells} cells from {n_t} tables; WTQ: {n_wtq_cells} cells from {n_w} tables; total {len(records)} -> {OUT}")


if __name__ == "__main__":
    sys.exit(main())
