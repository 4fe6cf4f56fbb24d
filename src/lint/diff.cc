// A minimal unified diff for --diff. Fixes replace scalars within a line, so the
// two texts have the same lines except where a fix landed; a change of line
// count (never produced by qsel's fixes) falls back to one whole-file hunk.
#include <sstream>
#include <vector>

#include <fmt/format.h>

#include "qsel/lint/fixer.h"

namespace qsel {
namespace {

std::vector<std::string> lines_of(std::string_view text) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : text) {
    cur += c;
    if (c == '\n') { out.push_back(cur); cur.clear(); }
  }
  if (!cur.empty()) out.push_back(cur + "\n\\ No newline at end of file\n");
  return out;
}

struct Hunk {
  std::size_t begin, end;  // line range [begin, end) shown, same in both texts
};

std::vector<Hunk> hunks(const std::vector<std::string>& a, const std::vector<std::string>& b, std::size_t context) {
  std::vector<Hunk> out;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i] == b[i]) continue;
    std::size_t begin = i > context ? i - context : 0, end = std::min(a.size(), i + 1 + context);
    if (!out.empty() && begin <= out.back().end) out.back().end = end;
    else out.push_back({begin, end});
  }
  return out;
}

std::string render(const std::vector<std::string>& a, const std::vector<std::string>& b, const Hunk& h) {
  std::string out = fmt::format("@@ -{},{} +{},{} @@\n", h.begin + 1, h.end - h.begin, h.begin + 1, h.end - h.begin);
  for (std::size_t i = h.begin; i < h.end;) {
    if (a[i] == b[i]) { out += " " + a[i++]; continue; }
    std::size_t j = i;
    while (j < h.end && a[j] != b[j]) ++j;
    for (std::size_t k = i; k < j; ++k) out += "-" + a[k];
    for (std::size_t k = i; k < j; ++k) out += "+" + b[k];
    i = j;
  }
  return out;
}

std::string whole_file(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  std::string out = fmt::format("@@ -1,{} +1,{} @@\n", a.size(), b.size());
  for (const auto& l : a) out += "-" + l;
  for (const auto& l : b) out += "+" + l;
  return out;
}

}  // namespace

std::string unified_diff(const std::string& file, std::string_view before, std::string_view after) {
  if (before == after) return "";
  auto a = lines_of(before), b = lines_of(after);
  std::string out = fmt::format("--- a/{}\n+++ b/{}\n", file, file);
  if (a.size() != b.size()) return out + whole_file(a, b);
  for (const Hunk& h : hunks(a, b, 3)) out += render(a, b, h);
  return out;
}

}  // namespace qsel
