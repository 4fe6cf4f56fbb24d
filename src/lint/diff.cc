// A minimal unified diff for --diff. Most fixes replace scalars within a line, so
// the two texts have the same lines except where a fix landed; when the line
// count changes (QS046's fix removes a directive that stood on a line of its own)
// the lines the texts share at the start and at the end are context, and what
// lies between is one hunk.
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

// One hunk: the common first and last lines trimmed to three lines of context.
std::string middle_hunk(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  std::size_t p = 0;
  while (p < a.size() && p < b.size() && a[p] == b[p]) ++p;
  std::size_t s = 0;
  while (s < a.size() - p && s < b.size() - p && a[a.size() - 1 - s] == b[b.size() - 1 - s]) ++s;
  std::size_t from = p > 3 ? p - 3 : 0, tail = std::min<std::size_t>(s, 3);
  std::size_t a_end = a.size() - s, b_end = b.size() - s;
  std::size_t a_len = a_end + tail - from, b_len = b_end + tail - from;
  // An empty range names the line before it, as diff(1) does.
  std::string out = fmt::format("@@ -{},{} +{},{} @@\n", a_len ? from + 1 : from, a_len, b_len ? from + 1 : from, b_len);
  for (std::size_t i = from; i < p; ++i) out += " " + a[i];
  for (std::size_t i = p; i < a_end; ++i) out += "-" + a[i];
  for (std::size_t i = p; i < b_end; ++i) out += "+" + b[i];
  for (std::size_t i = a_end; i < a_end + tail; ++i) out += " " + a[i];
  return out;
}

}  // namespace

std::string unified_diff(const std::string& file, std::string_view before, std::string_view after) {
  if (before == after) return "";
  auto a = lines_of(before), b = lines_of(after);
  std::string out = fmt::format("--- a/{}\n+++ b/{}\n", file, file);
  if (a.size() != b.size()) return out + middle_hunk(a, b);
  for (const Hunk& h : hunks(a, b, 3)) out += render(a, b, h);
  return out;
}

}  // namespace qsel
