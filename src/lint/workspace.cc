#include "qsel/lint/workspace.h"

#include <algorithm>
#include <set>
#include <string_view>
#include <unordered_set>

#include <fmt/format.h>

#include "qsel/core/text.h"
#include "qsel/lint/errors.h"

namespace qsel {
namespace fs = std::filesystem;
namespace {

// The last name of `dir`, ignoring a trailing separator.
std::string name_of(const fs::path& dir) {
  std::error_code ec;
  fs::path abs = fs::absolute(dir, ec).lexically_normal();
  return abs.has_filename() ? abs.filename().string() : abs.parent_path().filename().string();
}

bool is_kind_folder(const fs::path& dir) {
  std::string name = name_of(dir);
  auto kind = parse_kind(name);
  return kind && name == kind_plural(*kind);
}

// The corpus directory a path belongs to: a file's or a kind folder's corpus is
// loaded whole; a corpus directory (or a stray file the loader reports) is itself.
fs::path corpus_root(const fs::path& p) {
  std::error_code ec;
  fs::path folder = fs::is_directory(p, ec) ? p : p.parent_path();
  if (folder.empty()) folder = ".";
  if (!is_kind_folder(folder)) return p;
  return (folder / "..").lexically_normal();
}

fs::path canonical_or_absolute(const fs::path& p) {
  std::error_code ec;
  fs::path c = fs::weakly_canonical(p, ec);
  if (!ec) return c;
  fs::path abs = fs::absolute(p, ec);
  return ec ? p.lexically_normal() : abs.lexically_normal();
}

void merge(Corpus& into, Corpus&& more) {
  if (into.records.empty()) into.records = std::move(more.records);  // no second array of records at the peak
  else into.records.insert(into.records.end(), std::make_move_iterator(more.records.begin()),
                           std::make_move_iterator(more.records.end()));
  for (auto& u : more.unvalidated) into.unvalidated.push_back(std::move(u));
  for (auto& p : more.problems) into.problems.push_back(std::move(p));
  into.files += more.files;
}

bool under(const fs::path& file, const fs::path& dir) {
  auto f = file.begin();
  for (auto d = dir.begin(); d != dir.end(); ++d, ++f)
    if (f == file.end() || *f != *d) return d->empty();  // a trailing separator is an empty element
  return true;
}

}  // namespace

bool Workspace::in_scope(const std::string& file) const {
  // A file is in scope when it sits under a linted path as written (a symlink
  // inside the tree counts as inside, wherever it points) or as resolved.
  // Resolving costs a syscall per path component, so it is done once per
  // folder; only a file that is itself a symlink is resolved on its own. Most
  // files sit in a folder that is itself under a linted path: that is decided
  // once for the folder, and such files need no lookup of their own.
  fs::path p(file);
  auto [dir, fresh] = folder_cache_.try_emplace(p.parent_path().string());
  if (fresh) {
    std::error_code ec;
    fs::path parent = p.parent_path().empty() ? fs::path(".") : p.parent_path();
    fs::path abs = fs::absolute(parent, ec);
    dir->second.written_ok = !ec;
    dir->second.written = ec ? fs::path() : abs.lexically_normal();
    dir->second.resolved = canonical_or_absolute(parent);
    const fs::path& written = dir->second.written;  // (clang captures no structured binding)
    dir->second.all_in = dir->second.written_ok && std::any_of(scope_as_written.begin(), scope_as_written.end(),
                                                               [&](const fs::path& s) { return under(written, s); });
  }
  const Folder& d = dir->second;
  if (d.all_in) return true;
  if (auto it = in_scope_cache_.find(file); it != in_scope_cache_.end()) return it->second;
  fs::path lexical = d.written / p.filename();
  bool in = d.written_ok && std::any_of(scope_as_written.begin(), scope_as_written.end(), [&](const fs::path& s) { return under(lexical, s); });
  if (!in) {  // only then is the file's own resolution worth its syscalls
    std::error_code ec;
    fs::path c = fs::is_symlink(fs::symlink_status(p, ec)) ? canonical_or_absolute(file) : d.resolved / p.filename();
    in = std::any_of(scope.begin(), scope.end(), [&](const fs::path& s) { return under(c, s); });
  }
  return in_scope_cache_[file] = in;
}

std::vector<std::string> Workspace::file_names_in_scope() const {
  std::unordered_set<std::string_view> files;  // views of the corpus's own strings
  files.reserve(corpus.records.size());
  for (const auto& r : corpus.records)
    if (in_scope(r.file)) files.insert(r.file);
  for (const auto& p : corpus.problems)
    if (p.code != "QS013" && in_scope(p.file)) files.insert(p.file);
  std::vector<std::string> out(files.begin(), files.end());
  std::sort(out.begin(), out.end());
  return out;
}

std::size_t Workspace::files_in_scope() const { return file_names_in_scope().size(); }

std::size_t Workspace::records_in_scope() const {
  return static_cast<std::size_t>(
      std::count_if(corpus.records.begin(), corpus.records.end(), [&](const Record& r) { return in_scope(r.file); }));
}

Workspace load_workspace(const std::vector<std::string>& paths, const SchemaSet& schemas, const RecordHook& on_record,
                         const FileOverlay* overlay) {
  Workspace ws;
  std::set<fs::path> roots_seen;
  for (const auto& p : paths) {
    std::error_code ec;
    if (p.empty()) throw LintInputError("an empty path: name a corpus folder or record file");
    if (!fs::exists(p, ec) && !(overlay && overlay->is(p))) throw LintInputError(fmt::format("{}: no such file or directory", p));
    if (overlay && overlay->is(p)) {  // stdin's record sits in a corpus on disk: without its folder nothing would be linted
      fs::path folder = fs::path(p).parent_path().empty() ? fs::path(".") : fs::path(p).parent_path();
      if (!fs::is_directory(folder, ec))
        throw LintInputError(fmt::format("--stdin-filename {}: no folder {}: name where the record sits in a corpus that exists", p, folder.string()));
    }
    ws.scope.push_back(canonical_or_absolute(p));
    ws.scope_as_written.push_back(fs::absolute(p, ec).lexically_normal());
    fs::path root = corpus_root(p);
    if (!roots_seen.insert(canonical_or_absolute(root)).second) continue;
    merge(ws.corpus, load_corpus(root, schemas, YamlLimits{}, 0, /*with_digest=*/false, on_record, overlay));
  }
  if (roots_seen.size() > 1) drop_duplicate_ids(ws.corpus);
  ws.corpus.origin = fmt::format("{}", fmt::join(paths, " "));
  return ws;
}

}  // namespace qsel
