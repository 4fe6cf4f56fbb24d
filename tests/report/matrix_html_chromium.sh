#!/bin/sh
# qsel matrix --format html, drawn by headless Chromium and checked cell by cell: each
# cell of the screenshot has the colour of the verdict `--format json` gives it (the
# colours are render_matrix_html.cc's kLooks; the PNG is decoded with zlib alone).
# Usage: matrix_html_chromium.sh QSEL. Exit 77 (skipped) without chromium or python3.
set -eu
qsel=$1
. "$(dirname "$0")/chromium_env.sh"
"$qsel" matrix --format html --vendor nvidia > "$work/grid.html"
"$qsel" matrix --format json --verdicts --vendor nvidia > "$work/grid.json"
timeout 120 "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir="$work/profile" \
  --window-size=1400,2400 --screenshot="$work/grid.png" "file://$work/grid.html" > "$work/chromium.log" 2>&1 \
  || { echo "chromium failed: $(tail -3 "$work/chromium.log")"; exit 1; }
exec python3 - "$work/grid.png" "$work/grid.json" "$qsel" <<'PY'
import json, struct, subprocess, sys, zlib

def png_rgb(path):
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, w = 8, b"", 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and ctype in (2, 6), f"PNG type {ctype}/{depth}"
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw, rows, prev, i = zlib.decompress(idat), [], bytearray(w * bpp), 0
    for _ in range(h):
        f, line = raw[i], bytearray(raw[i + 1:i + 1 + w * bpp])
        i += 1 + w * bpp
        for x in range(len(line)):
            a = line[x - bpp] if x >= bpp else 0
            b, c = prev[x], prev[x - bpp] if x >= bpp else 0
            if f == 1: line[x] = (line[x] + a) & 255
            elif f == 2: line[x] = (line[x] + b) & 255
            elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[x * bpp:x * bpp + 3]) for x in range(w)])
        prev = line
    return rows

img, grid = png_rgb(sys.argv[1]), json.load(open(sys.argv[2]))
colors = {"native": "#16a34a", "dequant": "#2563eb", "emulated": "#f59e0b", "contested": "#dc2626", "unsupported": "#9ca3af", "unknown": "#ffffff"}
rgb = {v: tuple(int(c[i:i + 2], 16) for i in (1, 3, 5)) for v, c in colors.items()}
coloured = set(rgb[v] for v in rgb if v != "unknown")
# the grid's first cell: the first pixel from the top in a verdict colour (the legend is below the grid)
y0 = next(y for y, row in enumerate(img) if any(p in coloured for p in row))
x0 = next(x for x, p in enumerate(img[y0]) if p in coloured)
def runs(pixels, start):  # (start, end) of each cell along a line: runs between border pixels
    out, begin = [], None
    for i, p in enumerate(pixels[start:], start):
        border = p == (229, 231, 235)
        if begin is None and not border: begin = i
        elif begin is not None and border: out.append((begin, i)); begin = None
    return out
columns = runs(img[y0 + 2], x0)[:len(grid["targets"])]
rows = runs([img[y][x0 + 2] for y in range(len(img))], y0)[:len(grid["formats"])]
assert len(columns) == len(grid["targets"]), f"{len(columns)} columns found, {len(grid['targets'])} expected"
assert len(rows) == len(grid["formats"]), f"{len(rows)} rows found, {len(grid['formats'])} expected"
bad = []
for r, f in zip(rows, grid["formats"]):
    for c, t in zip(columns, grid["targets"]):
        want = f["cells"][t["id"]]["verdict"]
        got = img[r[0] + 2][c[0] + 2]
        if got != rgb[want]: bad.append(f"{f['id']} on {t['id']}: {want} {rgb[want]}, screenshot {got}")
print(f"matrix html: {len(rows)} x {len(columns)} cells checked in the screenshot, {len(bad)} wrong")
for b in bad[:10]: print("  " + b)
sys.exit(1 if bad else 0)
PY
