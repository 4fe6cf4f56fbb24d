#include "qsel/artifact/checkpoint.h"

#include <chrono>

#include "qsel/core/timing.h"

#include <algorithm>
#include <filesystem>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <spdlog/spdlog.h>

#include "qsel/artifact/binary_file.h"
#include "qsel/artifact/safetensors.h"
#include "qsel/core/errors.h"
#include "qsel/core/text.h"

namespace qsel {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr std::size_t kMaxJson = 16 << 20;   // a config or an index is kilobytes; the largest indexes are a few MB
constexpr std::size_t kMaxShards = 4096;
constexpr std::size_t kMaxTensors = 1 << 20;

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
void read_config(const FileTree& t, Checkpoint& c) {
  c.config_file = t.name("config.json");
  c.config_text = t.read_text("config.json", kMaxJson, "config.json");
  c.config = parse_json(c.config_file, c.config_text, "config.json");
  c.read.push_back(c.config_file);
}

void add_safetensors(const ByteSource& file, Checkpoint& c) {
  SafetensorsFile s = read_safetensors(file);
  c.read.push_back(file.path());
  if (c.tensors.size() + s.tensors.size() > kMaxTensors)
    throw UsageError(fmt::format("{}: more than {} tensors in the checkpoint; qsel reads at most that many", file.path(), kMaxTensors));
  for (auto& t : s.tensors) c.tensors.push_back({std::move(t.name), t.dtype, t.shape, t.elements, t.bytes()});
  for (auto& n : s.notes) c.notes.push_back(fs::path(file.path()).filename().string() + ": " + n);
}

void add_gguf(const ByteSource& file, Checkpoint& c) {
  c.gguf = read_gguf(file);
  c.read.push_back(file.path());
  c.kind = "gguf";
  for (const auto& t : c.gguf->tensors) c.tensors.push_back({t.name, std::string(t.type->name), t.dims, t.elements, t.bytes});
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
    throw UsageError(fmt::format("{}: weight_map names \"{}\", which is not a file name in the checkpoint folder", index, name));
  return name;
}

std::vector<std::string> shards(const FileTree& t, Checkpoint& c) {
  const std::string index = "model.safetensors.index.json";
  std::vector<std::string> out;
  if (t.has(index)) {
    json j = read_json(t, index, "safetensors index", c);
    if (!j.contains("weight_map") || !j["weight_map"].is_object())
      throw UsageError(fmt::format("{}: expected a \"weight_map\" object of tensor name to file", t.name(index)));
    std::set<std::string> files;
    for (const auto& [tensor, file] : j["weight_map"].items()) {
      if (!file.is_string()) throw UsageError(fmt::format("{}: weight_map \"{}\" must name a file", t.name(index), tensor));
      files.insert(file.get<std::string>());
      if (files.size() > kMaxShards) throw UsageError(fmt::format("{}: more than {} shard files", t.name(index), kMaxShards));
    }
    for (const auto& f : files) out.push_back(shard_name(t.name(index), f));
    return out;
  }
  out = t.files_with_ext(".safetensors");
  if (out.size() > kMaxShards) throw UsageError(fmt::format("{}: more than {} .safetensors files", t.root(), kMaxShards));
  return out;
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

Checkpoint read_checkpoint_tree(const FileTree& t) {
  Checkpoint c;
  c.path = t.root();
  if (t.has("config.json")) read_config(t, c);
  find_quantization_config(t, c);
  if (t.has("hf_quant_config.json")) c.hf_quant_config = read_json(t, "hf_quant_config.json", "hf_quant_config.json", c);
  auto files = shards(t, c);
  for (const auto& f : files) add_safetensors(*t.open(f), c);
  if (!files.empty()) {
    c.kind = "safetensors";
    return c;
  }
  std::vector<std::string> ggufs = t.files_with_ext(".gguf");
  if (ggufs.size() == 1) {
    add_gguf(*t.open(ggufs[0]), c);
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

Checkpoint read_gguf_checkpoint(const std::vector<const ByteSource*>& parts) {
  if (parts.empty()) throw UsageError("no GGUF file to read");
  Checkpoint c;
  c.path = parts[0]->path();
  add_gguf(*parts[0], c);
  for (std::size_t i = 1; i < parts.size(); ++i) {  // a split file: each part carries its own tensors' infos
    GgufFile g = read_gguf(*parts[i]);
    c.read.push_back(parts[i]->path());
    if (c.tensors.size() + g.tensors.size() > kMaxTensors)
      throw UsageError(fmt::format("{}: more than {} tensors in the checkpoint; qsel reads at most that many", parts[i]->path(), kMaxTensors));
    for (auto& t : g.tensors) {
      c.tensors.push_back({t.name, std::string(t.type->name), t.dims, t.elements, t.bytes});
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
  return !path.empty() && fs::exists(path, ec);
}

namespace {

Checkpoint read_any(const std::string& path) {
  std::error_code ec;
  fs::path p(path);
  if (fs::is_directory(p, ec)) return read_checkpoint_tree(LocalTree(p));
  if (!fs::exists(p, ec)) throw UsageError(fmt::format("{}: no such file or folder", path));
  Checkpoint c;
  c.path = path;
  std::string ext = to_lower(p.extension().string());
  if (ext == ".gguf" || gguf_magic(path)) {
    add_gguf(BinaryFile(path), c);
    return c;
  }
  LocalTree dir(p.parent_path().empty() ? fs::path(".") : p.parent_path());
  if (ext == ".safetensors") {
    add_safetensors(BinaryFile(path), c);
    c.kind = "safetensors";
    if (dir.has("config.json")) {
      read_config(dir, c);
      find_quantization_config(dir, c);
    }
    return c;
  }
  c.config_file = path;
  c.config_text = read_text_file(path, kMaxJson, "config.json");
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
