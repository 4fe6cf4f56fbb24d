// A record: one YAML file, validated, with the marks of every node.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "qsel/loader/marks.h"

namespace qsel {

enum class Kind { Format, Accelerator, Target, Kernel, Engine, Matrix, Benchmark, Gotcha, Model, Technique, Fact, Question };

struct KindInfo {
  Kind kind;
  const char* name;    // "format"
  const char* plural;  // "formats": the folder under data/
};

const std::vector<KindInfo>& all_kinds();
const char* kind_name(Kind k);
const char* kind_plural(Kind k);
// Engine, kernel and matrix records: what they cite is an engine fact, read at a commit and a date.
bool holds_engine_facts(Kind k);
// Accepts the singular or plural name, any case ("Formats", "format").
std::optional<Kind> parse_kind(std::string_view text);

struct Record {
  std::string id;
  Kind kind = Kind::Format;
  std::string name;
  std::vector<std::string> aliases;
  std::string file;     // path as shown to the user
  nlohmann::json data;  // the whole record as validated
  Marks marks;
  // The record failed its schema and lint keeps it with the offending values
  // removed (so its id, aliases and valid fields still count); never served.
  bool repaired = false;

  Mark mark() const { return marks.at(""); }
  Mark mark_of(const std::string& pointer) const { return marks.at(pointer); }
  // Convenience readers for optional fields.
  // The field's text, or "" when it is absent or not a string: a reference into `data` (no copy;
  // the deliberation reads ids and targets millions of times in a grid sweep).
  const std::string& str(const char* field) const;
  std::vector<std::string> strings(const std::string& pointer) const;
};

// Fills id, name and aliases from `data` (after validation).
void fill_common(Record& r);

}  // namespace qsel
