"""Writes the build scripts' output: one JSON object per line, ids unique, non-ASCII kept as is."""
import json
import os
import tempfile


def write_unique_jsonl(path, records):
    # A new file renamed over the target: a link planted at `path` is replaced, never written through.
    ids = set()
    handle, temporary = tempfile.mkstemp(dir=os.path.dirname(os.path.abspath(path)), suffix=".partial")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as f:
            for r in records:
                assert r["id"] not in ids, r["id"]
                ids.add(r["id"])
                f.write(json.dumps(r, ensure_ascii=False) + "\n")
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise
