#include "schema_patterns.h"

#include <set>

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
    if (gave_up_) return;  // too deep to be sure of anything: valijson keeps every pattern
    for (const auto& [ptr, idx] : memo_) {
      const json& node = root_.at(json::json_pointer(ptr));
      if (!node.is_object() || !node.contains("pattern") || !node["pattern"].is_string() || cond_.count(ptr)) continue;
      std::string pattern = node["pattern"].get<std::string>();
      auto regex = LinearRegex::compile(pattern);
      if (!regex) continue;
      out_.nodes_[idx].regex = std::move(regex);
      out_.nodes_[idx].pattern = std::move(pattern);
      for_valijson.at(json::json_pointer(ptr)).erase("pattern");
      ++out_.taken_;
    }
    for (bool changed = true; changed;) {  // relevance flows up, through cycles too
      changed = false;
      for (auto& n : out_.nodes_) {
        bool r = n.regex.has_value() || (n.additional && out_.nodes_[*n.additional].relevant) ||
                 (n.items && out_.nodes_[*n.items].relevant);
        for (const auto& [_, c] : n.properties) r = r || out_.nodes_[c].relevant;
        if (r && !n.relevant) n.relevant = changed = true;
      }
    }
    for (auto& n : out_.nodes_) {  // the check walks only where a taken pattern lies ahead
      std::erase_if(n.properties, [&](const auto& p) { return !out_.nodes_[p.second].relevant; });
      if (n.additional && !out_.nodes_[*n.additional].relevant) n.additional.reset();
      if (n.items && !out_.nodes_[*n.items].relevant) n.items.reset();
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
      } else if (!kNotApplicators.count(k) && (v.is_object() || v.is_array())) {
        mark_all(here, 0);
      }
    }
    return idx;
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
  if (n.regex && value.is_string() && !n.regex->search(value.get_ref<const std::string&>())) {
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
  return true;
}

std::optional<SchemaPatterns::Failure> SchemaPatterns::check(const json& record) const {
  std::optional<Failure> out;
  if (taken_ == 0) return out;
  if (nodes_[0].relevant) walk(0, record, out);
  return out;
}

}  // namespace qsel
