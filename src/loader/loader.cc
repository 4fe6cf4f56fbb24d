#include "qsel/loader/loader.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <thread>
#include <unordered_map>

#include <fmt/format.h>

#include "qsel/core/parallel.h"
#include "qsel/core/text.h"

namespace qsel {
namespace fs = std::filesystem;
namespace {

constexpr const char* kUnknownFolder = "QS013";
constexpr const char* kUnreadable = "QS014";

// Told from the name's bytes: path::extension() parses and allocates, once per
// file of a corpus of 50,000.
bool is_record_file(const fs::path& p) {
  std::string_view name(p.native());
  name = name.substr(name.rfind('/') + 1);
  for (std::string_view ext : {std::string_view(".yaml"), std::string_view(".yml")})
    if (name.size() > ext.size() && name.ends_with(ext)) return true;
  return false;
}

// Reads at most cap+1 bytes of a regular file (enough to know it is too large)
// straight into `out`; `size` is the file's size (fstat's, or what was read
// when more). Opened without blocking and checked with fstat, so a FIFO or
// device that slipped in never hangs the read. A file that grows while it is
// read is read to its end or the cap.
bool read_file(const fs::path& p, std::string& out, std::size_t cap, std::size_t& size) {
  int fd = ::open(p.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return false;
  struct stat st {};
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return false;
  }
  std::size_t have = 0;
  out.resize(std::min(static_cast<std::size_t>(std::max<off_t>(st.st_size, 0)), cap) + 1);
  for (;;) {
    if (have == out.size()) out.resize(std::min(out.size() * 2, cap + 1));
    ssize_t n = ::read(fd, out.data() + have, out.size() - have);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      ::close(fd);
      return false;
    }
    if (n == 0) break;
    have += static_cast<std::size_t>(n);
    if (have > cap) break;
  }
  ::close(fd);
  out.resize(have);
  size = std::max(have, static_cast<std::size_t>(std::max<off_t>(st.st_size, 0)));
  return true;
}

std::string shown_path(const fs::path& p) { return p.lexically_normal().generic_string(); }

struct FileToLoad {
  fs::path path;
  Kind kind;
  const std::string* text = nullptr;  // an overlay's text, read in place of the file
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
// Each entry keeps the file type the directory listing gave, so a plain record
// file costs no stat call before it is opened.
std::vector<fs::directory_entry> entries(const fs::path& dir, Corpus& corpus) {
  std::vector<fs::directory_entry> out;
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
    out.push_back(*it);
    if (out.size() > 1000000) break;  // a folder of a million entries is no corpus
  }
  // One folder's entries differ only in their last name: comparing the names
  // as strings gives path order without path's component-wise compare.
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.path().native() < b.path().native(); });
  return out;
}

void collect_kind_folder(const fs::path& dir, Kind kind, const fs::path& root, std::vector<FileToLoad>& out, Corpus& corpus) {
  for (const auto& e : entries(dir, corpus)) {
    const fs::path& p = e.path();
    if (!is_record_file(p)) continue;
    std::error_code e1, e2;
    if (!e.is_symlink(e1) && !e1 && e.is_regular_file(e2) && !e2) {  // the listing's own type: no syscall
      out.push_back({p, kind});
      continue;
    }
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
  for (const auto& entry : entries(root, corpus)) {
    const fs::path& p = entry.path();
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
    for (const auto& f : entries(p, corpus)) has_yaml = has_yaml || is_record_file(f.path());
    if (!has_yaml) continue;
    std::vector<std::string> plurals;
    for (const auto& k : all_kinds()) plurals.push_back(k.plural);
    auto near = nearest(name, plurals, 1);
    corpus.problems.push_back({kUnknownFolder, shown_path(p), {}, "",
        fmt::format("folder {} is not a record kind{}; its files were not loaded", quote_value(name),
                    near.empty() ? "" : fmt::format(" (did you mean \"{}\"?)", near[0]))});
  }
}

// A pointer's reference tokens, unescaped.
std::vector<std::string> tokens_of(const std::string& pointer) {
  std::vector<std::string> out;
  for_each_token(pointer, [&](std::string_view token) {
    out.emplace_back(token);
    return true;
  });
  return out;
}

std::string pointer_of(const std::vector<std::string>& tokens, std::size_t n) {
  std::string p;
  for (std::size_t i = 0; i < n && i < tokens.size(); ++i) p = pointer_child(p, tokens[i]);
  return p;
}

bool all_digits(const std::string& t) {
  return !t.empty() && t.size() < 10 && std::all_of(t.begin(), t.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// Removes the values the schema problems point at (unknown fields, wrong types,
// bad list items). False when a problem cannot be removed: a missing required
// field, the id, the whole document.
bool without_offending_values(nlohmann::json& doc, Marks& marks, const Problems& problems) {
  std::vector<std::vector<std::string>> targets;
  for (const auto& p : problems) {
    if (p.pointer.empty() || p.pointer == "/id") return false;
    targets.push_back(tokens_of(p.pointer));
  }
  // Deepest and highest index first, so earlier removals never move later targets.
  std::sort(targets.begin(), targets.end(), [](const auto& a, const auto& b) {
    for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) {
      if (a[i] == b[i]) continue;
      if (all_digits(a[i]) && all_digits(b[i])) return std::stoul(a[i]) > std::stoul(b[i]);
      return a[i] > b[i];
    }
    return a.size() > b.size();
  });
  for (const auto& t : targets) {
    if (t.empty()) return false;
    nlohmann::json* parent = &doc;
    for (std::size_t i = 0; i + 1 < t.size() && parent; ++i) {
      if (parent->is_object() && parent->contains(t[i])) parent = &(*parent)[t[i]];
      else if (parent->is_array() && all_digits(t[i]) && std::stoul(t[i]) < parent->size()) parent = &(*parent)[std::stoul(t[i])];
      else parent = nullptr;
    }
    if (!parent) continue;  // inside a value already removed
    std::string ptr = pointer_of(t, t.size());
    if (parent->is_object()) {
      parent->erase(t.back());
      marks.erase(ptr);
    } else if (parent->is_array() && all_digits(t.back()) && std::stoul(t.back()) < parent->size()) {
      std::size_t index = std::stoul(t.back());
      parent->erase(parent->begin() + static_cast<std::ptrdiff_t>(index));
      marks.remove_item(pointer_of(t, t.size() - 1), index);
    }
  }
  return true;
}

RecordStub stub_of(const nlohmann::json& doc, const std::string& id, Kind kind, const std::string& file) {
  RecordStub s{id, kind, {}, file};
  if (auto it = doc.find("aliases"); it != doc.end() && it->is_array())
    for (const auto& a : *it)
      if (a.is_string() && s.aliases.size() < 1000) s.aliases.push_back(a.get<std::string>());
  return s;
}

}  // namespace

std::optional<Record> load_record(std::string_view text, const std::string& file, Kind kind,
                                  const SchemaSet& schemas, Problems& out, const YamlLimits& limits, RecordStub* stub) {
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
  if (fatal) {
    if (stub && !id.empty() && doc.value.is_object()) *stub = stub_of(doc.value, id, kind, file);
    return std::nullopt;
  }
  Problems schema_problems = schemas.validate(kind_name(kind), doc.value, doc.marks, file);
  bool repaired = false;
  if (!schema_problems.empty()) {
    out.insert(out.end(), schema_problems.begin(), schema_problems.end());
    // One mistake, one finding: keep the record without the offending values
    // when that makes it valid, so references to it and checks of its other
    // fields still work; else register what can be read of it.
    if (!without_offending_values(doc.value, doc.marks, schema_problems) ||
        !schemas.validate(kind_name(kind), doc.value, doc.marks, file).empty()) {
      if (stub && !id.empty()) *stub = stub_of(doc.value, id, kind, file);
      return std::nullopt;
    }
    repaired = true;
  }
  Record r;
  r.kind = kind;
  r.file = file;
  r.data = std::move(doc.value);
  r.marks = std::move(doc.marks);
  r.repaired = repaired;
  fill_common(r);
  return r;
}

// In place: a second array of records would be the peak of a large lint.
void drop_duplicate_ids(Corpus& corpus) {
  std::vector<Record>& recs = corpus.records;
  std::unordered_map<std::string, std::size_t> first;  // id -> its record's final index
  first.reserve(recs.size());
  std::size_t kept = 0;
  for (std::size_t i = 0; i < recs.size(); ++i) {
    auto [it, fresh] = first.emplace(recs[i].id, kept);
    if (fresh) {
      if (kept != i) recs[kept] = std::move(recs[i]);
      ++kept;
      continue;
    }
    const Record& r = recs[i];
    const Record& f = recs[it->second];
    corpus.problems.push_back({"QS002", r.file, r.mark_of("/id"), r.id,
        fmt::format("id \"{}\" is already used by {}:{}", r.id, f.file, f.mark_of("/id").line)});
  }
  recs.erase(recs.begin() + static_cast<std::ptrdiff_t>(kept), recs.end());
}

namespace {

// What one file gave. Files are loaded on several threads; outcomes are merged
// into the corpus strictly in file order, so records, problems and the digest
// come out exactly as a one-thread loop over the files would give them.
struct FileOutcome {
  bool read = false;
  std::string digest;  // sha256 of the file's kind folder, name, size and bytes
  std::optional<Record> record;
  RecordStub stub;
  Problems problems;
};

void load_file(const FileToLoad& f, const SchemaSet& schemas, const YamlLimits& limits, bool digest,
               const RecordHook& on_record, FileOutcome& o) {
  std::string shown = shown_path(f.path);
  // One buffer per loading thread, read into directly: no allocation per file.
  thread_local std::string text;
  std::size_t size = 0;
  if (f.text) {
    size = f.text->size();
    text.assign(*f.text, 0, std::min(size, limits.max_bytes + 1));
  } else if (!read_file(f.path, text, limits.max_bytes, size)) {
    o.problems.push_back({kUnreadable, shown, {}, "", "cannot read file"});
    return;
  }
  o.read = true;
  if (digest) {
    Sha256 h;
    h.update(fmt::format("{}\n{}\n{}\n", kind_plural(f.kind), f.path.filename().string(), text.size()));
    h.update(text);
    o.digest = h.hex();
  }
  if (size > limits.max_bytes) {  // named with its whole size, of which only the cap was read
    o.problems.push_back(too_large(shown, size, limits));
    return;
  }
  o.record = load_record(text, shown, f.kind, schemas, o.problems, limits, &o.stub);
  if (o.record && on_record) on_record(*o.record);
}

void merge_file(const FileToLoad& f, FileOutcome&& o, Corpus& corpus, Sha256& digest) {
  ++corpus.files;
  (void)f;
  if (o.read) digest.update(o.digest);  // each file hashed on its own thread; the corpus digest hashes those in order
  for (auto& p : o.problems) corpus.problems.push_back(std::move(p));
  if (o.record) corpus.records.push_back(std::move(*o.record));
  else if (!o.stub.id.empty()) corpus.unvalidated.push_back(std::move(o.stub));
}

unsigned load_threads(std::size_t files, unsigned requested) {
  if (requested) return static_cast<unsigned>(std::clamp<std::size_t>(files, 1, std::min(requested, 64u)));
  // One per core; a thread is worth starting for a few dozen files, not for one.
  unsigned cores = std::clamp(std::thread::hardware_concurrency(), 1u, 64u);
  return static_cast<unsigned>(std::clamp<std::size_t>(files / 32, 1, cores));
}

}  // namespace

bool FileOverlay::is(const fs::path& file) const {
  std::error_code ec;
  return fs::absolute(file, ec).lexically_normal() == fs::absolute(path, ec).lexically_normal();
}

Corpus load_corpus(const fs::path& root, const SchemaSet& schemas, const YamlLimits& limits, unsigned threads,
                   bool with_digest, const RecordHook& on_record, const FileOverlay* overlay) {
  Corpus corpus;
  corpus.origin = shown_path(root);
  std::error_code ec;
  if (!fs::exists(root, ec) && !(overlay && overlay->is(root))) {
    corpus.problems.push_back({kUnreadable, shown_path(root), {}, "", "no such file or directory"});
    return corpus;
  }
  std::vector<FileToLoad> files;
  if (!overlay || !overlay->is(root)) collect(root, files, corpus);  // in path order: folders and their files are listed sorted
  if (overlay) {  // its text in place of the file's, or a file the disk does not have yet
    auto it = std::find_if(files.begin(), files.end(), [&](const FileToLoad& f) { return overlay->is(f.path); });
    if (it != files.end()) it->text = &overlay->text;
    else if (auto kind = parse_kind(overlay->path.parent_path().filename().string()))
      files.push_back({overlay->path, *kind, &overlay->text});
    else
      corpus.problems.push_back({kUnknownFolder, shown_path(overlay->path), {}, "",
                                 fmt::format("cannot tell the record kind: the file must sit in a kind folder (formats/, accelerators/, …), not {}",
                                             quote_value(overlay->path.parent_path().filename().string()))});
  }
  corpus.records.reserve(files.size());

  // Each thread takes the next file, loads it, and parks the outcome; whoever
  // parks the outcome the merge is waiting for merges every consecutive one
  // that is ready. Outcomes live only between loading and merging.
  Sha256 digest;
  std::vector<std::unique_ptr<FileOutcome>> parked(files.size());
  std::size_t merged = 0;
  std::mutex mutex;
  parallel_for(files.size(), load_threads(files.size(), threads), [&](std::size_t i) {
    auto o = std::make_unique<FileOutcome>();
    load_file(files[i], schemas, limits, with_digest, on_record, *o);
    std::lock_guard lock(mutex);
    parked[i] = std::move(o);
    for (; merged < files.size() && parked[merged]; ++merged) {
      merge_file(files[merged], std::move(*parked[merged]), corpus, digest);
      parked[merged].reset();
    }
  });

  if (with_digest) corpus.digest = digest.hex();
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
