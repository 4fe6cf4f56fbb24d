#include "qsel/loader/loader.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <fstream>
#include <map>
#include <sstream>
#include <unordered_map>

#include <fmt/format.h>

#include "qsel/core/text.h"

namespace qsel {
namespace fs = std::filesystem;
namespace {

constexpr const char* kUnknownFolder = "QS013";
constexpr const char* kUnreadable = "QS014";

bool is_record_file(const fs::path& p) {
  auto ext = p.extension().string();
  return ext == ".yaml" || ext == ".yml";
}

// Reads at most cap+1 bytes of a regular file (enough to know it is too large).
// Opened without blocking and checked with fstat, so a FIFO or device that
// slipped in never hangs the read.
bool read_file(const fs::path& p, std::string& out, std::size_t cap) {
  int fd = ::open(p.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return false;
  struct stat st {};
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return false;
  }
  out.clear();
  char buf[64 * 1024];
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      ::close(fd);
      return false;
    }
    if (n == 0) break;
    out.append(buf, static_cast<std::size_t>(n));
    if (out.size() > cap) break;
  }
  ::close(fd);
  return true;
}

std::string shown_path(const fs::path& p) { return p.lexically_normal().generic_string(); }

struct FileToLoad {
  fs::path path;
  Kind kind;
};

bool inside(const fs::path& file, const fs::path& dir) {
  auto f = file.begin();
  for (auto d = dir.begin(); d != dir.end(); ++d, ++f)
    if (f == file.end() || *f != *d) return d->empty();
  return true;
}

// Why `p` cannot be loaded as a record file, or empty when it can: a symlink
// loop, a dangling link, a link out of the corpus, a directory, a FIFO …
std::string unloadable(const fs::path& p, const fs::path& root) {
  std::error_code ec;
  auto link = fs::symlink_status(p, ec);
  if (ec) return "cannot read its directory entry";
  if (fs::is_symlink(link)) {
    fs::path target = fs::canonical(p, ec);
    if (ec) return ec == std::errc::too_many_symbolic_link_levels ? "a symlink loop" : "a dangling symlink";
    fs::path base = fs::canonical(root, ec);
    if (!ec && !inside(target, base))
      return fmt::format("a symlink to {}, outside the corpus: qsel does not follow it (copy the record in)", shown_path(target));
  }
  auto st = fs::status(p, ec);
  if (ec) return "cannot read file";
  if (fs::is_directory(st)) return "a directory named like a record file";
  if (!fs::is_regular_file(st)) return "not a regular file (a FIFO, socket or device)";
  return "";
}

// The entries of `dir`, sorted, or a problem when it cannot be listed. Never throws.
std::vector<fs::path> entries(const fs::path& dir, Corpus& corpus) {
  std::vector<fs::path> out;
  std::error_code ec;
  fs::directory_iterator it(dir, ec), end;
  if (ec) {
    corpus.problems.push_back({kUnreadable, shown_path(dir), {}, "", fmt::format("cannot list the folder: {}", ec.message())});
    return out;
  }
  for (; it != end; it.increment(ec)) {
    if (ec) {
      corpus.problems.push_back({kUnreadable, shown_path(dir), {}, "", fmt::format("cannot list the folder: {}", ec.message())});
      break;
    }
    out.push_back(it->path());
    if (out.size() > 1000000) break;  // a folder of a million entries is no corpus
  }
  std::sort(out.begin(), out.end());
  return out;
}

void collect_kind_folder(const fs::path& dir, Kind kind, const fs::path& root, std::vector<FileToLoad>& out, Corpus& corpus) {
  for (const auto& p : entries(dir, corpus)) {
    if (!is_record_file(p)) continue;
    if (std::string why = unloadable(p, root); !why.empty()) {
      corpus.problems.push_back({kUnreadable, shown_path(p), {}, "", why});
      continue;
    }
    out.push_back({p, kind});
  }
}

void collect(const fs::path& root, std::vector<FileToLoad>& out, Corpus& corpus) {
  std::error_code ec;
  auto st = fs::status(root, ec);
  if (!ec && !fs::is_directory(st)) {
    auto kind = parse_kind(root.parent_path().filename().string());
    if (!kind) {
      corpus.problems.push_back({kUnknownFolder, shown_path(root), {}, "",
          fmt::format("cannot tell the record kind: the file must sit in a kind folder (formats/, accelerators/, …), not {}",
                      quote_value(root.parent_path().filename().string()))});
      return;
    }
    if (!fs::is_regular_file(st)) {
      corpus.problems.push_back({kUnreadable, shown_path(root), {}, "", "not a regular file (a FIFO, socket or device)"});
      return;
    }
    out.push_back({root, *kind});
    return;
  }
  if (auto kind = parse_kind(root.filename().string()); kind && root.filename().string() == kind_plural(*kind)) {
    collect_kind_folder(root, *kind, root, out, corpus);
    return;
  }
  for (const auto& p : entries(root, corpus)) {
    std::error_code e2;
    if (!fs::is_directory(fs::status(p, e2)) || e2) continue;
    std::string name = p.filename().string();
    if (name.empty() || name[0] == '.') continue;
    auto kind = parse_kind(name);
    if (kind && name == kind_plural(*kind)) {
      if (std::string why = unloadable(p, root); fs::is_symlink(fs::symlink_status(p, e2)) && why.find("outside") != std::string::npos) {
        corpus.problems.push_back({kUnreadable, shown_path(p), {}, "", why});
        continue;
      }
      collect_kind_folder(p, *kind, root, out, corpus);
      continue;
    }
    bool has_yaml = false;
    for (const auto& f : entries(p, corpus)) has_yaml = has_yaml || is_record_file(f);
    if (!has_yaml) continue;
    std::vector<std::string> plurals;
    for (const auto& k : all_kinds()) plurals.push_back(k.plural);
    auto near = nearest(name, plurals, 1);
    corpus.problems.push_back({kUnknownFolder, shown_path(p), {}, "",
        fmt::format("folder {} is not a record kind{}; its files were not loaded", quote_value(name),
                    near.empty() ? "" : fmt::format(" (did you mean \"{}\"?)", near[0]))});
  }
}

}  // namespace

std::optional<Record> load_record(std::string_view text, const std::string& file, Kind kind,
                                  const SchemaSet& schemas, Problems& out, const YamlLimits& limits) {
  YamlDocument doc = read_yaml(text, file, limits);
  if (!doc.value.is_null() && !doc.value.is_object()) {
    doc.problems.push_back({"QS001", file, doc.marks.at(""), "", "/: expected a mapping (one record), got a scalar or list"});
  }
  std::string id = doc.value.is_object() && doc.value.contains("id") && doc.value["id"].is_string()
                       ? doc.value["id"].get<std::string>() : "";
  // A document with YAML problems is not what the user wrote (aliases read as null,
  // duplicate keys dropped): report those and skip schema validation.
  bool fatal = !doc.value.is_object() || !doc.problems.empty();
  for (auto& p : doc.problems) {
    p.record = id;
    out.push_back(std::move(p));
  }
  if (fatal) return std::nullopt;
  Problems schema_problems = schemas.validate(kind_name(kind), doc.value, doc.marks, file);
  if (!schema_problems.empty()) {
    out.insert(out.end(), schema_problems.begin(), schema_problems.end());
    return std::nullopt;
  }
  Record r;
  r.kind = kind;
  r.file = file;
  r.data = std::move(doc.value);
  r.marks = std::move(doc.marks);
  fill_common(r);
  return r;
}

void drop_duplicate_ids(Corpus& corpus) {
  std::unordered_map<std::string, std::size_t> first;
  std::vector<Record> kept;
  for (auto& r : corpus.records) {
    auto [it, fresh] = first.emplace(r.id, kept.size());
    if (fresh) {
      kept.push_back(std::move(r));
      continue;
    }
    const Record& f = kept[it->second];
    corpus.problems.push_back({"QS002", r.file, r.mark_of("/id"), r.id,
        fmt::format("id \"{}\" is already used by {}:{}", r.id, f.file, f.mark_of("/id").line)});
  }
  corpus.records = std::move(kept);
}

Corpus load_corpus(const fs::path& root, const SchemaSet& schemas, const YamlLimits& limits) {
  Corpus corpus;
  corpus.origin = shown_path(root);
  std::error_code ec;
  if (!fs::exists(root, ec)) {
    corpus.problems.push_back({kUnreadable, shown_path(root), {}, "", "no such file or directory"});
    return corpus;
  }
  std::vector<FileToLoad> files;
  collect(root, files, corpus);
  std::sort(files.begin(), files.end(), [](const auto& a, const auto& b) { return a.path < b.path; });
  std::string digest_input;
  for (const auto& f : files) {
    std::string text, shown = shown_path(f.path);
    ++corpus.files;
    if (!read_file(f.path, text, limits.max_bytes)) {
      corpus.problems.push_back({kUnreadable, shown, {}, "", "cannot read file"});
      continue;
    }
    digest_input += fmt::format("{}\n{}\n{}\n", kind_plural(f.kind), f.path.filename().string(), text.size());
    digest_input += text;
    if (auto r = load_record(text, shown, f.kind, schemas, corpus.problems, limits)) corpus.records.push_back(std::move(*r));
  }
  corpus.digest = sha256_hex(digest_input);
  drop_duplicate_ids(corpus);
  return corpus;
}

std::map<std::string, nlohmann::json> read_schema_dir(const fs::path& dir) {
  std::map<std::string, nlohmann::json> out;
  for (const auto& k : all_kinds()) {
    fs::path p = dir / (std::string(k.name) + ".schema.json");
    std::ifstream in(p);
    if (!in) throw std::runtime_error(fmt::format("{}: cannot read schema", shown_path(p)));
    try {
      out[k.name] = nlohmann::json::parse(in);
    } catch (const nlohmann::json::exception& e) {
      throw std::runtime_error(fmt::format("{}: invalid JSON: {}", shown_path(p), e.what()));
    }
  }
  return out;
}

}  // namespace qsel
