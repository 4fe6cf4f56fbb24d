#!/bin/sh
# Installs qsel the two ways a user gets it and runs the installed copy:
#   1. cmake --install into a scratch prefix;
#   2. cpack's .deb, unpacked into a scratch root (dpkg -x: no root needed), with
#      its Depends checked against the libraries the binary links.
# Usage: install_test.sh BUILD_DIR SOURCE_DIR. Exit 77 (skipped) without cpack or dpkg-deb.
set -eu
build=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)
command -v cpack >/dev/null 2>&1 && command -v dpkg-deb >/dev/null 2>&1 || { echo "skip: no cpack or dpkg-deb"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "install_test: FAIL: $*" >&2; exit 1; }

check_copy() {  # $1: the installed prefix (…/usr or a stage dir); $2: where zsh completions go there
  prefix=$1
  q="$prefix/bin/qsel"
  [ -x "$q" ] || fail "no $q"
  "$q" --version | grep -q '^qsel [0-9.]* (corpus embedded: ' || fail "--version"
  (cd "$work" && "$q" recommend --gpu h100 --model-size 70b) > "$work/rec.txt" || fail "recommend exit $?"
  grep -q 'fp8' "$work/rec.txt" || fail "recommend output"
  (cd "$work" && "$q" lint "$prefix/share/qsel/data") > "$work/lint.txt" || fail "lint of the installed corpus: $(tail -3 "$work/lint.txt")"
  grep -q '^0 errors' "$work/lint.txt" || fail "lint summary: $(tail -1 "$work/lint.txt")"
  [ -s "$prefix/share/man/man1/qsel.1.gz" ] || fail "no compressed man page"
  gzip -dc "$prefix/share/man/man1/qsel.1.gz" | grep -q '^\.TH QSEL 1' || fail "the man page does not start with .TH"
  [ -s "$prefix/share/doc/qsel/changelog.gz" ] || fail "no changelog"
  [ -s "$prefix/share/bash-completion/completions/qsel" ] || fail "no bash completion"
  [ -s "$prefix/share/zsh/$2/_qsel" ] || fail "no zsh completion in share/zsh/$2"
  [ -s "$prefix/share/fish/vendor_completions.d/qsel.fish" ] || fail "no fish completion"
  [ -s "$prefix/share/qsel/schemas/output/recommend.schema.json" ] || fail "no output schemas"
  [ -s "$prefix/share/doc/qsel/copyright" ] || fail "no copyright"
  # The installed completion completes `qsel rec` to recommend.
  got=$(bash -c ". '$prefix/share/bash-completion/completions/qsel'; COMP_WORDS=(qsel rec); COMP_CWORD=1; _qsel; echo \"\${COMPREPLY[*]}\"")
  [ "$got" = "recommend" ] || fail "bash completion of 'qsel rec' gave '$got'"
}

# 1. cmake --install
cmake --install "$build" --prefix "$work/stage" > "$work/install.log" || fail "cmake --install: $(tail -3 "$work/install.log")"
check_copy "$work/stage" site-functions
grep -q 'zsh completion: add  fpath=(' "$work/install.log" || fail "cmake --install to a private prefix does not say how to reach the zsh completion"
echo "install_test: cmake --install: ok"

# 2. the .deb
(cd "$work" && cpack --config "$build/CPackConfig.cmake" -B "$work/pkg" > "$work/cpack.log" 2>&1) || fail "cpack: $(tail -5 "$work/cpack.log")"
deb=$(ls "$work"/pkg/qsel_*.deb 2>/dev/null | head -1)
[ -n "$deb" ] || fail "cpack made no .deb: $(ls "$work/pkg")"
dpkg-deb -I "$deb" > "$work/info.txt"
depends=$(sed -n 's/^ Depends: //p' "$work/info.txt")
for lib in libyaml-cpp0.7 libfmt9 libspdlog1.10 libcurl4 libre2-9 libstdc++6 libc6; do
  echo "$depends" | grep -q "$lib" || fail "Depends lacks $lib: $depends"
done
echo "install_test: $(basename "$deb"): Depends: $depends"
dpkg-deb -c "$deb" > "$work/contents.txt"
grep -q '\./usr/bin/qsel$' "$work/contents.txt" || fail "the .deb has no /usr/bin/qsel"
dpkg-deb -x "$deb" "$work/root"
check_copy "$work/root/usr" vendor-completions
echo "install_test: .deb unpacked into a scratch root: ok"
# 3. lintian, when installed: the .deb stays clean (errors and warnings; info tags are advice)
if command -v lintian >/dev/null 2>&1; then
  lintian --fail-on error,warning "$deb" > "$work/lintian.txt" 2>&1 \
    || fail "lintian: $(grep -E '^(E|W):' "$work/lintian.txt" | head -5)"
  echo "install_test: lintian: clean"
else
  echo "install_test: lintian not installed: skipped"
fi
