#define VALIJSON_USE_EXCEPTIONS 1
#include "qsel/loader/schema_set.h"
#include "qsel/core/json_number.h"

#include <algorithm>
#include <optional>
#include <set>
#include <stdexcept>

#include <fmt/format.h>
#include <re2/re2.h>
#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>

#include "qsel/core/text.h"
#include "schema_patterns.h"

namespace qsel {
using nlohmann::json;
namespace {

std::string type_name(const json& v) {
  if (v.is_null()) return "null";
  if (v.is_boolean()) return "boolean";
  if (v.is_number_integer() || v.is_number_unsigned()) return "integer";
  if (v.is_number()) return "number";
  if (v.is_string()) return "string";
  if (v.is_array()) return "list";
  return "mapping";
}

std::string shown_value(const json& v) {
  if (v.is_string()) return quote_value(v.get<std::string>());
  if (v.is_array()) return "a list";
  if (v.is_object()) return "a mapping";
  return v.dump();
}

bool type_matches(const json& v, const std::string& t) {
  if (t == "integer") return v.is_number_integer() || v.is_number_unsigned() ||
                             (v.is_number_float() && v.get<double>() == static_cast<double>(static_cast<long long>(v.get<double>())));
  if (t == "number") return v.is_number();
  if (t == "string") return v.is_string();
  if (t == "boolean") return v.is_boolean();
  if (t == "array") return v.is_array();
  if (t == "object") return v.is_object();
  if (t == "null") return v.is_null();
  return true;
}

const json& deref(const json& root, const json& node) {
  if (node.is_object() && node.contains("$ref")) {
    std::string ref = node["$ref"].get<std::string>();
    if (ref.rfind("#", 0) == 0) return root.at(json::json_pointer(ref.substr(1)));
  }
  return node;
}

std::string join_types(const json& t) {
  auto name = [](const std::string& s) { return s == "array" ? "list" : s == "object" ? "mapping" : s; };
  if (t.is_string()) return name(t.get<std::string>());
  std::vector<std::string> parts;
  for (const auto& x : t) parts.push_back(name(x.get<std::string>()));
  return fmt::format("{}", fmt::join(parts, " or "));
}

// Schema node for the child `token` of `node`.
const json* child_schema(const json& root, const json& node, const std::string& token, bool is_index) {
  const json& n = deref(root, node);
  if (is_index && n.contains("items")) return &deref(root, n["items"]);
  if (!is_index && n.contains("properties") && n["properties"].contains(token)) return &deref(root, n["properties"][token]);
  if (!is_index && n.contains("additionalProperties") && n["additionalProperties"].is_object())
    return &deref(root, n["additionalProperties"]);
  return nullptr;
}

// valijson contexts look like ["<root>", "[bpw]", "[measured]", "[0]"].
std::string context_to_pointer(const std::vector<std::string>& ctx) {
  std::string ptr;
  for (const auto& c : ctx) {
    if (c == "<root>") continue;
    std::string tok = c;
    if (tok.size() >= 2 && tok.front() == '[' && tok.back() == ']') tok = tok.substr(1, tok.size() - 2);
    if (tok.size() >= 2 && tok.front() == '"' && tok.back() == '"') tok = tok.substr(1, tok.size() - 2);
    ptr = pointer_child(ptr, tok);
  }
  return ptr;
}

// Records are validated on several threads at once: each has its own cache. Every
// schema pattern compiles under RE2 (SchemaPatterns refuses a schema otherwise).
bool matches_pattern(const std::string& pattern, const std::string& text) {
  thread_local std::map<std::string, std::unique_ptr<RE2>, std::less<>> cache;
  auto it = cache.find(pattern);
  if (it == cache.end()) {
    RE2::Options options;
    options.set_log_errors(false);
    it = cache.emplace(pattern, std::make_unique<RE2>(pattern, options)).first;
  }
  return it->second->ok() && RE2::PartialMatch(text, *it->second);
}

}  // namespace

std::string explain_violation(const json& root, const json& node_in, const json& v) {
  const json& node = deref(root, node_in);
  if (node.contains("type")) {
    const json& t = node["type"];
    bool ok = t.is_string() ? type_matches(v, t.get<std::string>())
                            : std::any_of(t.begin(), t.end(), [&](const json& x) { return type_matches(v, x.get<std::string>()); });
    if (!ok) return v.is_null() ? fmt::format("expected {}, got null", join_types(t))
                                : fmt::format("expected {}, got {} {}", join_types(t), type_name(v), shown_value(v));
  }
  if (node.contains("const") && node["const"] != v)
    return fmt::format("expected {}, got {}", node["const"].dump(), shown_value(v));
  if (node.contains("enum") && std::find(node["enum"].begin(), node["enum"].end(), v) == node["enum"].end()) {
    std::vector<std::string> opts;
    for (const auto& e : node["enum"]) opts.push_back(e.dump());
    return fmt::format("expected one of {}, got {}", fmt::join(opts, ", "), shown_value(v));
  }
  if (v.is_number()) {
    double x = v.get<double>();
    if (node.contains("minimum") && x < node["minimum"].get<double>())
      return fmt::format("expected at least {}, got {}", node["minimum"].dump(), v.dump());
    if (node.contains("exclusiveMinimum") && x <= node["exclusiveMinimum"].get<double>())
      return fmt::format("expected more than {}, got {}", node["exclusiveMinimum"].dump(), v.dump());
    if (node.contains("maximum") && x > node["maximum"].get<double>())
      return fmt::format("expected at most {}, got {}", node["maximum"].dump(), v.dump());
  }
  if (v.is_string()) {
    auto n = utf8_length(v.get<std::string>());
    if (node.contains("minLength") && n < node["minLength"].get<std::size_t>()) return "expected a non-empty string";
    if (node.contains("maxLength") && n > node["maxLength"].get<std::size_t>())
      return fmt::format("expected at most {} characters, got {}", node["maxLength"].dump(), n);
    if (node.contains("pattern") && !matches_pattern(node["pattern"].get<std::string>(), v.get<std::string>()))
      return node.contains("description") && node["description"].is_string()  // the pattern in words
                 ? fmt::format("expected {}, got {}", node["description"].get<std::string>(), shown_value(v))
                 : fmt::format("expected a value matching {}, got {}", node["pattern"].dump(), shown_value(v));
  }
  if (v.is_array()) {
    if (node.contains("minItems") && v.size() < node["minItems"].get<std::size_t>())
      return fmt::format("expected at least {} item(s), got {}", node["minItems"].dump(), v.size());
    if (node.value("uniqueItems", false))
      for (std::size_t i = 0; i < v.size(); ++i)
        for (std::size_t j = i + 1; j < v.size(); ++j)
          if (v[i] == v[j]) return fmt::format("expected unique items, {} appears twice", shown_value(v[i]));
  }
  return "";
}

struct SchemaSet::Compiled {
  json document;
  json for_valijson;  // the document less the patterns `patterns` checks
  std::optional<SchemaPatterns> patterns;
  valijson::Schema schema;

  bool run_valijson(const json& record, valijson::ValidationResults* results) const {
    // One validator per thread for the life of the process: valijson compiles a
    // `pattern` into a std::regex on first use and keeps it in the validator, so
    // a fresh validator per record paid that compile for every record.
    thread_local valijson::Validator validator;
    valijson::adapters::NlohmannJsonAdapter target(record);
    return validator.validate(schema, target, results);
  }
};

SchemaSet::SchemaSet(const std::map<std::string, json>& schemas) {
  for (const auto& [kind, doc] : schemas) {
    auto c = std::make_unique<Compiled>();
    c->document = doc;
    c->for_valijson = doc;
    try {
      c->patterns.emplace(c->document, c->for_valijson);
      valijson::SchemaParser parser;
      valijson::adapters::NlohmannJsonAdapter adapter(c->for_valijson);
      parser.populateSchema(adapter, c->schema);
    } catch (const std::exception& e) {
      throw std::runtime_error(fmt::format("schema for kind \"{}\" is unusable: {}", kind, e.what()));
    }
    compiled_[kind] = std::move(c);
  }
}

SchemaSet::~SchemaSet() = default;

bool SchemaSet::has_kind(const std::string& kind) const { return compiled_.count(kind) > 0; }

const json& SchemaSet::schema(const std::string& kind) const { return compiled_.at(kind)->document; }

namespace {

// Missing required fields and unknown fields of one object, with our wording.
void object_problems(const json& root, const json& node_in, const json& v, const std::string& ptr,
                     std::vector<std::pair<std::string, std::string>>& out) {
  const json& node = deref(root, node_in);
  if (!v.is_object()) return;
  // A misspelt required field is one mistake: the unknown field's message says
  // which required field it should be, and no separate "missing" line is added.
  std::set<std::string> misspelt;
  if (node.contains("additionalProperties") && node["additionalProperties"] == false) {
    const json props = object_field(node, "properties");
    for (const auto& [k, _] : v.items())
      if (!props.contains(k)) {
        std::vector<std::string> known;
        for (const auto& [pk, __] : props.items()) known.push_back(pk);
        auto near = nearest(k, known, 1);
        bool required_missing = false;
        if (!near.empty() && !v.contains(near[0]))
          for (const auto& r : array_field(node, "required")) required_missing = required_missing || r == near[0];
        if (required_missing) misspelt.insert(near[0]);
        out.emplace_back(pointer_child(ptr, k),
                         near.empty() ? fmt::format("unknown field \"{}\"", k)
                                      : fmt::format("unknown field \"{}\"; did you mean \"{}\"?{}", k, near[0],
                                                    required_missing ? " (a required field, missing)" : ""));
      }
  }
  for (const auto& r : array_field(node, "required"))
    if (!v.contains(r.get<std::string>()) && !misspelt.count(r.get<std::string>()))
      out.emplace_back(ptr, fmt::format("missing required field \"{}\"", r.get<std::string>()));
}

// Walks the record along the schema, explaining every node that fails its own keywords.
void explain_all(const json& root, const json& node_in, const json& v, const std::string& ptr,
                 std::vector<std::pair<std::string, std::string>>& out) {
  const json& node = deref(root, node_in);
  std::string why = explain_violation(root, node, v);
  if (!why.empty()) { out.emplace_back(ptr, why); return; }
  object_problems(root, node, v, ptr, out);
  if (v.is_object()) {
    for (const auto& [k, child] : v.items())
      if (const json* cs = child_schema(root, node, k, false)) explain_all(root, *cs, child, pointer_child(ptr, k), out);
  } else if (v.is_array()) {
    for (std::size_t i = 0; i < v.size(); ++i)
      if (const json* cs = child_schema(root, node, "", true)) explain_all(root, *cs, v[i], pointer_child(ptr, std::to_string(i)), out);
  }
}

}  // namespace

Problems SchemaSet::validate(const std::string& kind, const json& record, const Marks& marks,
                             const std::string& file) const {
  const Compiled& c = *compiled_.at(kind);
  valijson::ValidationResults results;
  std::optional<SchemaPatterns::Failure> mismatch;
  if (c.run_valijson(record, &results) && !(mismatch = c.patterns->check(record))) return {};

  std::vector<std::pair<std::string, std::string>> found;
  explain_all(c.document, c.document, record, "", found);
  if (found.empty() && mismatch) {  // explain_all walks where the pattern check does: not expected
    found.emplace_back(mismatch->pointer, fmt::format("expected a value matching {}", json(mismatch->pattern).dump()));
  } else if (found.empty()) {  // a keyword we do not explain: fall back to valijson's own words
    valijson::ValidationResults::Error e;
    while (results.popError(e)) found.emplace_back(context_to_pointer(e.context), e.description);
    if (found.size() > 1) found.resize(1);
  }
  std::stable_sort(found.begin(), found.end(), [&](const auto& a, const auto& b) {
    Mark ma = marks.key_or_value(a.first), mb = marks.key_or_value(b.first);
    return std::pair(ma.line, ma.column) < std::pair(mb.line, mb.column);
  });
  Problems out;
  std::string id = record.is_object() && record.contains("id") && record["id"].is_string() ? record["id"].get<std::string>() : "";
  for (const auto& [ptr, why] : found) {
    bool unknown_field = why.rfind("unknown field", 0) == 0;
    Mark m = unknown_field ? marks.key_or_value(ptr) : marks.at(ptr);
    out.push_back({"QS001", file, m, id, fmt::format("{}: {}", ptr.empty() ? "/" : ptr, why), Severity::Error,
                   why.rfind("missing required field", 0) == 0 ? std::string() : ptr});
  }
  return out;
}

}  // namespace qsel
