#!/usr/bin/env python3
"""Draw the sampled self-audit of docs/data-audit.md: N support claims and N numbers
from data/, at random with a fixed seed, printed as JSON lines (file, pointer, claim).

  scripts/dev/audit_draw.py --seed 25 --n 60 > /tmp/draw1.jsonl

With --by-kind (draw 3, issue 40) it draws N items from each of six populations
instead: quality rows, speed rows (attributable ones: rows graded unverified say
themselves that no source holds them), support claims, accelerator numbers, model
numbers and citations (a source with a url and a quote: does the address hold it?).

  scripts/dev/audit_draw.py --seed 40 --n 20 --by-kind > /tmp/draw3.jsonl

Support claims: every entry of a format's native_support / emulated_support, every
matrix cell, every (engine, kernel, format, target) of an engine's kernel_selection.
Numbers: every numeric leaf of accelerator, target, format, model and benchmark
records (bookkeeping fields such as confidence are left out). The population is
sorted before sampling, so the same corpus and seed give the same draw."""
import argparse, json, pathlib, random, sys
import yaml

SKIP = {"confidence", "schema_version"}

def leaves(node, pointer):
    if isinstance(node, dict):
        for k, v in node.items():
            if k in SKIP or k == "sources" or k == "contested_by": continue
            yield from leaves(v, f"{pointer}/{k}")
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from leaves(v, f"{pointer}/{i}")
    elif isinstance(node, (int, float)) and not isinstance(node, bool):
        yield pointer, node

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--n", type=int, default=60)
    ap.add_argument("--data", default="data")
    ap.add_argument("--by-kind", action="store_true")
    a = ap.parse_args()
    support, numbers = [], []
    by_kind = {k: [] for k in ("quality", "speed", "support", "accelerator", "model", "citation")}
    for path in sorted(pathlib.Path(a.data).rglob("*.yaml")):
        rel = str(path.relative_to(a.data))
        r = yaml.safe_load(path.read_text())
        kind = r.get("kind")
        if kind == "format":
            for lst in ("native_support", "emulated_support"):
                for i, acc in enumerate(r.get(lst) or []):
                    support.append((rel, f"/{lst}/{i}", f"{r['id']} is {lst.split('_')[0]} on {acc}"))
        if kind == "matrix":
            for ri, row in enumerate(r.get("rows") or []):
                for col, cell in (row.get("cells") or {}).items():
                    support.append((rel, f"/rows/{ri}/cells/{col}", f"{r['id']} row {row.get('key')} column {col} = {cell!r}"))
        if kind == "engine":
            for ki, ks in enumerate(r.get("kernel_selection") or []):
                targets = (ks.get("when") or {}).get("targets") or ["(any target)"]
                for f in ks.get("formats") or []:
                    for t in targets:
                        support.append((rel, f"/kernel_selection/{ki}", f"{r['id']} serves {f} on {t} with kernel {ks.get('kernel')}"))
        if kind in ("accelerator", "target", "format", "model", "benchmark"):
            for pointer, v in leaves(r, ""):
                numbers.append((rel, pointer, f"{r['id']}{pointer} = {v}"))
        if kind == "benchmark" and "quality" in r:
            q = r["quality"]
            by_kind["quality"].append((rel, "/quality/value", f"{r['id']} {q.get('metric')} = {q.get('value')} (value {r.get('value')})"))
        if kind == "benchmark" and "speed" in r and r.get("grade") != "unverified":
            s = r["speed"]
            by_kind["speed"].append((rel, "/speed/tok_s", f"{r['id']} {s.get('phase')} tok_s = {s.get('tok_s')}"))
        if kind == "accelerator":
            for pointer, v in leaves({k: x for k, x in r.items() if k != "census"}, ""):
                by_kind["accelerator"].append((rel, pointer, f"{r['id']}{pointer} = {v}"))
        if kind == "model":
            for pointer, v in leaves({k: x for k, x in r.items() if k not in ("releases",)}, ""):
                by_kind["model"].append((rel, pointer, f"{r['id']}{pointer} = {v}"))
        for i, s in enumerate(r.get("sources") or []):
            if isinstance(s, dict) and s.get("url") and s.get("quote"):
                by_kind["citation"].append((rel, f"/sources/{i}", f"{r['id']} cites {s['url']} for: {str(s['quote'])[:160]}"))
    by_kind["support"] = support
    rng = random.Random(a.seed)
    if a.by_kind:
        for label, pop in by_kind.items():
            for rel, pointer, claim in rng.sample(sorted(pop), min(a.n, len(pop))):
                print(json.dumps({"kind": label, "file": "data/" + rel, "pointer": pointer, "claim": claim}))
        print(json.dumps({"population": {k: len(v) for k, v in by_kind.items()}}), file=sys.stderr)
        return
    for label, pop in (("support", support), ("number", numbers)):
        for rel, pointer, claim in rng.sample(sorted(pop), min(a.n, len(pop))):
            print(json.dumps({"kind": label, "file": "data/" + rel, "pointer": pointer, "claim": claim}))
    print(json.dumps({"population": {"support": len(support), "number": len(numbers)}}), file=sys.stderr)

if __name__ == "__main__":
    main()
