#include "qsel/lint/settings.h"

#include <algorithm>
#include <charconv>
#include <fnmatch.h>
#include <sstream>

#include <fmt/format.h>

#include "qsel/core/text.h"
#include "qsel/lint/baseline.h"
#include "qsel/lint/errors.h"
#include "qsel/lint/registry.h"

namespace qsel {
namespace {

std::string trim(const std::string& s) {
  auto b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

bool contains(const std::vector<std::string>& list, const std::string& code) {
  return std::find(list.begin(), list.end(), code) != list.end();
}

}  // namespace

std::vector<std::string> parse_rule_list(const std::vector<std::string>& items) {
  std::vector<std::string> codes;
  for (const auto& item : items) {
    std::stringstream ss(item);
    for (std::string word; std::getline(ss, word, ',');) {
      word = trim(word);
      if (word.empty()) continue;
      const RuleInfo* rule = find_rule(word);
      if (!rule) {
        auto near = suggest_rules(word);
        throw LintInputError(fmt::format("unknown rule \"{}\"{}", word,
                                         near.empty() ? "; `qsel lint --list-rules` lists them"
                                                      : fmt::format("; did you mean \"{}\"?", near[0])));
      }
      if (!contains(codes, std::string(rule->code))) codes.emplace_back(rule->code);
    }
  }
  return codes;
}

int parse_stale_after(const std::string& text) {
  std::string digits = text;
  char unit = 'm';
  if (!digits.empty() && (digits.back() == 'm' || digits.back() == 'y' || digits.back() == 'd')) {
    unit = digits.back();
    digits.pop_back();
  }
  long long n = -1;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
  if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size() || n <= 0 || n > 100000)
    throw LintInputError(fmt::format("--stale-after: expected a number of months (12, 12m), years (1y) or days (400d): {}", quote_value(text)));
  long long months = unit == 'y' ? n * 12 : unit == 'd' ? n * 12 / 365 : n;
  if (months < 1 || months > 600)
    throw LintInputError(fmt::format("--stale-after: expected between 1 and 600 months, got {} months: {}", months, quote_value(text)));
  return static_cast<int>(months);
}

bool path_matches(const std::string& pattern, const std::string& path) {
  if (fnmatch(pattern.c_str(), path.c_str(), FNM_PATHNAME) == 0) return true;
  if (pattern.find('/') != std::string::npos) return false;
  std::string name = path.substr(path.rfind('/') == std::string::npos ? 0 : path.rfind('/') + 1);
  return fnmatch(pattern.c_str(), name.c_str(), 0) == 0;
}

bool LintSettings::rule_enabled(const std::string& code) const {
  return (select.empty() || contains(select, code)) && !contains(ignore, code);
}

bool LintSettings::keeps(const Finding& f) const {
  if (!rule_enabled(f.code)) return false;
  if (per_file_ignores.empty()) return true;
  std::string rel = relative_to(f.file, base_dir);
  return std::none_of(per_file_ignores.begin(), per_file_ignores.end(), [&](const PerFileIgnore& p) {
    return contains(p.codes, f.code) && path_matches(p.pattern, rel);
  });
}

}  // namespace qsel
