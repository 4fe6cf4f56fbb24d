// Lint keeps every record of a corpus until its cross-record checks have run.
// A record whose own checks are done only needs what those cross-record steps
// read, so the rest of its tree and marks can go: on a corpus of 20,000
// benchmarks and gotchas that halves lint's peak memory.
//
// Pruning must be invisible: every reader of a pruned record declares the
// pointers it reads (KeptField), and whatever a declared pointer names keeps its
// value, its descendants, its ancestors and all their marks. Array items not on
// a kept path become null, so the pointers of the kept ones do not move.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "qsel/loader/record.h"

namespace qsel {

// "A reader reads `pointer` of records of `kind`" (every kind when empty). The
// pointer "" means the whole record: such records are never pruned.
struct KeptField {
  std::optional<Kind> kind;
  const char* pointer;
};

// The pointers to keep, as a tree of reference tokens. Adding is appending;
// the tree is sorted and merged once, when it is first used, so a record with
// a hundred thousand references costs n log n, not n squared.
class KeptPaths {
 public:
  // `pointer` is a JSON pointer ("" keeps everything); escaped tokens (~0, ~1) are read as such.
  void add(std::string_view pointer);
  bool keeps_everything() const { return root_.whole; }
  // Sorts and merges the tree now (prune does it when it is needed).
  void seal();

  // Drops from `r.data` and `r.marks` everything no kept pointer needs.
  void prune(Record& r);

 private:
  struct Node {
    std::string name;    // the reference token that leads here
    bool whole = false;  // a kept pointer ends here: keep the subtree
    std::vector<Node> children;  // sorted by name once sealed
    const Node* child(std::string_view token) const;
  };
  static void seal(Node& node);
  void prune_value(nlohmann::json& value, const Node& node) const;
  bool kept_mark(std::string_view pointer) const;
  Node root_;
  bool sealed_ = true;
};

// The pointers `fields` declare for records of `kind`.
KeptPaths kept_paths_for(Kind kind, const std::vector<KeptField>& fields);

}  // namespace qsel
