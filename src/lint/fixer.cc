#include "qsel/lint/fixer.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include <fmt/format.h>

#include "qsel/core/atomic_write.h"
#include "qsel/core/errors.h"
#include "qsel/core/text_file.h"
#include "qsel/lint/errors.h"
#include "qsel/loader/yaml_reader.h"

namespace qsel {
namespace fs = std::filesystem;
namespace {

// Byte offset of 1-based line/column (column in characters), or npos.
std::size_t offset_of(std::string_view text, Mark at) {
  std::size_t pos = 0;
  for (int line = 1; line < at.line; ++line) {
    pos = text.find('\n', pos);
    if (pos == std::string_view::npos) return pos;
    ++pos;
  }
  for (int col = 1; col < at.column && pos < text.size() && text[pos] != '\n'; ++col)
    do ++pos; while (pos < text.size() && (static_cast<unsigned char>(text[pos]) & 0xC0) == 0x80);
  return pos <= text.size() ? pos : std::string_view::npos;
}

std::size_t quoted_end(std::string_view text, std::size_t begin) {
  char q = text[begin];
  for (std::size_t i = begin + 1; i < text.size(); ++i) {
    if (q == '"' && text[i] == '\\') { ++i; continue; }
    if (text[i] != q) continue;
    if (q == '\'' && i + 1 < text.size() && text[i + 1] == '\'') { ++i; continue; }
    return i + 1;
  }
  return text.size();
}

// Inside a flow collection ([...] or {...}) opened earlier on the same line?
bool in_flow(std::string_view text, std::size_t pos) {
  std::size_t start = text.rfind('\n', pos == 0 ? 0 : pos - 1);
  start = start == std::string_view::npos ? 0 : start + 1;
  int depth = 0;
  for (std::size_t i = start; i < pos; ++i) depth += (text[i] == '[' || text[i] == '{') - (text[i] == ']' || text[i] == '}');
  return depth > 0;
}

std::size_t plain_end(std::string_view text, std::size_t begin) {
  bool flow = in_flow(text, begin);
  std::size_t i = begin;
  for (; i < text.size() && text[i] != '\n'; ++i) {
    if ((text[i] == '#') && i > begin && (text[i - 1] == ' ' || text[i - 1] == '\t')) break;
    if (flow && (text[i] == ',' || text[i] == ']' || text[i] == '}')) break;
  }
  while (i > begin && (text[i - 1] == ' ' || text[i - 1] == '\t' || text[i - 1] == '\r')) --i;
  return i;
}

bool is_quote(char c) { return c == '"' || c == '\''; }

}  // namespace

std::optional<Span> scalar_span(std::string_view text, Mark at) {
  std::size_t begin = offset_of(text, at);
  if (begin == std::string_view::npos || begin >= text.size()) return std::nullopt;
  return Span{begin, is_quote(text[begin]) ? quoted_end(text, begin) : plain_end(text, begin)};
}

std::string apply_fixes(std::string_view text, std::vector<Fix> fixes, std::size_t& applied) {
  std::sort(fixes.begin(), fixes.end(), [](const Fix& a, const Fix& b) {
    return std::pair(a.at.line, a.at.column) > std::pair(b.at.line, b.at.column);
  });
  std::string out(text);
  Mark last{};
  for (const Fix& f : fixes) {
    if (f.verbatim) {
      std::size_t pos = f.at == last ? std::string::npos : offset_of(out, f.at);
      if (pos == std::string::npos || out.compare(pos, f.old_text.size(), f.old_text) != 0) continue;
      out.replace(pos, f.old_text.size(), f.new_text);
      last = f.at;
      ++applied;
      continue;
    }
    auto span = scalar_span(out, f.at);
    if (!span || f.at == last) continue;
    std::string token = out.substr(span->begin, span->end - span->begin);
    bool quoted = token.size() >= 2 && is_quote(token.front()) && token.back() == token.front();
    if ((quoted ? token.substr(1, token.size() - 2) : token) != f.old_text) continue;
    out.replace(span->begin, span->end - span->begin, quoted ? token.front() + f.new_text + token.front() : f.new_text);
    last = f.at;
    ++applied;
  }
  return out;
}

std::vector<FileEdit> plan_fixes(const Findings& findings, const FileOverlay* overlay) {
  std::map<std::string, std::vector<Fix>> by_file;
  for (const Finding& f : findings)
    if (f.fix) by_file[f.file].push_back(*f.fix);
  std::vector<FileEdit> edits;
  for (auto& [file, fixes] : by_file) {
    std::string text;
    if (overlay) {  // lint - --fix: only stdin's text is fixed; no file is read or written
      if (!overlay->is(file)) continue;
      text = overlay->text;
    } else {
      try {
        text = read_text_file(file, kMaxRecordFileBytes, "record file");
      } catch (const UsageError& e) {
        throw LintInputError(fmt::format("{} (reading it to fix it)", e.what()));
      }
    }
    FileEdit e{file, std::move(text), "", 0};
    e.after = apply_fixes(e.before, fixes, e.fixes);
    if (e.fixes > 0) edits.push_back(std::move(e));
  }
  return edits;
}

namespace {

// Writes `e.after` atomically, and only where the file is still what was linted
// (checked before writing and again just before the rename) and not a symlink.
// Returns why it was not written, or empty.
std::string write_one(const FileEdit& e) {
  AtomicWrite options;
  options.temp_tag = "qsel-fix";
  options.refuse_symlink = true;
  options.expect = e.before;
  options.expect_max_bytes = kMaxRecordFileBytes;
  WriteOutcome out = try_write_file_atomic(e.file, e.after, options);
  switch (out.code) {
    case WriteOutcome::Written: return "";
    case WriteOutcome::Symlink: return "it is a symlink; --fix does not write through links (edit the target itself)";
    case WriteOutcome::ChangedBefore: return "the file changed since it was linted; run qsel lint --fix again";
    case WriteOutcome::ChangedDuring: return "the file changed while it was being fixed; nothing was written";
    default: return out.why;
  }
}

}  // namespace

std::vector<FixFailure> write_edits(const std::vector<FileEdit>& edits) {
  std::vector<FixFailure> failed;
  for (const FileEdit& e : edits)
    if (std::string why = write_one(e); !why.empty()) failed.push_back({e.file, why});
  return failed;
}

}  // namespace qsel
