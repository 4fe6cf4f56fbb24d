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

// Everything a finding says, on one line, to compare findings.
inline std::string finding_text(const Finding& f) {
  std::string fix = f.fix ? fmt::format(" fix {}:{} {} -> {}", f.fix->at.line, f.fix->at.column, f.fix->old_text, f.fix->new_text) : "";
  return fmt::format("{}:{}:{}: {} {} {} [{}] {}{}", f.file, f.mark.line, f.mark.column, f.code, f.name,
                     severity_name(f.severity), f.record, f.message, fix);
}

// Lints as `qsel lint` does, with records pruned once their own checks ran, and
// again with every record kept whole, and fails the test when the two differ:
// a corpus part that reads a field its Check::reads does not declare shows up
// here, in the test of whichever rule's corpus exercises it.
inline LintReport lint_both_ways(const std::vector<std::string>& paths, const LintSettings& s) {
  LintReport pruned = lint_once(paths, s, schemas());
  LintReport whole = lint_once(paths, s, schemas(), /*last=*/false, /*prune=*/false);
  REQUIRE(pruned.findings.size() == whole.findings.size());
  for (std::size_t i = 0; i < pruned.findings.size(); ++i)
    REQUIRE(finding_text(pruned.findings[i]) == finding_text(whole.findings[i]));
  return pruned;
}

// Every finding of rule `code` in the corpus at `dir`.
inline Findings lint_code(const std::filesystem::path& dir, const std::string& code) {
  LintSettings s;
  s.select = {code};
  return lint_both_ways({dir.string()}, s).findings;
}

// Every finding in the corpus at `dir`.
inline LintReport lint_all(const std::filesystem::path& dir) { return lint_both_ways({dir.string()}, {}); }

// "formats/x.yaml:9:20: message" with the file relative to `dir`.
inline std::string where(const Finding& f, const std::filesystem::path& dir) {
  std::string file = std::filesystem::path(f.file).lexically_relative(dir).generic_string();
  return fmt::format("{}:{}:{}: {}", file, f.mark.line, f.mark.column, f.message);
}

}  // namespace qsel::test
