// Helpers for the lint tests (header-only: the test glob compiles *_test.cc only).
#pragma once
#include <filesystem>
#include <string>

#include <fmt/format.h>

#include "qsel/lint/linter.h"
#include "support/fixtures.h"

namespace qsel::test {

// `text` with the first `from` replaced by `to`; fails the test when `from` is absent.
inline std::string replaced(std::string text, const std::string& from, const std::string& to) {
  auto pos = text.find(from);
  REQUIRE(pos != std::string::npos);
  return text.replace(pos, from.size(), to);
}

// Every finding of rule `code` in the corpus at `dir`.
inline Findings lint_code(const std::filesystem::path& dir, const std::string& code) {
  LintSettings s;
  s.select = {code};
  return lint_once({dir.string()}, s, schemas()).findings;
}

// Every finding in the corpus at `dir`.
inline LintReport lint_all(const std::filesystem::path& dir) { return lint_once({dir.string()}, {}, schemas()); }

// "formats/x.yaml:9:20: message" with the file relative to `dir`.
inline std::string where(const Finding& f, const std::filesystem::path& dir) {
  std::string file = std::filesystem::path(f.file).lexically_relative(dir).generic_string();
  return fmt::format("{}:{}:{}: {}", file, f.mark.line, f.mark.column, f.message);
}

}  // namespace qsel::test
