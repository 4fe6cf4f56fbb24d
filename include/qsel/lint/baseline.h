// Baselines let an existing corpus adopt the linter: known findings are
// recorded once and only new ones fail. A finding matches a baseline entry by
// code, file, record and message — not by line, so edits elsewhere keep it valid.
#pragma once
#include <filesystem>
#include <map>
#include <string>
#include <tuple>

#include "qsel/lint/finding.h"

namespace qsel {

class Baseline {
 public:
  // Throws LintInputError when the file is missing or not a qsel baseline.
  static Baseline read(const std::filesystem::path& file);

  // True (and uses up one entry) when `f` is in the baseline.
  bool absorb(const Finding& f);

 private:
  using Key = std::tuple<std::string, std::string, std::string, std::string>;
  Key key_of(const Finding& f) const;
  std::filesystem::path dir_;
  std::map<Key, int> entries_;
};

// The baseline file's text for `findings`; paths are stored relative to the file's folder.
std::string baseline_text(const Findings& findings, const std::filesystem::path& file);

// `file` (as shown) relative to `dir`, '/'-separated.
std::string relative_to(const std::string& file, const std::filesystem::path& dir);

}  // namespace qsel
