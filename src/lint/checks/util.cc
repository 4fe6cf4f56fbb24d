#include "util.h"

#include <algorithm>
#include <cctype>
#include <sstream>
#include <vector>

#include <fmt/format.h>

#include "qsel/loader/marks.h"

namespace qsel::lint_checks {
namespace {

bool is_index(const std::string& token) {
  return !token.empty() && std::all_of(token.begin(), token.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

void walk(const json& node, const std::vector<std::string>& parts, std::size_t i, const std::string& ptr,
          const std::function<void(const std::string&, const json&)>& fn) {
  if (i == parts.size()) return fn(ptr, node);
  if (parts[i] != "*") {
    if (!node.is_object()) return;
    if (auto it = node.find(parts[i]); it != node.end()) walk(*it, parts, i + 1, pointer_child(ptr, parts[i]), fn);
    return;
  }
  if (node.is_array())
    for (std::size_t k = 0; k < node.size(); ++k) walk(node[k], parts, i + 1, pointer_child(ptr, std::to_string(k)), fn);
  else if (node.is_object())
    for (const auto& [key, v] : node.items()) walk(v, parts, i + 1, pointer_child(ptr, key), fn);
}

}  // namespace

std::string field_label(const std::string& pointer) {
  std::string out;
  std::stringstream ss(pointer.empty() ? "" : pointer.substr(1));
  for (std::string tok; std::getline(ss, tok, '/');)
    out += is_index(tok) ? "[" + tok + "]" : (out.empty() ? "" : ".") + tok;
  return out;
}

std::string number_text(double v) { return json(v).dump(); }

const char* article(std::string_view noun) {
  return !noun.empty() && std::string_view("aeiou").find(noun[0]) != std::string_view::npos ? "an" : "a";
}

const json& field(const Record& r, const char* key) {
  static const json null;
  auto it = r.data.find(key);
  return it == r.data.end() ? null : *it;
}

// Walks the pointer's tokens in place: checks call this once per record, and
// parsing a json_pointer allocated every token. A token with an escape ('~')
// takes the general path.
std::string str_at(const Record& r, const std::string& pointer) {
  if (pointer.find('~') != std::string::npos) {
    json::json_pointer p(pointer);
    return r.data.contains(p) && r.data.at(p).is_string() ? r.data.at(p).get<std::string>() : "";
  }
  const json* node = &r.data;
  for (std::size_t at = 0; node && at < pointer.size();) {
    std::size_t end = pointer.find('/', at + 1);
    std::string_view token = std::string_view(pointer).substr(at + 1, (end == std::string::npos ? pointer.size() : end) - at - 1);
    at = end == std::string::npos ? pointer.size() : end;
    if (node->is_object()) {
      auto it = node->find(token);
      node = it == node->end() ? nullptr : &*it;
    } else if (node->is_array() && is_index(std::string(token)) && token.size() < 10 &&
               (token.size() == 1 || token[0] != '0') && std::stoul(std::string(token)) < node->size()) {
      node = &(*node)[std::stoul(std::string(token))];
    } else {
      node = nullptr;
    }
  }
  return node && node->is_string() ? node->get<std::string>() : "";
}

void for_each_at(const json& root, const std::string& pattern,
                 const std::function<void(const std::string&, const json&)>& fn) {
  // Most records lack the field: answered before the pattern is split (a
  // stringstream per record was most of QS024's time on 50,000 records).
  std::string_view first = std::string_view(pattern).substr(1, pattern.find('/', 1) - 1);
  if (first != "*" && (!root.is_object() || root.find(first) == root.end())) return;
  std::vector<std::string> parts;
  for (std::size_t at = 1; at <= pattern.size();) {
    std::size_t end = std::min(pattern.find('/', at), pattern.size());
    parts.emplace_back(pattern, at, end - at);
    at = end + 1;
  }
  walk(root, parts, 0, "", fn);
}

}  // namespace qsel::lint_checks
