// Source marks for every node of a parsed record, keyed by JSON pointer
// ("" is the document root, "/bpw/measured/0/value" a nested value).
//
// Compact on purpose: a corpus of 50,000 records keeps every record's marks,
// so they live in one string of pointers and one flat table per record (about
// 40 bytes a node), sorted once when the record is complete, not in two hash
// maps of strings (about 250 bytes a node).
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "qsel/core/problem.h"

namespace qsel {

class Marks {
 public:
  // Where the value at `pointer` starts / where the key naming it starts.
  void set_value(std::string_view pointer, Mark m) { slot(pointer).value = m; }
  void set_key(std::string_view pointer, Mark m) { slot(pointer).key = m; }

  // Adds `pointer`, which the caller knows is not in the table yet, without
  // looking it up first (the fast reader makes each node once, in document order).
  void append(std::string_view pointer, Mark value, Mark key);

  std::optional<Mark> value(std::string_view pointer) const;
  std::optional<Mark> key(std::string_view pointer) const;

  // The mark of `pointer`, or of its nearest ancestor that has one.
  Mark at(std::string_view pointer) const;
  // The key mark of `pointer` when it has one, else its value mark.
  Mark key_or_value(std::string_view pointer) const;

  // Forgets `pointer` (not its descendants).
  void erase(std::string_view pointer);
  // Item `index` of the list at `array` was removed: marks under it go, and
  // items after it move down by one, so later findings keep their locations.
  void remove_item(std::string_view array, std::size_t index);

  // Keeps only the entries whose pointer `keep` accepts, in a table sized to fit.
  void retain(const std::function<bool(std::string_view)>& keep);

  // Sorts the table and returns spare capacity. Lookups work before this too
  // (a sorted head and an unsorted tail, merged in when a lookup finds it long),
  // so a reader may look up while building.
  void finish();

  std::size_t size() const { return entries_.size(); }
  bool empty() const { return entries_.empty(); }
  // Every entry in pointer order (after finish()): pointer, value mark, key mark
  // (a mark with line 0 is absent).
  void for_each(const std::function<void(std::string_view, Mark, Mark)>& f) const;

  friend bool operator==(const Marks& a, const Marks& b);

 private:
  struct Entry {
    std::uint32_t offset = 0, length = 0;  // in paths_
    Mark value, key;
  };
  std::string_view path(const Entry& e) const { return std::string_view(paths_).substr(e.offset, e.length); }
  const Entry* find(std::string_view pointer) const;
  Entry& slot(std::string_view pointer);

  // Merges the unsorted tail into the sorted head. Lookups call it (hence
  // mutable); a finished table has no tail, so lookups on it change nothing
  // and may run on several threads.
  void tidy() const;

  std::string paths_;
  mutable std::vector<Entry> entries_;
  mutable std::size_t sorted_ = 0;  // entries_[0, sorted_) are in pointer order; the tail is not
};

// Appends one reference token to a JSON pointer, escaping '~' and '/'.
std::string pointer_child(const std::string& parent, const std::string& token);
// Appends "/token" to `pointer`, escaping '~' and '/'.
void append_token(std::string& pointer, std::string_view token);

// Calls `f` with each reference token of `pointer`, unescaped ('~1' is '/', '~0'
// is '~'; "" has none), until `f` returns false. No allocation unless a token
// holds an escape.
template <class F>
void for_each_token(std::string_view pointer, F&& f) {
  std::string buffer;
  std::size_t at = 0;
  while (at < pointer.size()) {
    std::size_t next = pointer.find('/', at + 1);
    std::string_view token = pointer.substr(at + 1, next == std::string_view::npos ? std::string_view::npos : next - at - 1);
    if (token.find('~') != std::string_view::npos) {
      buffer.clear();
      for (std::size_t i = 0; i < token.size(); ++i) {
        if (token[i] == '~' && i + 1 < token.size()) buffer += token[++i] == '1' ? '/' : '~';
        else buffer += token[i];
      }
      token = buffer;
    }
    if (!f(token) || next == std::string_view::npos) return;
    at = next;
  }
}

}  // namespace qsel
