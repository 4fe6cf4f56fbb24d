// Byte-level checks for YAML that yaml-cpp 0.7 accepts and the YAML 1.2 spec
// rejects (an unterminated quote at the end of the file, a mapping key with no
// ':', a '#' comment glued to a value, continuation lines indented no deeper than
// their block, `[a, , b]`, ...). yaml_reader.cc calls it for every node yaml-cpp
// reports, in document order, with where that node sits; each check reads the
// source from the node's first byte.
//
// Every check is a forward scan over the node's own bytes (a flow collection's
// bytes once, however deeply nested), so a file costs linear time. Nothing is
// allocated from counts in the input, and there are no regular expressions.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace qsel::yaml_strict {

// One problem: the byte offset it points at, and what is wrong there.
struct Issue {
  std::size_t pos = 0;
  std::string message;
};

// Where a node sits in the document.
struct Place {
  int block_column = -1;   // 0-based column of the nearest enclosing block collection; -1 at the top level
  bool in_flow = false;    // inside a [...] or {...} collection
  bool block_key = false;  // the key of a block mapping entry
};

class Checker {
 public:
  explicit Checker(std::string_view text, std::size_t max_issues = 16) : t_(text), max_(max_issues) {}

  // Directives (`%YAML 1.2`) before the first document must be followed by `---`.
  void document_prefix();
  // A scalar node whose mark (properties included) is at `pos`.
  void scalar(std::size_t pos, const Place& at);
  // A flow collection whose mark is at `pos`; nested ones are covered by the
  // outermost one's scan, so calling this for them is cheap and harmless.
  void flow_collection(std::size_t pos, const Place& at);
  // The 0-based column of a block collection's indentation: of its first key
  // or '-'. That is the mark's `column` unless properties such as `!!map` come
  // first; then the first entry's column is looked up.
  int block_column(std::size_t pos, int column) const;

  // In order of position, at most one per offset, at most `max_issues`.
  std::vector<Issue> issues() const;

 private:
  char at(std::size_t i) const { return i < t_.size() ? t_[i] : '\0'; }
  bool end(std::size_t i) const { return i >= t_.size(); }
  bool blank_or_end(std::size_t i) const;  // space, tab, line break or end of text
  bool document_marker(std::size_t line_start) const;
  std::size_t skip_properties(std::size_t pos) const;
  std::size_t line_end(std::size_t i) const;
  bool explicit_key(std::size_t pos) const;
  void add(std::size_t pos, std::string message);

  // Scans a quoted scalar starting at its quote; returns the offset after the
  // closing quote, or npos when there is none. Reports problems when `report`.
  std::size_t quoted(std::size_t pos, int min_indent, bool report);
  // Checks the line starting at `line_start` inside a quoted scalar or a flow
  // collection; returns false when it reported a problem.
  bool continuation_line(std::size_t line_start, int min_indent, bool flow, bool report);
  void block_scalar(std::size_t pos, int block_column);
  void plain(std::size_t pos, std::size_t content, const Place& at);

  std::string_view t_;
  std::size_t max_;
  std::vector<Issue> issues_;
  std::size_t flow_scanned_to_ = 0;  // flow collections before this offset were scanned already
};

}  // namespace qsel::yaml_strict
