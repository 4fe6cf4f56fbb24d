#include "qsel/lint/config.h"

#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "qsel/core/errors.h"
#include "qsel/core/text_file.h"

#include "qsel/core/text.h"
#include "qsel/lint/errors.h"
#include "qsel/loader/yaml_reader.h"

namespace qsel {
namespace fs = std::filesystem;
using nlohmann::json;
namespace {

const std::vector<std::string> kKeys = {"select", "ignore", "strict", "baseline", "per-file-ignores", "stale-after"};

// Reads one config document; every error names the file, line and column.
class ConfigReader {
 public:
  ConfigReader(const fs::path& file, YamlDocument doc) : file_(file.generic_string()), doc_(std::move(doc)) {}

  [[noreturn]] void fail(const std::string& pointer, const std::string& msg, bool at_key = false) const {
    Mark m = at_key ? doc_.marks.key_or_value(pointer) : doc_.marks.at(pointer);
    throw LintInputError(located({"", file_, m, "", msg}));
  }

  // A list of strings, or one comma-separated string, as rule codes.
  std::vector<std::string> rules(const std::string& pointer) const {
    const json& v = doc_.value.at(json::json_pointer(pointer));
    std::vector<std::string> items;
    if (v.is_string()) items.push_back(v.get<std::string>());
    for (std::size_t i = 0; v.is_array() && i < v.size(); ++i) {
      if (!v[i].is_string()) fail(pointer_child(pointer, std::to_string(i)), "expected a rule code or name");
      items.push_back(v[i].get<std::string>());
    }
    if (!v.is_string() && !v.is_array()) fail(pointer, "expected a list of rule codes or names");
    try {
      return parse_rule_list(items);
    } catch (const LintInputError& e) {
      fail(pointer, e.what());
    }
  }

  void key(LintSettings& s, const std::string& k) const {
    std::string ptr = pointer_child("", k);
    const json& v = doc_.value[k];
    if (k == "select") {
      s.select = rules(ptr);
    } else if (k == "ignore") {
      s.ignore = rules(ptr);
    } else if (k == "strict") {
      if (!v.is_boolean()) fail(ptr, "expected true or false");
      s.strict = v.get<bool>();
    } else if (k == "stale-after") {
      if (!v.is_string() && !v.is_number_integer()) fail(ptr, "expected a number of months (12) or a duration (12m, 1y, 400d)");
      try {
        s.check_options.stale_after_months = parse_stale_after(v.is_string() ? v.get<std::string>() : std::to_string(v.get<long long>()));
      } catch (const LintInputError& e) {
        fail(ptr, e.what());
      }
    } else if (k == "baseline") {
      if (!v.is_string()) fail(ptr, "expected a file path (relative to the config file)");
      s.baseline = (s.base_dir / v.get<std::string>()).lexically_normal().generic_string();
    } else {
      per_file(s, ptr, v);
    }
  }

  void per_file(LintSettings& s, const std::string& ptr, const json& v) const {
    if (!v.is_object()) fail(ptr, "expected a mapping of file glob to rule codes");
    for (const auto& [glob, _] : v.items()) s.per_file_ignores.push_back({glob, rules(pointer_child(ptr, glob))});
  }

  LintSettings read(const fs::path& dir) const {
    if (!doc_.ok()) throw LintInputError(located(doc_.problems.front()));
    if (!doc_.value.is_object()) fail("", "expected a mapping of settings (select, ignore, strict, baseline, per-file-ignores, stale-after)");
    LintSettings s;
    s.base_dir = dir;
    for (const auto& [k, _] : doc_.value.items()) {
      if (std::find(kKeys.begin(), kKeys.end(), k) == kKeys.end()) {
        auto near = nearest(k, kKeys, 1);
        fail(pointer_child("", k), fmt::format("unknown setting \"{}\"{}", k, near.empty() ? "" : fmt::format("; did you mean \"{}\"?", near[0])), true);
      }
      key(s, k);
    }
    return s;
  }

 private:
  std::string file_;
  YamlDocument doc_;
};

}  // namespace

std::optional<fs::path> find_config(const fs::path& start) {
  std::error_code ec;
  std::error_code aec;
  fs::path dir = fs::absolute(start, aec).lexically_normal();
  if (aec) return std::nullopt;
  if (!fs::is_directory(dir, ec)) dir = dir.parent_path();
  for (;;) {
    if (fs::is_regular_file(dir / kConfigFileName, ec)) return dir / kConfigFileName;
    if (fs::exists(dir / ".git", ec)) return std::nullopt;  // the repository's root: a config above it is someone else's
    if (!dir.has_relative_path()) return std::nullopt;
    dir = dir.parent_path();
  }
}

LintSettings read_config(const fs::path& file) {
  std::string text;
  try {
    text = read_text_file(file.string(), 1 << 20, "lint config");
  } catch (const UsageError& e) {
    throw LintInputError(e.what());
  }
  std::error_code ec;
  fs::path shown = fs::proximate(file, ec);
  ConfigReader reader(ec ? file : shown, read_yaml(text, (ec ? file : shown).generic_string()));
  return reader.read(file.parent_path());
}

}  // namespace qsel
