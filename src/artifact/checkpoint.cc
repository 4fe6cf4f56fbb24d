#include "qsel/artifact/checkpoint.h"

#include <chrono>

#include "qsel/core/timing.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <set>
#include <unordered_map>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <spdlog/spdlog.h>

#include "qsel/artifact/binary_file.h"
#include "qsel/artifact/read_budget.h"
#include "qsel/artifact/safetensors.h"
#include "qsel/core/errors.h"
#include "qsel/core/text.h"

namespace qsel {
using nlohmann::json;
namespace {

namespace fs = std::filesystem;

constexpr std::size_t kMaxJson = 16 << 20;   // a config or an index is kilobytes; the largest indexes are a few MB
constexpr std::size_t kMaxShards = 4096;
constexpr std::size_t kMaxTensors = 1 << 20;
// Headers of every shard of one model together: the largest real checkpoints
// (DeepSeek-V3, 163 shards) hold about 25 MB; 4,096 links to one 100 MB header
// are stopped at the third instead of read for two hours.
constexpr std::uint64_t kMaxHeaderTotal = 256ull << 20;

// The tensors of a checkpoint read so far, and what their headers cost.
struct Reading {
  explicit Reading(ReadLimits limits) : budget(limits) {}
  std::unordered_map<std::string, std::string> where;  // tensor name -> the file it came from
  std::uint64_t header_bytes = 0;
  ReadBudget budget;  // bytes actually read and the time, over every file
};

void spend(Reading& r, std::uint64_t bytes, const std::string& file) {
  r.header_bytes += bytes;
  if (r.header_bytes > kMaxHeaderTotal)
    throw UsageError(fmt::format("{}: the headers of this model's files pass {} MiB together; qsel reads at most that much of one model "
                                 "(the largest real checkpoints hold about 25 MB)", file, kMaxHeaderTotal >> 20));
}

// A tensor named by two files would be counted twice: refused, naming both.
void add_tensor(Checkpoint& c, Reading& r, TensorInfo t, const std::string& file) {
  auto [it, fresh] = r.where.try_emplace(t.name, file);
  if (!fresh)
    throw UsageError(fmt::format("{}: tensor {} is also in {}; a checkpoint holds each tensor once", file, quote_value(t.name), it->second));
  c.tensors.push_back(std::move(t));
}

// "path:line:column: invalid JSON" for a parse error at byte `pos`.
std::string where(const std::string& path, const std::string& text, std::size_t pos) {
  int line = 1;
  std::size_t start = 0;
  for (std::size_t i = 0; i < pos && i < text.size(); ++i)
    if (text[i] == '\n') line++, start = i + 1;
  return fmt::format("{}:{}:{}", path, line, utf8_length(std::string_view(text).substr(start, std::min(pos, text.size()) - start)) + 1);
}

json parse_json(const std::string& path, const std::string& text, std::string_view what) {
  if (std::size_t bad = find_invalid_utf8(text); bad != std::string::npos)
    throw UsageError(fmt::format("{}: not valid UTF-8", where(path, text, bad)));
  if (json_nesting(text) > kMaxJsonNesting)
    throw UsageError(fmt::format("{}: JSON nested deeper than {} levels ({} expected)", path, kMaxJsonNesting, what));
  json j;
  try {
    j = json::parse(text);
  } catch (const json::parse_error& e) {
    std::string msg = e.what();
    throw UsageError(fmt::format("{}: invalid JSON: {}", where(path, text, e.byte > 0 ? e.byte - 1 : 0), msg.substr(msg.rfind(": ") + 2)));
  } catch (const json::exception& e) {  // a number beyond the double range (out_of_range.406)
    std::string msg = e.what();
    throw UsageError(fmt::format("{}: invalid JSON: {}", path, msg.substr(msg.find("] ") + 2)));
  }
  if (!j.is_object()) throw UsageError(fmt::format("{}: expected a JSON object ({})", path, what));
  return j;
}

json read_json(const FileTree& t, const std::string& file, std::string_view what, Checkpoint& c) {
  json j = parse_json(t.name(file), t.read_text(file, kMaxJson, what), what);
  c.read.push_back(t.name(file));
  return j;
}

// config.json: its text kept (model_from_config_text locates problems in it) and parsed.
void read_config_json(const FileTree& t, Checkpoint& c) {
  c.config_file = t.name("config.json");
  c.config_text = t.read_text("config.json", kMaxJson, "config.json");
  c.config = parse_json(c.config_file, c.config_text, "config.json");
  c.read.push_back(c.config_file);
}

void add_safetensors(const ByteSource& file, Checkpoint& c, Reading& r) {
  SafetensorsFile s = read_safetensors(BudgetedSource(file, r.budget));
  c.read.push_back(file.path());
  spend(r, 8 + s.header_size, file.path());
  if (c.tensors.size() + s.tensors.size() > kMaxTensors)
    throw UsageError(fmt::format("{}: more than {} tensors in the checkpoint; qsel reads at most that many", file.path(), kMaxTensors));
  for (auto& t : s.tensors) add_tensor(c, r, {std::move(t.name), t.dtype, t.shape, t.elements, t.bytes()}, file.path());
  for (auto& n : s.notes) c.notes.push_back(fs::path(file.path()).filename().string() + ": " + n);
}

void add_gguf(const ByteSource& file, Checkpoint& c, Reading& r) {
  c.gguf = read_gguf(BudgetedSource(file, r.budget));
  c.read.push_back(file.path());
  spend(r, c.gguf->data_offset, file.path());
  c.kind = "gguf";
  for (const auto& t : c.gguf->tensors) add_tensor(c, r, {t.name, std::string(t.type->name), t.dims, t.elements, t.bytes}, file.path());
}

// The quantization config: config.json's (or its text_config's), else a
// separate quantization_config.json or quantize_config.json.
void find_quantization_config(const FileTree& t, Checkpoint& c) {
  if (c.config.is_object()) {
    for (const json* scope : {&c.config, c.config.contains("text_config") ? &c.config["text_config"] : nullptr}) {
      if (scope && scope->is_object() && scope->contains("quantization_config") && (*scope)["quantization_config"].is_object()) {
        c.quantization_config = (*scope)["quantization_config"];
        c.quantization_config_file = c.config_file + (scope == &c.config ? "" : " (text_config)");
        return;
      }
    }
  }
  for (const char* name : {"quantization_config.json", "quantize_config.json"}) {
    if (t.has(name)) {
      c.quantization_config = read_json(t, name, "quantization config", c);
      c.quantization_config_file = t.name(name);
      return;
    }
  }
}

// A shard name from an index must be a plain file name in the same folder.
std::string shard_name(const std::string& index, const std::string& name) {
  if (name.empty() || name.size() > 255 || name.find('/') != std::string::npos || name.find('\\') != std::string::npos || name == "." ||
      name == ".." || name.find('\0') != std::string::npos)
    throw UsageError(fmt::format("{}: weight_map names {}, which is not a file name in the checkpoint folder", index, quote_value(name)));
  return name;
}

struct Shards {
  std::vector<std::string> files;
  json weight_map;  // the index's tensor -> file, or null without an index
  std::string index;
};

Shards shards(const FileTree& t, Checkpoint& c) {
  const std::string index = "model.safetensors.index.json";
  Shards s;
  std::vector<std::string>& out = s.files;
  if (t.has(index)) {
    json j = read_json(t, index, "safetensors index", c);
    if (!j.contains("weight_map") || !j["weight_map"].is_object())
      throw UsageError(fmt::format("{}: expected a \"weight_map\" object of tensor name to file", t.name(index)));
    std::set<std::string> files;
    for (const auto& [tensor, file] : j["weight_map"].items()) {
      if (!file.is_string()) throw UsageError(fmt::format("{}: weight_map {} must name a file", t.name(index), quote_value(tensor)));
      files.insert(file.get<std::string>());
      if (files.size() > kMaxShards) throw UsageError(fmt::format("{}: more than {} shard files", t.name(index), kMaxShards));
    }
    for (const auto& f : files) out.push_back(shard_name(t.name(index), f));
    s.weight_map = std::move(j["weight_map"]);
    s.index = t.name(index);
    return s;
  }
  out = t.files_with_ext(".safetensors");
  if (out.size() > kMaxShards) throw UsageError(fmt::format("{}: more than {} .safetensors files", t.root(), kMaxShards));
  return s;
}

// The index against what the shards hold: a tensor it lists that no shard has,
// one in another shard than it says, one no entry lists. Noted, not refused:
// sizing counts what the shards hold.
void check_index(const Shards& s, const Reading& r, Checkpoint& c) {
  if (!s.weight_map.is_object()) return;
  std::size_t missing = 0, moved = 0, listed_found = 0;
  std::string first_missing, first_moved;
  for (const auto& [tensor, file] : s.weight_map.items()) {
    auto it = r.where.find(tensor);
    if (it == r.where.end()) {
      if (missing++ == 0) first_missing = tensor;
    } else {
      ++listed_found;
      if (fs::path(it->second).filename().string() != file.get<std::string>() && moved++ == 0) first_moved = tensor;
    }
  }
  if (missing > 0)
    c.notes.push_back(fmt::format("{}: weight_map lists {} tensor(s) no shard holds (first: {})", s.index, missing, quote_value(first_missing)));
  if (moved > 0)
    c.notes.push_back(fmt::format("{}: {} tensor(s) sit in another shard than weight_map says (first: {})", s.index, moved, quote_value(first_moved)));
  if (std::size_t unlisted = r.where.size() - listed_found; unlisted > 0)
    c.notes.push_back(fmt::format("{}: {} tensor(s) in the shards are not in weight_map", s.index, unlisted));
}

// A local folder as a FileTree.
class LocalTree final : public FileTree {
 public:
  explicit LocalTree(fs::path dir) : dir_(std::move(dir)) {}
  std::string root() const override { return dir_.string(); }
  std::string name(const std::string& file) const override { return (dir_ / file).string(); }
  bool has(const std::string& file) const override {
    std::error_code ec;
    return fs::is_regular_file(dir_ / file, ec);
  }
  std::vector<std::string> files_with_ext(std::string_view ext) const override {
    std::vector<std::string> out;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir_, ec)) {
      if (e.path().extension() == ext && e.is_regular_file(ec)) out.push_back(e.path().filename().string());
      if (out.size() > kMaxShards) break;
    }
    std::sort(out.begin(), out.end());
    return out;
  }
  std::string read_text(const std::string& file, std::size_t cap, std::string_view what) const override {
    return read_text_file(name(file), cap, what);
  }
  std::unique_ptr<ByteSource> open(const std::string& file) const override { return std::make_unique<BinaryFile>(name(file)); }

 private:
  fs::path dir_;
};

}  // namespace

Checkpoint read_checkpoint_tree(const FileTree& t, ReadLimits limits) {
  Checkpoint c;
  c.path = t.root();
  if (t.has("config.json")) read_config_json(t, c);
  find_quantization_config(t, c);
  if (t.has("hf_quant_config.json")) c.hf_quant_config = read_json(t, "hf_quant_config.json", "hf_quant_config.json", c);
  Shards index = shards(t, c);
  if (index.files.size() > limits.shards)
    throw UsageError(fmt::format("{}: {} shard files; qsel reads at most {}{}", index.index.empty() ? t.root() : index.index, index.files.size(),
                                 limits.shards, limits.network ? " over the network (a request or two each)" : ""));
  Reading r(limits);
  t.prefetch(index.files);
  for (const auto& f : index.files) add_safetensors(*t.open(f), c, r);
  check_index(index, r, c);
  if (!index.files.empty()) {
    c.kind = "safetensors";
    return c;
  }
  std::vector<std::string> ggufs = t.files_with_ext(".gguf");
  if (ggufs.size() == 1) {
    add_gguf(*t.open(ggufs[0]), c, r);
    return c;
  }
  if (ggufs.size() > 1)
    throw UsageError(fmt::format("{}: {} .gguf files; name the one to read", t.root(), ggufs.size()));
  if (c.config.is_null())
    throw UsageError(fmt::format("{}: no config.json, .safetensors or .gguf file in this folder", t.root()));
  c.kind = "config";
  c.notes.push_back("no weights found (no .safetensors or .gguf file): shape from config.json only");
  return c;
}

Checkpoint read_gguf_checkpoint(const std::vector<const ByteSource*>& parts, ReadLimits limits) {
  if (parts.empty()) throw UsageError("no GGUF file to read");
  Checkpoint c;
  c.path = parts[0]->path();
  Reading r(limits);
  add_gguf(*parts[0], c, r);
  for (std::size_t i = 1; i < parts.size(); ++i) {  // a split file: each part carries its own tensors' infos
    GgufFile g = read_gguf(BudgetedSource(*parts[i], r.budget));
    c.read.push_back(parts[i]->path());
    spend(r, g.data_offset, parts[i]->path());
    if (c.tensors.size() + g.tensors.size() > kMaxTensors)
      throw UsageError(fmt::format("{}: more than {} tensors in the checkpoint; qsel reads at most that many", parts[i]->path(), kMaxTensors));
    for (auto& t : g.tensors) {
      add_tensor(c, r, {t.name, std::string(t.type->name), t.dims, t.elements, t.bytes}, parts[i]->path());
      c.gguf->tensors.push_back(std::move(t));
    }
  }
  if (parts.size() > 1) c.notes.push_back(fmt::format("a split GGUF file: the headers of its {} parts read", parts.size()));
  return c;
}

namespace {

bool gguf_magic(const std::string& path) {
  try {
    BinaryFile f(path);
    char m[4] = {};
    return f.read_at(0, m, 4) && std::string_view(m, 4) == "GGUF";
  } catch (const UsageError&) {
    return false;
  }
}

}  // namespace

bool looks_like_checkpoint(const std::string& path) {
  std::error_code ec;
  // A path the system refuses to look up (longer than PATH_MAX) is still a path: read_checkpoint says why.
  return !path.empty() && (fs::exists(path, ec) || ec);
}

namespace {

// ".gguf", ".json", ".safetensors": a dot, then a letter and up to 15 letters or digits, at the
// end of the last component ("Qwen2.5-7B" and "Llama-3.1-8B-Instruct" end in no extension).
bool has_file_extension(std::string_view name) {
  std::string_view last = name.substr(name.find_last_of('/') == std::string_view::npos ? 0 : name.find_last_of('/') + 1);
  auto dot = last.find_last_of('.');
  if (dot == std::string_view::npos || dot == 0) return false;
  std::string_view ext = last.substr(dot + 1);
  if (ext.empty() || ext.size() > 16 || !std::isalpha(static_cast<unsigned char>(ext[0]))) return false;
  return std::all_of(ext.begin(), ext.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)); });
}

}  // namespace

bool names_local_path(std::string_view name) {
  if (name.empty() || name.size() > 4096 || name.find("://") != std::string_view::npos) return false;
  if (name.starts_with("./") || name.starts_with("../") || name.starts_with("/") || name.starts_with("~") || name == "." || name == "..")
    return true;
  auto slash = name.find('/');
  if (slash != std::string_view::npos) {
    std::error_code ec;
    if (fs::exists(fs::path(std::string(name.substr(0, slash))), ec)) return true;
  }
  return has_file_extension(name);
}

std::string missing_path_error(const std::string& name, bool hub_id) {
  std::string msg = fmt::format("{}: no such file or folder", name);
  if (name.starts_with("~")) return msg + " (a quoted ~ is not expanded: write $HOME/… or leave it unquoted)";
  // The deepest folder that exists, and the first component below it that does not.
  fs::path p(name), base;
  std::string missing;
  std::error_code ec;
  for (const auto& part : p) {
    fs::path next = base.empty() ? part : base / part;
    if (!fs::exists(next, ec)) {
      missing = part.string();
      break;
    }
    base = next;
  }
  if (!missing.empty()) {
    fs::path dir = base.empty() ? fs::path(".") : base;
    std::vector<std::string> entries;
    fs::directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec);
    for (; !ec && it != fs::directory_iterator() && entries.size() < 10000; it.increment(ec)) entries.push_back(it->path().filename().string());
    std::sort(entries.begin(), entries.end());
    auto near = nearest(missing, entries, 1);
    if (!near.empty()) {
      msg += fmt::format("; did you mean {}?", quote_value((base.empty() ? fs::path(near.front()) : base / near.front()).string()));
    } else if (!base.empty() && !entries.empty()) {  // nothing near: what the folder does hold
      std::vector<std::string> shown;
      for (std::size_t i = 0; i < entries.size() && i < 8; ++i) shown.push_back(quote_value(entries[i]));
      msg += fmt::format("; {} holds {}{}", quote_value(base.string() + "/"), fmt::join(shown, ", "), entries.size() > 8 ? ", …" : "");
    }
  }
  if (hub_id) msg += fmt::format("; for the Hugging Face repo write hf://{}", name);
  return msg;
}

namespace {

Checkpoint read_any(const std::string& path) {
  std::error_code ec;
  fs::path p(path);
  if (fs::is_directory(p, ec)) return read_checkpoint_tree(LocalTree(p), ReadLimits::local());
  bool there = fs::exists(p, ec);
  if (ec) throw UsageError(fmt::format("{}: cannot read: {}", path, ec.message()));  // ENAMETOOLONG is not "no such file"
  if (!there) throw UsageError(missing_path_error(path, false));
  Checkpoint c;
  c.path = path;
  std::string ext = to_lower(p.extension().string());
  Reading r(ReadLimits::local());
  if (ext == ".gguf" || gguf_magic(path)) {
    add_gguf(BinaryFile(path), c, r);
    return c;
  }
  LocalTree dir(p.parent_path().empty() ? fs::path(".") : p.parent_path());
  if (ext == ".safetensors") {
    add_safetensors(BinaryFile(path), c, r);
    c.kind = "safetensors";
    if (dir.has("config.json")) {
      read_config_json(dir, c);
      find_quantization_config(dir, c);
    }
    return c;
  }
  c.config_file = path;
  c.config_text = read_text_file(path, kMaxJson, "config.json");
  // Anything else is read as a config.json; a file that is plainly not JSON (README.md)
  // is told what is read instead of "invalid JSON: '#'".
  if (std::size_t first = c.config_text.find_first_not_of(" \t\r\n"); ext != ".json" && (first == std::string::npos || c.config_text[first] != '{'))
    throw UsageError(fmt::format("{}: not a model file: qsel reads a checkpoint folder, a config.json, a .safetensors or a .gguf file",
                                 path));
  c.config = parse_json(path, c.config_text, "config.json");
  c.read.push_back(path);
  c.kind = "config";
  find_quantization_config(dir, c);
  if (c.quantization_config_file != c.config_file && !c.quantization_config.is_null())
    c.notes.push_back(fmt::format("quantization config read from {}", c.quantization_config_file));
  return c;
}

}  // namespace

Checkpoint read_checkpoint(const std::string& path) {
  auto started = std::chrono::steady_clock::now();
  Checkpoint c = read_any(path);
  spdlog::info("inspect: {} read as {} in {} ms: {} tensor(s) from {}", path, c.kind, elapsed_ms(started), c.tensors.size(),
               c.read.empty() ? std::string("no file") : fmt::format("{}", fmt::join(c.read, ", ")));
  return c;
}

}  // namespace qsel
