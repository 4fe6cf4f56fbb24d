#include "qsel/lint/baseline.h"

#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "qsel/core/errors.h"
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
  try {
    nlohmann::json j = nlohmann::json::parse(text);
    if (j.is_object() && j.value(kFormatKey, 0) == 1 && j.contains("findings") && j["findings"].is_array()) return j;
  } catch (const nlohmann::json::exception&) {
  }
  throw LintInputError(fmt::format("{}: not a qsel baseline (expected JSON written by `qsel lint --write-baseline`)",
                                   file.generic_string()));
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

Baseline::Key Baseline::key_of(const Finding& f) const { return {f.code, relative_to(f.file, dir_), f.record, f.message}; }

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
    list.push_back({{"code", f.code}, {"file", relative_to(f.file, dir)}, {"record", f.record}, {"message", f.message}});
  nlohmann::ordered_json doc = {{kFormatKey, 1}, {"findings", list}};
  return doc.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

}  // namespace qsel
