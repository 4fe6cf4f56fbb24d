# Sourced by the headless-Chromium tests (matrix_html_chromium.sh, recommend_html_chromium.sh):
# finds the browser ($browser) and a scratch folder removed on exit ($work); exits 77 (skipped)
# without chromium or python3.
browser=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
[ -n "$browser" ] || { echo "skip: no chromium"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "skip: no python3"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
