#include "qsel/lint/baseline.h"

#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "qsel/core/errors.h"
#include "qsel/core/text.h"
#include "qsel/core/text_file.h"
#include "qsel/lint/errors.h"

namespace qsel {
namespace fs = std::filesystem;
namespace {

constexpr const char* kFormatKey = "qsel_baseline";

nlohmann::json parse_file(const fs::path& file) {
  std::string text;
  try {
    text = read_text_file(file.string(), 16 << 20, "baseline");
  } catch (const UsageError& e) {
    throw LintInputError(e.what());
  }
  const std::string shown = file.generic_string();
  if (json_nesting(text) > kMaxJsonNesting)
    throw LintInputError(fmt::format("{}: JSON nested deeper than {} levels (a qsel baseline expected)", shown, kMaxJsonNesting));
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception&) {
    j = nullptr;
  }
  // The version is the integer 1, not 1.5 or true (nlohmann's value() would convert both).
  bool versioned = j.is_object() && j.contains(kFormatKey) && j[kFormatKey].is_number_integer() && j[kFormatKey].get<long long>() == 1;
  if (!versioned || !j.contains("findings") || !j["findings"].is_array())
    throw LintInputError(fmt::format("{}: not a qsel baseline (expected JSON written by `qsel lint --write-baseline`)", shown));
  // Every entry's fields are strings: a number where one belongs was an unlocated "internal error".
  const auto& list = j["findings"];
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (!list[i].is_object())
      throw LintInputError(fmt::format("{}: /findings/{}: expected an object with code, file, record and message, got {}", shown, i,
                                       quote_value(list[i].dump(-1, ' ', false, nlohmann::json::error_handler_t::replace))));
    for (const char* field : {"code", "file", "record", "message"})
      if (list[i].contains(field) && !list[i][field].is_string())
        throw LintInputError(fmt::format("{}: /findings/{}/{}: expected a string, got {}", shown, i, field,
                                         quote_value(list[i][field].dump(-1, ' ', false, nlohmann::json::error_handler_t::replace))));
  }
  return j;
}

}  // namespace

std::string relative_to(const std::string& file, const fs::path& dir) {
  if (dir.empty()) return fs::path(file).lexically_normal().generic_string();
  std::error_code ec, ec2;
  fs::path abs_file = fs::absolute(file, ec), abs_dir = fs::absolute(dir, ec2);
  if (ec || ec2) return fs::path(file).lexically_normal().generic_string();
  fs::path rel = abs_file.lexically_normal().lexically_relative(abs_dir.lexically_normal());
  return rel.empty() ? fs::path(file).generic_string() : rel.generic_string();
}

Baseline Baseline::read(const fs::path& file) {
  Baseline b;
  b.dir_ = file.parent_path().empty() ? fs::path(".") : file.parent_path();
  const nlohmann::json doc = parse_file(file);
  for (const auto& e : doc["findings"]) {
    if (!e.is_object()) continue;
    ++b.entries_[{e.value("code", ""), e.value("file", ""), e.value("record", ""), e.value("message", "")}];
  }
  return b;
}

// Both sides of a match go through valid_utf8: the file stores text as JSON (UTF-8), so a
// file name or message with other bytes is compared as it was written, not as it was.
Baseline::Key Baseline::key_of(const Finding& f) const {
  return {valid_utf8(f.code), valid_utf8(relative_to(f.file, dir_)), valid_utf8(f.record), valid_utf8(f.message)};
}

bool Baseline::absorb(const Finding& f) {
  auto it = entries_.find(key_of(f));
  if (it == entries_.end() || it->second == 0) return false;
  --it->second;
  return true;
}

std::string baseline_text(const Findings& findings, const fs::path& file) {
  fs::path dir = file.parent_path().empty() ? fs::path(".") : file.parent_path();
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const Finding& f : findings)
    list.push_back({{"code", valid_utf8(f.code)}, {"file", valid_utf8(relative_to(f.file, dir))}, {"record", valid_utf8(f.record)},
                    {"message", valid_utf8(f.message)}});
  nlohmann::ordered_json doc = {{kFormatKey, 1}, {"findings", list}};
  return doc.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

}  // namespace qsel
