#!/bin/sh
# qsel recommend --format html, loaded by headless Chromium: the DOM it builds has the
# chart, the ringed #1, the frontier, a marker or a "not on the chart" line for every
# candidate of --format json, a memory bar and a table row for each; the page references
# nothing over the network; --format svg parses as XML (xmllint, where installed).
# Usage: recommend_html_chromium.sh QSEL. Exit 77 (skipped) without chromium or python3.
set -eu
qsel=$1
. "$(dirname "$0")/chromium_env.sh"
args="--gpu h100 --model-size 70b"
# exit 1 (nothing viable) still draws the page; 2 is an error
"$qsel" recommend $args --format html -q > "$work/choice.html" || [ $? -eq 1 ]
"$qsel" recommend $args --format json -q > "$work/choice.json" || [ $? -eq 1 ]
"$qsel" recommend $args --format svg -q > "$work/choice.svg" || [ $? -eq 1 ]
if grep -n -E 'https?:' "$work/choice.html"; then echo "the page references the network"; exit 1; fi
if command -v xmllint >/dev/null 2>&1; then
  xmllint --noout "$work/choice.svg" || { echo "--format svg is not well-formed XML"; exit 1; }
else
  echo "note: no xmllint, --format svg not parsed"
fi
timeout 60 "$browser" --headless --no-sandbox --disable-gpu --user-data-dir="$work/profile" \
  --dump-dom "file://$work/choice.html" > "$work/dom.html" 2> "$work/chromium.log" \
  || { echo "chromium failed: $(tail -3 "$work/chromium.log")"; exit 1; }
exec python3 - "$work/dom.html" "$work/choice.json" <<'PY'
import json, sys
from html.parser import HTMLParser

class Dom(HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids, self.points, self.bars, self.rows, self.left_out, self.frontier = set(), set(), set(), set(), set(), set()
        self.parents = []
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        cls = (a.get("class") or "").split()
        if "id" in a: self.ids.add(a["id"])
        if tag == "g" and "point" in cls:
            self.points.add(int(a["data-rank"]))
            if "frontier" in cls: self.frontier.add(int(a["data-rank"]))
        if tag == "g" and "bar" in cls: self.bars.add(int(a["data-rank"]))
        if tag == "tr" and a.get("id", "").startswith("row-"): self.rows.add(int(a["id"][4:]))
        if tag == "li" and "data-rank" in a: self.left_out.add(int(a["data-rank"]))
        if tag in ("script", "img", "link", "iframe", "object", "embed"): raise SystemExit(f"the page has a <{tag}>")

dom = Dom()
dom.feed(open(sys.argv[1], encoding="utf-8").read())
result = json.load(open(sys.argv[2]))
ranks = {c["rank"] for c in result["candidates"]}
sized = {c["rank"] for c in result["candidates"] if c.get("total_gb") is not None}
bad = []
for want in ("chart", "top", "frontier", "points", "memory", "candidates"):
    if want not in dom.ids: bad.append(f"no element with id {want}")
if 1 not in dom.points: bad.append("#1 is not on the chart")
if dom.points & dom.left_out: bad.append(f"both drawn and left out: {sorted(dom.points & dom.left_out)}")
if dom.points | dom.left_out != ranks: bad.append(f"neither drawn nor left out: {sorted(ranks - dom.points - dom.left_out)}")
if not dom.frontier: bad.append("no marker on the frontier")
if dom.rows != ranks: bad.append(f"table rows {len(dom.rows)}, candidates {len(ranks)}")
if dom.bars != sized: bad.append(f"memory bars {len(dom.bars)}, sized candidates {len(sized)}")
print(f"recommend html: {len(ranks)} candidates, {len(dom.points)} drawn ({len(dom.frontier)} on the frontier), "
      f"{len(dom.left_out)} left out, {len(dom.bars)} memory bars; {len(bad)} problems")
for b in bad: print("  " + b)
sys.exit(1 if bad else 0)
PY
