#include "qsel/loader/prune.h"

#include <algorithm>
#include <charconv>

namespace qsel {
const KeptPaths::Node* KeptPaths::Node::child(std::string_view token) const {
  auto it = std::lower_bound(children.begin(), children.end(), token,
                             [](const Node& c, std::string_view t) { return std::string_view(c.name) < t; });
  return it != children.end() && it->name == token ? &*it : nullptr;
}

void KeptPaths::add(std::string_view pointer) {
  Node* node = &root_;
  for_each_token(pointer, [&](std::string_view token) {
    if (node->whole) return false;  // already kept whole above
    node = &node->children.emplace_back();
    node->name = token;
    return true;
  });
  node->whole = true;
  node->children.clear();
  sealed_ = false;
}

// Sorts each node's children and merges the ones of the same name.
void KeptPaths::seal(Node& node) {
  if (node.whole) {
    node.children.clear();
    return;
  }
  auto& kids = node.children;
  std::stable_sort(kids.begin(), kids.end(), [](const Node& a, const Node& b) { return a.name < b.name; });
  std::size_t out = 0;
  for (std::size_t i = 0; i < kids.size(); ++i) {
    if (out > 0 && kids[out - 1].name == kids[i].name) {
      Node& into = kids[out - 1];
      into.whole = into.whole || kids[i].whole;
      for (Node& c : kids[i].children) into.children.push_back(std::move(c));
      continue;
    }
    if (out != i) kids[out] = std::move(kids[i]);
    ++out;
  }
  kids.resize(out);
  for (Node& c : kids) seal(c);
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
    char index[24];
    for (std::size_t i = 0; i < value.size(); ++i) {
      auto [end, ec] = std::to_chars(index, index + sizeof index, i);
      const Node* kept = node.child(std::string_view(index, static_cast<std::size_t>(end - index)));
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

void KeptPaths::seal() {
  if (sealed_) return;
  seal(root_);
  sealed_ = true;
}

void KeptPaths::prune(Record& r) {
  if (root_.whole) return;
  seal();
  prune_value(r.data, root_);
  r.marks.retain([this](std::string_view pointer) { return kept_mark(pointer); });
}

KeptPaths kept_paths_for(Kind kind, const std::vector<KeptField>& fields) {
  KeptPaths out;
  for (const KeptField& f : fields)
    if (!f.kind || *f.kind == kind) out.add(f.pointer);
  out.seal();
  return out;
}

}  // namespace qsel
