// A located problem found while reading or checking records. Problems are data:
// the loader returns them, lint turns them into findings, the CLI prints them.
#pragma once
#include <string>
#include <vector>

namespace qsel {

// 1-based line and column (column counts characters, not bytes). 0 means unknown.
struct Mark {
  int line = 0;
  int column = 0;
  bool known() const { return line > 0; }
  friend bool operator==(const Mark&, const Mark&) = default;
};

enum class Severity { Error, Warning };

struct Problem {
  std::string code;     // stable lint code, e.g. "QS001"
  std::string file;     // path as the user named it
  Mark mark;            // where the offending value starts
  std::string record;   // record id when known
  std::string message;  // one line, no location prefix
  Severity severity = Severity::Error;
  std::string pointer;  // JSON pointer of the offending value in the record, when known
};

using Problems = std::vector<Problem>;

// "file:line:col: message" — the shape every located error takes.
std::string located(const Problem& p);

}  // namespace qsel
