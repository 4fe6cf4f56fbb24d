#!/usr/bin/env bash
# Install what qsel needs (Debian 12 packages only), build it, and run the main job
# on the embedded corpus. Safe to run again: every step is skipped when already done.
set -euo pipefail
cd "$(dirname "$0")/.."

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

PACKAGES=(build-essential cmake pkg-config libyaml-cpp-dev nlohmann-json3-dev libcli11-dev
          libfmt-dev libspdlog-dev catch2 graphviz
          libcurl4-openssl-dev  # Hub ids and GGUF URLs over HTTP (src/net/http.cc)
          libre2-dev  # every regular expression: schema patterns and log patterns
          dpkg-dev file bash-completion groff-base  # packaging (cpack: dpkg-shlibdeps), completion and man page tests
          zsh fish  # the zsh and fish completion tests run the real shells
          clang libclang-rt-14-dev  # the sanitizer build and the libFuzzer harnesses (scripts/sanitize.sh)
          chromium)  # headless: the HTML outputs (matrix, recommend) are rendered and checked in a real browser
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "bootstrap: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi

# valijson is header-only, but Debian's libvalijson-dev pulls Qt5, Poco, jsoncpp and more
# (hundreds of MB) for adapters we never use. Take just its headers into .deps/.
if [ ! -f .deps/valijson/usr/include/valijson/validator.hpp ]; then
  echo "bootstrap: extracting valijson headers into .deps/valijson" >&2
  tmp="$(mktemp -d)"
  (cd "$tmp" && apt-get download libvalijson-dev >/dev/null 2>&1) || {
    $SUDO apt-get update -qq && (cd "$tmp" && apt-get download libvalijson-dev >/dev/null 2>&1); }
  mkdir -p .deps/valijson
  dpkg-deb -x "$tmp"/libvalijson-dev_*.deb .deps/valijson
  rm -rf "$tmp"
fi

cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build --parallel "$(nproc)" --target qsel
./build/qsel recommend --gpu h100 --model-size 70b
