#include "qsel/loader/loader.h"

#include <algorithm>
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

bool read_file(const fs::path& p, std::string& out, std::size_t cap) {
  std::ifstream in(p, std::ios::binary);
  if (!in) return false;
  std::ostringstream ss;
  // Read at most cap+1 bytes: enough to know the file is too large.
  std::vector<char> buf(64 * 1024);
  std::size_t total = 0;
  while (in && total <= cap) {
    in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
    auto n = static_cast<std::size_t>(in.gcount());
    ss.write(buf.data(), static_cast<std::streamsize>(n));
    total += n;
  }
  out = ss.str();
  return !in.bad();
}

std::string shown_path(const fs::path& p) { return p.lexically_normal().generic_string(); }

struct FileToLoad {
  fs::path path;
  Kind kind;
};

void collect_kind_folder(const fs::path& dir, Kind kind, std::vector<FileToLoad>& out) {
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.is_regular_file() && is_record_file(e.path())) out.push_back({e.path(), kind});
}

void collect(const fs::path& root, std::vector<FileToLoad>& out, Corpus& corpus) {
  std::error_code ec;
  if (fs::is_regular_file(root, ec)) {
    auto kind = parse_kind(root.parent_path().filename().string());
    if (!kind) {
      corpus.problems.push_back({kUnknownFolder, shown_path(root), {}, "",
          fmt::format("cannot tell the record kind: the file must sit in a kind folder (formats/, accelerators/, …), not {}",
                      quote_value(root.parent_path().filename().string()))});
      return;
    }
    out.push_back({root, *kind});
    return;
  }
  if (auto kind = parse_kind(root.filename().string()); kind && root.filename().string() == kind_plural(*kind)) {
    collect_kind_folder(root, *kind, out);
    return;
  }
  for (const auto& e : fs::directory_iterator(root, ec)) {
    if (!e.is_directory()) continue;
    std::string name = e.path().filename().string();
    if (name.empty() || name[0] == '.') continue;
    auto kind = parse_kind(name);
    if (kind && name == kind_plural(*kind)) {
      collect_kind_folder(e.path(), *kind, out);
      continue;
    }
    bool has_yaml = false;
    for (const auto& f : fs::directory_iterator(e.path(), ec)) has_yaml = has_yaml || is_record_file(f.path());
    if (!has_yaml) continue;
    std::vector<std::string> plurals;
    for (const auto& k : all_kinds()) plurals.push_back(k.plural);
    auto near = nearest(name, plurals, 1);
    corpus.problems.push_back({kUnknownFolder, shown_path(e.path()), {}, "",
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
