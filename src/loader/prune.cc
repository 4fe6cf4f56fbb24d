#include "qsel/loader/prune.h"

#include <algorithm>

namespace qsel {
namespace {

// Calls `f` with each reference token of `pointer`, unescaped ("" has none).
template <class F>
void for_each_token(std::string_view pointer, F&& f) {
  std::string buffer;
  std::size_t at = 0;
  while (at < pointer.size()) {
    std::size_t next = pointer.find('/', at + 1);
    std::string_view token = pointer.substr(at + 1, next == std::string_view::npos ? std::string_view::npos : next - at - 1);
    if (token.find('~') == std::string_view::npos) {
      if (!f(token)) return;
    } else {
      buffer.clear();
      for (std::size_t i = 0; i < token.size(); ++i) {
        if (token[i] == '~' && i + 1 < token.size()) buffer += token[++i] == '1' ? '/' : '~';
        else buffer += token[i];
      }
      if (!f(std::string_view(buffer))) return;
    }
    if (next == std::string_view::npos) return;
    at = next;
  }
}

}  // namespace

const KeptPaths::Node* KeptPaths::Node::child(std::string_view token) const {
  for (const auto& [name, node] : children)
    if (name == token) return &node;
  return nullptr;
}

KeptPaths::Node& KeptPaths::Node::child_or_add(std::string_view token) {
  for (auto& [name, node] : children)
    if (name == token) return node;
  children.emplace_back(std::string(token), Node{});
  return children.back().second;
}

void KeptPaths::add(std::string_view pointer) {
  Node* node = &root_;
  for_each_token(pointer, [&](std::string_view token) {
    if (node->whole) return false;  // already kept whole above
    node = &node->child_or_add(token);
    return true;
  });
  node->whole = true;
  node->children.clear();
}

void KeptPaths::prune_value(nlohmann::json& value, const Node& node) const {
  if (node.whole) return;
  if (value.is_object()) {
    for (auto it = value.begin(); it != value.end();) {
      const Node* kept = node.child(it.key());
      if (!kept) {
        it = value.erase(it);
        continue;
      }
      prune_value(*it, *kept);
      ++it;
    }
  } else if (value.is_array()) {
    for (std::size_t i = 0; i < value.size(); ++i) {
      const Node* kept = node.child(std::to_string(i));
      if (kept) prune_value(value[i], *kept);
      else value[i] = nullptr;  // a placeholder: later items keep their pointers
    }
  }
  // A scalar a deeper pointer runs into has nothing below it: kept as it is.
}

// A mark stays when its pointer is inside a kept subtree or on the way to one.
bool KeptPaths::kept_mark(std::string_view pointer) const {
  const Node* node = &root_;
  bool kept = true;
  for_each_token(pointer, [&](std::string_view token) {
    if (node->whole) return false;
    node = node->child(token);
    kept = node != nullptr;
    return kept;
  });
  return kept;
}

void KeptPaths::prune(Record& r) const {
  if (root_.whole) return;
  prune_value(r.data, root_);
  r.marks.retain([this](std::string_view pointer) { return kept_mark(pointer); });
}

KeptPaths kept_paths_for(Kind kind, const std::vector<KeptField>& fields) {
  KeptPaths out;
  for (const KeptField& f : fields)
    if (!f.kind || *f.kind == kind) out.add(f.pointer);
  return out;
}

}  // namespace qsel
