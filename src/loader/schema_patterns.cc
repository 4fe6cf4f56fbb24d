#include "schema_patterns.h"

#include <set>
#include <stdexcept>

#include <fmt/format.h>
#include <re2/re2.h>
#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validator.hpp>

#include "qsel/loader/marks.h"

namespace qsel {

using nlohmann::json;

namespace {


// Keywords whose values are not subschemas, or are only reached through $ref.
const std::set<std::string, std::less<>> kNotApplicators = {
    "$ref", "$schema", "$id", "$comment", "title", "description", "type", "enum", "const", "default", "examples",
    "required", "definitions", "$defs", "format", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
    "minLength", "maxLength", "minItems", "maxItems", "uniqueItems", "minProperties", "maxProperties", "multipleOf"};

constexpr int kMaxDepth = 128;

// A `pattern` keyword (or patternProperties) still in `node` after the planner took
// what it could: its pointer, or empty when none is left.
std::string pattern_left(const json& node, const std::string& ptr, int depth) {
  if (depth > kMaxDepth) return ptr;
  if (node.is_object()) {
    if (node.contains("pattern") && node["pattern"].is_string()) return pointer_child(ptr, "pattern");
    if (node.contains("patternProperties")) return pointer_child(ptr, "patternProperties");
    for (const auto& [k, v] : node.items()) {
      if (kNotApplicators.count(k) && k != "definitions" && k != "$defs") continue;
      if (k == "properties" && v.is_object()) {
        for (const auto& [name, sub] : v.items())
          if (auto left = pattern_left(sub, pointer_child(pointer_child(ptr, k), name), depth + 1); !left.empty()) return left;
        continue;
      }
      if (auto left = pattern_left(v, pointer_child(ptr, k), depth + 1); !left.empty()) return left;
    }
  } else if (node.is_array()) {
    for (std::size_t i = 0; i < node.size(); ++i)
      if (auto left = pattern_left(node[i], ptr + "/" + std::to_string(i), depth + 1); !left.empty()) return left;
  }
  return "";
}
constexpr int kMaxRefHops = 64;

}  // namespace

// Walks the schema twice over: the nodes a record's values reach through
// properties/additionalProperties/items/$ref, and every node under a keyword
// whose verdict a pattern could sway. A pattern on a node of the first set and
// not of the second is taken.
class PatternPlanner {
 public:
  PatternPlanner(const json& root, SchemaPatterns& out) : root_(root), out_(out) {}

  void run(json& for_valijson) {
    build(resolve(""), 0);
    if (gave_up_) throw std::runtime_error(fmt::format("nesting or $ref chains deeper than {}", kMaxDepth));
    for (const auto& [ptr, idx] : memo_) {
      const json& node = root_.at(json::json_pointer(ptr));
      if (!node.is_object() || !node.contains("pattern") || !node["pattern"].is_string() || cond_.count(ptr)) continue;
      std::string pattern = node["pattern"].get<std::string>();
      RE2::Options options;  // UTF-8: "[*†‡]" is a class of three characters
      options.set_log_errors(false);
      auto regex = std::make_shared<const RE2>(pattern, options);
      if (!regex->ok())
        throw std::runtime_error(fmt::format("pattern {} at {}: RE2 cannot take it: {}", json(pattern).dump(),
                                             pointer_child(ptr, "pattern"), regex->error()));
      out_.nodes_[idx].regex = std::move(regex);
      out_.nodes_[idx].pattern = std::move(pattern);
      for_valijson.at(json::json_pointer(ptr)).erase("pattern");
      ++out_.taken_;
    }
    if (auto left = pattern_left(for_valijson, "", 0); !left.empty())
      throw std::runtime_error(fmt::format("{} sits where qsel cannot check it with RE2 (under a keyword such as anyOf, "
                                           "not, if or patternProperties); move it to a properties/items path",
                                           left));
    for (bool changed = true; changed;) {  // relevance flows up, through cycles too
      changed = false;
      for (auto& n : out_.nodes_) {
        auto rel = [&](std::optional<std::size_t> c) { return c && out_.nodes_[*c].relevant; };
        bool r = n.regex != nullptr || rel(n.additional) || rel(n.items);
        for (const auto& [_, c] : n.properties) r = r || out_.nodes_[c].relevant;
        for (std::size_t c : n.all_of) r = r || out_.nodes_[c].relevant;
        for (const auto& c : n.conditionals) r = r || rel(c.then) || rel(c.otherwise);
        if (r && !n.relevant) n.relevant = changed = true;
      }
    }
    for (auto& n : out_.nodes_) {  // the check walks only where a taken pattern lies ahead
      std::erase_if(n.properties, [&](const auto& p) { return !out_.nodes_[p.second].relevant; });
      if (n.additional && !out_.nodes_[*n.additional].relevant) n.additional.reset();
      if (n.items && !out_.nodes_[*n.items].relevant) n.items.reset();
      std::erase_if(n.all_of, [&](std::size_t c) { return !out_.nodes_[c].relevant; });
      std::erase_if(n.conditionals, [&](const auto& c) {
        return !(c.then && out_.nodes_[*c.then].relevant) && !(c.otherwise && out_.nodes_[*c.otherwise].relevant);
      });
    }
  }

 private:
  const json& root_;
  SchemaPatterns& out_;
  std::map<std::string, std::size_t> memo_;  // schema pointer -> node
  std::set<std::string> cond_, marked_;
  bool gave_up_ = false;

  const json* at(const std::string& ptr) const {
    json::json_pointer jp(ptr);
    return root_.contains(jp) ? &root_.at(jp) : nullptr;
  }

  std::optional<std::string> ref_of(const json& node) const {
    if (!node.is_object() || !node.contains("$ref") || !node["$ref"].is_string()) return std::nullopt;
    std::string ref = node["$ref"].get<std::string>();
    if (ref.rfind('#', 0) != 0) return std::nullopt;
    try {
      if (at(ref.substr(1))) return ref.substr(1);
    } catch (const json::exception&) {
    }
    return std::nullopt;
  }

  // Follows $ref to the node that applies; what sits beside a $ref counts as conditional.
  std::string resolve(std::string ptr) {
    for (int hops = 0; hops < kMaxRefHops; ++hops) {
      const json* node = at(ptr);
      auto target = node ? ref_of(*node) : std::nullopt;
      if (!target) return ptr;
      for (const auto& [k, v] : node->items())
        if (k != "$ref" && (v.is_object() || v.is_array())) mark_all(pointer_child(ptr, k), 0);
      ptr = *target;
    }
    gave_up_ = true;
    return ptr;
  }

  std::size_t build(const std::string& ptr, int depth) {
    if (auto it = memo_.find(ptr); it != memo_.end()) return it->second;
    std::size_t idx = out_.nodes_.size();
    out_.nodes_.emplace_back();
    memo_[ptr] = idx;
    const json* node = at(ptr);
    if (depth > kMaxDepth) gave_up_ = true;
    if (!node || !node->is_object() || gave_up_) return idx;
    for (const auto& [k, v] : node->items()) {
      std::string here = pointer_child(ptr, k);
      if (k == "properties" && v.is_object()) {
        for (const auto& [name, _] : v.items()) {
          std::size_t c = build(resolve(pointer_child(here, name)), depth + 1);
          out_.nodes_[idx].properties[name] = c;
        }
      } else if (k == "additionalProperties" && v.is_object() && !node->contains("patternProperties")) {
        std::size_t c = build(resolve(here), depth + 1);
        out_.nodes_[idx].additional = c;
      } else if (k == "items" && v.is_object()) {
        std::size_t c = build(resolve(here), depth + 1);
        out_.nodes_[idx].items = c;
      } else if (k == "allOf" && v.is_array()) {
        for (std::size_t i = 0; i < v.size(); ++i) {
          std::size_t c = build(resolve(here + "/" + std::to_string(i)), depth + 1);
          out_.nodes_[idx].all_of.push_back(c);
        }
      } else if (k == "if" && v.is_object()) {
        mark_all(here, 0);  // a pattern inside the condition could sway it
        SchemaPatterns::Node::Conditional cond;
        cond.when = compile_condition(v);
        if (node->contains("then")) cond.then = build(resolve(pointer_child(ptr, "then")), depth + 1);
        if (node->contains("else")) cond.otherwise = build(resolve(pointer_child(ptr, "else")), depth + 1);
        out_.nodes_[idx].conditionals.push_back(std::move(cond));
      } else if ((k == "then" || k == "else") && node->contains("if") && (*node)["if"].is_object()) {
        // taken with its `if`
      } else if (!kNotApplicators.count(k) && (v.is_object() || v.is_array())) {
        mark_all(here, 0);
      }
    }
    return idx;
  }

  // An `if` as a schema of its own for valijson, with the root's definitions beside it
  // for its $refs.
  std::shared_ptr<const valijson::Schema> compile_condition(const json& when) const {
    json doc = when;
    if (root_.contains("definitions") && !doc.contains("definitions")) doc["definitions"] = root_["definitions"];
    auto schema = std::make_shared<valijson::Schema>();
    valijson::SchemaParser parser;
    valijson::adapters::NlohmannJsonAdapter adapter(doc);
    parser.populateSchema(adapter, *schema);
    return schema;
  }

  // Every schema node at or under `ptr`, and wherever its $refs lead.
  void mark_all(const std::string& ptr, int depth) {
    if (depth > kMaxDepth) {
      gave_up_ = true;
      return;
    }
    if (!marked_.insert(ptr).second) return;
    cond_.insert(ptr);
    const json* v = at(ptr);
    if (!v) return;
    if (auto target = ref_of(*v)) mark_all(*target, depth + 1);
    if (v->is_object()) {
      for (const auto& [k, c] : v->items())
        if (c.is_object() || c.is_array()) mark_all(pointer_child(ptr, k), depth + 1);
    } else if (v->is_array()) {
      for (std::size_t i = 0; i < v->size(); ++i) mark_all(ptr + "/" + std::to_string(i), depth + 1);
    }
  }
};

SchemaPatterns::SchemaPatterns(const json& schema, json& for_valijson) {
  PatternPlanner(schema, *this).run(for_valijson);
}

// The pointer of a failure is built on the way back up: the walk itself allocates nothing.
bool SchemaPatterns::walk(std::size_t idx, const json& value, std::optional<Failure>& out) const {
  const Node& n = nodes_[idx];
  if (n.regex && value.is_string() && !RE2::PartialMatch(value.get_ref<const std::string&>(), *n.regex)) {
    out = Failure{"", n.pattern};
    return false;
  }
  if (value.is_object() && (n.additional || !n.properties.empty())) {
    for (const auto& [k, v] : value.items()) {
      auto it = n.properties.find(k);
      std::optional<std::size_t> child = it != n.properties.end() ? std::optional(it->second) : n.additional;
      if (child && !walk(*child, v, out)) {
        out->pointer.insert(0, pointer_child("", k));
        return false;
      }
    }
  } else if (value.is_array() && n.items) {
    for (std::size_t i = 0; i < value.size(); ++i)
      if (!walk(*n.items, value[i], out)) {
        out->pointer.insert(0, "/" + std::to_string(i));
        return false;
      }
  }
  for (std::size_t c : n.all_of)
    if (!walk(c, value, out)) return false;
  for (const auto& c : n.conditionals) {
    thread_local valijson::Validator validator;
    valijson::adapters::NlohmannJsonAdapter target(value);
    auto branch = validator.validate(*c.when, target, nullptr) ? c.then : c.otherwise;
    if (branch && !walk(*branch, value, out)) return false;
  }
  return true;
}

std::optional<SchemaPatterns::Failure> SchemaPatterns::check(const json& record) const {
  std::optional<Failure> out;
  if (taken_ == 0) return out;
  if (nodes_[0].relevant) walk(0, record, out);
  return out;
}

}  // namespace qsel
