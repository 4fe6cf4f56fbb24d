#include "schema_verdict.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>
#include <string_view>
#include <utility>

#include <valijson/utils/utf8_utils.hpp>

namespace qsel {
namespace {

using json = nlohmann::json;

struct Unsupported : std::runtime_error {
  using std::runtime_error::runtime_error;
};

enum TypeBit : unsigned { kNull = 1, kBoolean = 2, kInteger = 4, kNumber = 8, kString = 16, kArray = 32, kObject = 64 };

unsigned type_bit(std::string_view name) {
  if (name == "null") return kNull;
  if (name == "boolean") return kBoolean;
  if (name == "integer") return kInteger;
  if (name == "number") return kNumber;
  if (name == "string") return kString;
  if (name == "array") return kArray;
  if (name == "object") return kObject;
  throw Unsupported("type");
}

// The types a value has under valijson's strict types: an integer is also a number.
unsigned bits_of(const json& v) {
  switch (v.type()) {
    case json::value_t::null: return kNull;
    case json::value_t::boolean: return kBoolean;
    case json::value_t::number_integer:
    case json::value_t::number_unsigned: return kInteger | kNumber;
    case json::value_t::number_float: return kNumber;
    case json::value_t::string: return kString;
    case json::value_t::array: return kArray;
    case json::value_t::object: return kObject;
    default: return 0;
  }
}

std::uint64_t count_of(const json& v) {
  if (!v.is_number_integer() || (!v.is_number_unsigned() && v.get<std::int64_t>() < 0)) throw Unsupported("a count");
  return v.get<std::uint64_t>();
}

double number_of(const json& v) {
  if (!v.is_number()) throw Unsupported("a number");  // draft-04's boolean exclusiveMinimum, say
  return v.get<double>();
}

// Equal as valijson's strict equality would have them: same kind of scalar.
// A list or map is never called equal here (nlohmann's == calls [1] and [1.0]
// equal, valijson's strict one need not): such an enum or const asks valijson.
bool same(const json& a, const json& b) {
  if (a.is_structured() || b.is_structured()) return false;
  if (a.is_number_integer() && b.is_number_integer()) return a == b;
  return a.type() == b.type() && a == b;
}

// A value's number, exactly; nothing past 2^53, where doubles start to round.
std::optional<double> exact_number(const json& v) {
  if (v.is_number_float()) return v.get<double>();
  if (v.is_number_unsigned()) {
    auto u = v.get<std::uint64_t>();
    return u <= (std::uint64_t{1} << 53) ? std::optional<double>(static_cast<double>(u)) : std::nullopt;
  }
  auto i = v.get<std::int64_t>();
  constexpr std::int64_t kExact = std::int64_t{1} << 53;
  return i >= -kExact && i <= kExact ? std::optional<double>(static_cast<double>(i)) : std::nullopt;
}

}  // namespace

class SchemaVerdict::Compiler {
 public:
  using Count = std::optional<std::uint64_t> Node::*;
  using Bound = std::optional<double> Node::*;

  // The keywords that hold a count, and the ones that hold a numeric bound.
  static Count count_field(std::string_view key) {
    static constexpr std::pair<std::string_view, Count> kCounts[] = {
        {"minProperties", &Node::min_properties}, {"minItems", &Node::min_items}, {"maxItems", &Node::max_items},
        {"minLength", &Node::min_length},         {"maxLength", &Node::max_length}};
    for (const auto& [name, field] : kCounts)
      if (key == name) return field;
    return nullptr;
  }
  static Bound bound_field(std::string_view key) {
    static constexpr std::pair<std::string_view, Bound> kBounds[] = {
        {"minimum", &Node::minimum},
        {"maximum", &Node::maximum},
        {"exclusiveMinimum", &Node::exclusive_minimum},
        {"exclusiveMaximum", &Node::exclusive_maximum}};
    for (const auto& [name, field] : kBounds)
      if (key == name) return field;
    return nullptr;
  }

  Compiler(const json& root, std::vector<Node>& nodes) : root_(root), nodes_(nodes) {}

  std::size_t compile(const json& schema, int depth) {
    Node n = build(schema, depth);
    nodes_.push_back(std::move(n));
    return nodes_.size() - 1;
  }

 private:
  std::size_t reference(const std::string& ref, int depth) {
    if (ref.empty() || ref[0] != '#') throw Unsupported("a $ref to another document");
    if (auto it = refs_.find(ref); it != refs_.end()) return it->second;
    json::json_pointer pointer(ref.substr(1));  // throws on a malformed pointer: unsupported
    if (!root_.contains(pointer)) throw Unsupported("a $ref to nothing");
    std::size_t at = nodes_.size();
    nodes_.emplace_back();
    refs_[ref] = at;
    Node n = build(root_.at(pointer), depth);
    nodes_[at] = std::move(n);
    return at;
  }

  Node build(const json& s, int depth) {
    if (depth > 64) throw Unsupported("nesting");
    Node n;
    if (s.is_boolean()) {
      n.ask = !s.get<bool>();
      return n;
    }
    if (!s.is_object()) throw Unsupported("a schema that is not an object");
    for (const auto& [key, v] : s.items()) {
      if (key == "type") {
        if (v.is_string()) n.types |= type_bit(v.get<std::string>());
        else if (v.is_array())
          for (const auto& t : v) n.types |= t.is_string() ? type_bit(t.get<std::string>()) : throw Unsupported("type");
        else throw Unsupported("type");
      } else if (key == "enum") {
        if (!v.is_array()) throw Unsupported("enum");
        n.has_enum = true;
        n.enum_values.assign(v.begin(), v.end());
      } else if (key == "const") {
        n.const_value = v;
      } else if (key == "properties") {
        if (!v.is_object()) throw Unsupported("properties");
        for (const auto& [name, sub] : v.items()) n.properties.emplace_back(name, compile(sub, depth + 1));
        std::sort(n.properties.begin(), n.properties.end());
      } else if (key == "required") {
        if (!v.is_array()) throw Unsupported("required");
        for (const auto& r : v) n.required.push_back(r.is_string() ? r.get<std::string>() : throw Unsupported("required"));
      } else if (key == "additionalProperties") {
        if (v.is_boolean()) n.no_additional = !v.get<bool>();
        else n.additional = compile(v, depth + 1);
      } else if (key == "propertyNames") {
        n.property_names = compile(v, depth + 1);
      } else if (key == "items") {
        if (v.is_array()) throw Unsupported("tuple items");
        n.items = compile(v, depth + 1);
      } else if (auto count = count_field(key)) {
        n.*count = count_of(v);
      } else if (auto bound = bound_field(key)) {
        n.*bound = number_of(v);
      } else if (key == "uniqueItems") {
        if (!v.is_boolean()) throw Unsupported("uniqueItems");
        n.unique_items = v.get<bool>();
      } else if (key == "allOf" || key == "anyOf") {
        if (!v.is_array() || v.empty()) throw Unsupported(key);
        for (const auto& sub : v) (key == "allOf" ? n.all_of : n.any_of).push_back(compile(sub, depth + 1));
      } else if (key == "$ref") {
        if (!v.is_string()) throw Unsupported("$ref");
        n.ref = reference(v.get<std::string>(), depth + 1);
      } else if (key == "oneOf" || key == "not" || key == "if" || key == "then" || key == "else" || key == "pattern") {
        n.ask = true;
      } else if (key == "format") {
        // valijson checks only these three formats; it accepts any string for the others.
        if (!v.is_string()) throw Unsupported("format");
        std::string f = v.get<std::string>();
        if (f == "date" || f == "time" || f == "date-time") n.ask = true;
      } else if (key == "$schema" || key == "$id" || key == "title" || key == "description" || key == "definitions" ||
                 key == "default" || key == "examples" || key == "$comment") {
        continue;
      } else {
        throw Unsupported(key);
      }
    }
    return n;
  }

  const json& root_;
  std::vector<Node>& nodes_;
  std::map<std::string, std::size_t> refs_;
};

std::optional<SchemaVerdict> SchemaVerdict::compile(const json& schema) {
  SchemaVerdict out;
  try {
    Compiler c(schema, out.nodes_);
    out.root_ = c.compile(schema, 0);  // compiled after the nodes it refers to
  } catch (const Unsupported&) {
    return std::nullopt;
  } catch (const json::exception&) {
    return std::nullopt;
  }
  return out;
}

bool SchemaVerdict::certainly_valid(const json& doc) const {
  std::size_t budget = 0;
  return !nodes_.empty() && valid(root_, doc, 0, budget);
}

// `hops`: $ref, allOf and anyOf steps since the last step into the value; a
// loop of them that never descends is valijson's to judge. `budget` counts
// every step: a schema whose branches multiply gives up long before it hangs.
bool SchemaVerdict::valid(std::size_t at, const json& v, int hops, std::size_t& budget) const {
  constexpr std::size_t kSteps = 4'000'000;
  if (hops > 64 || ++budget > kSteps) return false;
  const Node& n = nodes_[at];
  if (n.ask) return false;
  if (n.ref && !valid(*n.ref, v, hops + 1, budget)) return false;  // (draft-07 ignores $ref's siblings; checking both is stricter)
  if (n.types && !(n.types & bits_of(v))) return false;
  if (n.has_enum && std::none_of(n.enum_values.begin(), n.enum_values.end(), [&](const json& e) { return same(e, v); }))
    return false;
  if (n.const_value && !same(*n.const_value, v)) return false;
  for (std::size_t s : n.all_of)
    if (!valid(s, v, hops + 1, budget)) return false;
  if (!n.any_of.empty() && std::none_of(n.any_of.begin(), n.any_of.end(), [&](std::size_t s) { return valid(s, v, hops + 1, budget); }))
    return false;
  switch (v.type()) {
    case json::value_t::string: {
      if (!n.min_length && !n.max_length) break;
      auto length = valijson::utils::u8_strlen(v.get_ref<const std::string&>().c_str());  // valijson's own count
      if ((n.min_length && length < *n.min_length) || (n.max_length && length > *n.max_length)) return false;
      break;
    }
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
    case json::value_t::number_float: {
      if (!n.minimum && !n.maximum && !n.exclusive_minimum && !n.exclusive_maximum) break;
      std::optional<double> d = exact_number(v);
      if (!d || std::isnan(*d)) return false;
      if ((n.minimum && *d < *n.minimum) || (n.maximum && *d > *n.maximum) ||
          (n.exclusive_minimum && *d <= *n.exclusive_minimum) || (n.exclusive_maximum && *d >= *n.exclusive_maximum))
        return false;
      break;
    }
    case json::value_t::array: {
      if ((n.min_items && v.size() < *n.min_items) || (n.max_items && v.size() > *n.max_items)) return false;
      if (n.items)
        for (const json& item : v)
          if (!valid(*n.items, item, 0, budget)) return false;
      if (n.unique_items && v.size() > 1) {
        // Strings only (what our lists hold); anything else is valijson's to judge.
        std::vector<std::string_view> seen;
        seen.reserve(v.size());
        for (const json& item : v) {
          if (!item.is_string()) return false;
          seen.push_back(item.get_ref<const std::string&>());
        }
        std::sort(seen.begin(), seen.end());
        if (std::adjacent_find(seen.begin(), seen.end()) != seen.end()) return false;
      }
      break;
    }
    case json::value_t::object: {
      if (n.min_properties && v.size() < *n.min_properties) return false;
      for (const std::string& r : n.required)
        if (!v.contains(r)) return false;
      for (const auto& [key, value] : v.items()) {
        auto it = std::lower_bound(n.properties.begin(), n.properties.end(), key,
                                   [](const auto& p, const std::string& k) { return p.first < k; });
        if (it != n.properties.end() && it->first == key) {
          if (!valid(it->second, value, 0, budget)) return false;
        } else if (n.no_additional) {
          return false;
        } else if (n.additional && !valid(*n.additional, value, 0, budget)) {
          return false;
        }
        if (n.property_names && !valid(*n.property_names, json(key), 0, budget)) return false;
      }
      break;
    }
    default:
      break;
  }
  return true;
}

}  // namespace qsel
