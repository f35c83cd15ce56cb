"""Writes the build scripts' output: one JSON object per line, ids unique, non-ASCII kept as is."""
import json


def write_unique_jsonl(path, records):
    ids = set()
    with open(path, "w", encoding="utf-8") as f:
        for r in records:
            assert r["id"] not in ids, r["id"]
            ids.add(r["id"])
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
