#include "qsel/loader/marks.h"

#include <algorithm>
#include <charconv>
#include <limits>
#include <stdexcept>

namespace qsel {

// A lookup merges an unsorted tail longer than this into the sorted head first,
// so no lookup scans more than this many entries one by one.
constexpr std::size_t kTail = 64;

const Marks::Entry* Marks::find(std::string_view pointer) const {
  if (entries_.size() - sorted_ > kTail) tidy();
  auto head_end = entries_.begin() + static_cast<std::ptrdiff_t>(sorted_);
  auto it = std::lower_bound(entries_.begin(), head_end, pointer, [&](const Entry& e, std::string_view p) { return path(e) < p; });
  if (it != head_end && path(*it) == pointer) return &*it;
  for (auto t = head_end; t != entries_.end(); ++t)
    if (path(*t) == pointer) return &*t;
  return nullptr;
}

void Marks::tidy() const {
  auto less = [&](const Entry& a, const Entry& b) { return path(a) < path(b); };
  auto head_end = entries_.begin() + static_cast<std::ptrdiff_t>(sorted_);
  std::sort(head_end, entries_.end(), less);
  std::inplace_merge(entries_.begin(), head_end, entries_.end(), less);
  sorted_ = entries_.size();
}

Marks::Entry& Marks::slot(std::string_view pointer) {
  if (const Entry* e = find(pointer)) return const_cast<Entry&>(*e);
  append(pointer, {}, {});
  return const_cast<Entry&>(*find(pointer));
}

void Marks::append(std::string_view pointer, Mark value, Mark key) {
  if (paths_.size() + pointer.size() > std::numeric_limits<std::uint32_t>::max())
    throw std::length_error("marks: record too large");
  Entry e;
  e.offset = static_cast<std::uint32_t>(paths_.size());
  e.length = static_cast<std::uint32_t>(pointer.size());
  e.value = value;
  e.key = key;
  bool in_order = sorted_ == entries_.size() && (entries_.empty() || path(entries_.back()) < pointer);
  paths_.append(pointer);
  entries_.push_back(e);
  if (in_order) sorted_ = entries_.size();
}

std::optional<Mark> Marks::value(std::string_view pointer) const {
  const Entry* e = find(pointer);
  if (!e || !e->value.known()) return std::nullopt;
  return e->value;
}

std::optional<Mark> Marks::key(std::string_view pointer) const {
  const Entry* e = find(pointer);
  if (!e || !e->key.known()) return std::nullopt;
  return e->key;
}

Mark Marks::at(std::string_view pointer) const {
  for (;;) {
    if (auto m = value(pointer)) return *m;
    if (pointer.empty()) return {};
    pointer = pointer.substr(0, pointer.rfind('/'));
  }
}

Mark Marks::key_or_value(std::string_view pointer) const {
  if (auto m = key(pointer)) return *m;
  return at(pointer);
}

void Marks::erase(std::string_view pointer) {
  const Entry* e = find(pointer);
  if (!e) return;
  auto i = static_cast<std::size_t>(e - entries_.data());
  entries_.erase(entries_.begin() + static_cast<std::ptrdiff_t>(i));
  if (i < sorted_) --sorted_;
}

namespace {

// "/a/3/b" under array "/a": the index 3 and the rest "/b"; false when not under it.
bool item_of(std::string_view ptr, std::string_view array, std::size_t& index, std::string_view& rest) {
  if (ptr.size() <= array.size() + 1 || ptr.substr(0, array.size()) != array || ptr[array.size()] != '/') return false;
  std::string_view tail = ptr.substr(array.size() + 1);
  std::size_t slash = tail.find('/');
  std::string_view tok = tail.substr(0, slash);
  if (tok.empty() || tok.size() > 9 || (tok.size() > 1 && tok[0] == '0')) return false;
  auto [p, ec] = std::from_chars(tok.data(), tok.data() + tok.size(), index);
  if (ec != std::errc() || p != tok.data() + tok.size()) return false;
  rest = slash == std::string_view::npos ? std::string_view() : tail.substr(slash);
  return true;
}

}  // namespace

void Marks::remove_item(std::string_view array, std::size_t index) {
  Marks out;
  for (const Entry& e : entries_) {
    std::string_view ptr = path(e);
    std::size_t k = 0;
    std::string_view rest;
    if (item_of(ptr, array, k, rest) && k >= index) {
      if (k == index) continue;
      std::string moved = std::string(array) + "/" + std::to_string(k - 1) + std::string(rest);
      Entry& n = out.slot(moved);
      n.value = e.value;
      n.key = e.key;
      continue;
    }
    Entry& n = out.slot(ptr);
    n.value = e.value;
    n.key = e.key;
  }
  out.finish();
  *this = std::move(out);
}

void Marks::retain(const std::function<bool(std::string_view)>& keep) {
  if (sorted_ != entries_.size()) tidy();
  std::vector<const Entry*> kept;
  std::size_t bytes = 0;
  for (const Entry& e : entries_)
    if (keep(path(e))) {
      kept.push_back(&e);
      bytes += e.length;
    }
  Marks out;
  out.entries_.reserve(kept.size());
  out.paths_.reserve(bytes);
  for (const Entry* e : kept) out.append(path(*e), e->value, e->key);  // in order: the table stays sorted
  *this = std::move(out);
}

void Marks::finish() {
  if (sorted_ != entries_.size()) tidy();
  // Rewrite the pointers in table order: smaller, and a sequential scan for equality.
  std::string paths;
  paths.reserve(paths_.size());
  for (Entry& e : entries_) {
    std::string_view p = path(e);
    e.offset = static_cast<std::uint32_t>(paths.size());
    paths.append(p);
  }
  paths_ = std::move(paths);
  paths_.shrink_to_fit();
  entries_.shrink_to_fit();
}

void Marks::for_each(const std::function<void(std::string_view, Mark, Mark)>& f) const {
  std::vector<const Entry*> order;
  order.reserve(entries_.size());
  for (const Entry& e : entries_) order.push_back(&e);
  if (sorted_ != entries_.size())
    std::sort(order.begin(), order.end(), [&](const Entry* a, const Entry* b) { return path(*a) < path(*b); });
  for (const Entry* e : order) f(path(*e), e->value, e->key);
}

bool operator==(const Marks& a, const Marks& b) {
  if (a.entries_.size() != b.entries_.size()) return false;
  bool same = true;
  a.for_each([&](std::string_view p, Mark v, Mark k) {
    const Marks::Entry* e = b.find(p);
    same = same && e && e->value == v && e->key == k;
  });
  return same;
}

void append_token(std::string& pointer, std::string_view token) {
  pointer += '/';
  for (char c : token) {
    if (c == '~') pointer += "~0";
    else if (c == '/') pointer += "~1";
    else pointer += c;
  }
}

std::string pointer_child(const std::string& parent, const std::string& token) {
  std::string out;
  out.reserve(parent.size() + token.size() + 1);
  out += parent;
  append_token(out, token);
  return out;
}

}  // namespace qsel
