#include "qsel/model/resolve.h"

#include <algorithm>
#include <chrono>
#include <filesystem>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "qsel/core/errors.h"
#include "qsel/core/text.h"
#include "qsel/core/timing.h"
#include "qsel/model/checkpoint_format.h"
#include "qsel/model/model_checkpoint.h"

namespace qsel {
namespace {

bool same_repo(const std::string& a, const std::string& b) { return to_lower(a) == to_lower(b); }

// The GGUF files (all parts of one split file) a tag or a file names.
std::vector<std::string> one_gguf(const HubRepo& r, std::vector<std::string> files, const std::string& asked) {
  std::vector<std::string> stems = gguf_stems(files);
  if (stems.size() > 1) {
    std::vector<std::string> shown(files.begin(), files.begin() + static_cast<long>(std::min<std::size_t>(files.size(), 6)));
    throw UsageError(fmt::format("{}: {} names {} GGUF files ({}{}); name one with its URL (…/resolve/REVISION/FILE)", r.repo, quote_value(asked),
                                 stems.size(), fmt::join(shown, ", "), files.size() > shown.size() ? ", …" : ""));
  }
  return files;
}

Checkpoint read_ggufs(Hub& hub, const HubRepo& r, const std::vector<std::string>& files) {
  std::vector<std::unique_ptr<ByteSource>> open;
  std::vector<const ByteSource*> parts;
  hub.prefetch(r, files);  // the parts of a split file, read ahead together
  for (const auto& f : files) {
    const HubFile* hf = r.find(f);
    if (!hf) throw UsageError(fmt::format("{}: no file {} in the repository at {}", r.repo, quote_value(f), r.revision));
    open.push_back(hub.open(r, *hf));
    parts.push_back(open.back().get());
  }
  return read_gguf_checkpoint(parts, ReadLimits::remote());
}

std::string tag_list(const HubRepo& r) {
  auto tags = gguf_tags(r);
  if (tags.empty()) return "the repository has no GGUF files";
  if (tags.size() > 12) return fmt::format("tags: {}, … ({} in all)", fmt::join(tags.begin(), tags.begin() + 12, ", "), tags.size());
  return fmt::format("tags: {}", fmt::join(tags, ", "));
}

ModelFiles read_hub(const HubRef& ref, const HubSettings& given) {
  auto started = std::chrono::steady_clock::now();
  HubSettings settings = given;
  if (ref.url.empty() && (!ref.user.empty() || !ref.password.empty()) && settings.user.empty() && settings.password.empty())
    settings.user = ref.user, settings.password = ref.password;  // a Hub URL's user:password@, for the Hub it names
  Hub hub(settings);
  ModelFiles out;
  out.remote = true;
  if (!ref.url.empty()) {
    auto src = hub.open_url(ref.url, ref.user, ref.password);
    out.checkpoint = read_gguf_checkpoint({src.get()}, ReadLimits::remote());
    out.source = fmt::format("{} ({} request(s), {} answer(s) from the cache)", ref.url, hub.requests(), hub.cache_hits());
    return out;
  }
  HubRepo r = hub.repo(ref.repo, ref.revision);
  HubTree tree(hub, r);
  if (!ref.tag.empty()) {
    auto files = gguf_files_for_tag(r, ref.tag);
    if (files.empty()) throw UsageError(fmt::format("{}: no GGUF file carries the tag {} ({})", r.repo, quote_value(ref.tag), tag_list(r)));
    out.checkpoint = read_ggufs(hub, r, one_gguf(r, files, ref.tag));
  } else if (!ref.file.empty()) {
    if (!r.find(ref.file)) throw UsageError(fmt::format("{}: no file {} in the repository at {}", r.repo, quote_value(ref.file), r.revision));
    if (is_gguf_path(ref.file)) {
      std::string stem = gguf_stem(ref.file);
      bool part = stem.size() + 5 != ref.file.size();  // "…-00001-of-00003.gguf": read every part
      std::vector<std::string> parts;
      for (const auto& f : r.files)
        if (part ? is_gguf_path(f.path) && f.path.size() == ref.file.size() && gguf_stem(f.path) == stem : f.path == ref.file)
          parts.push_back(f.path);
      std::sort(parts.begin(), parts.end());
      out.checkpoint = read_ggufs(hub, r, parts);
    } else if (ref.file == "config.json" || ref.file.ends_with(".safetensors") || ref.file.ends_with(".index.json")) {
      out.checkpoint = read_checkpoint_tree(tree, ReadLimits::remote());  // a file of the checkpoint: the checkpoint
    } else {
      throw UsageError(fmt::format("{}: qsel reads a repository, its config.json or a .gguf file, not {}", r.repo, quote_value(ref.file)));
    }
  } else if (!tree.files_with_ext(".safetensors").empty() || tree.has("config.json") || tree.has("model.safetensors.index.json")) {
    out.checkpoint = read_checkpoint_tree(tree, ReadLimits::remote());
  } else {
    std::vector<std::string> ggufs;
    for (const auto& f : r.files)
      if (is_gguf_path(f.path)) ggufs.push_back(f.path);
    if (ggufs.empty()) throw UsageError(fmt::format("{}: no config.json, .safetensors or .gguf file in the repository at {}", r.repo, r.revision));
    std::vector<std::string> stems = gguf_stems(ggufs);
    if (stems.size() > 1)
      throw UsageError(fmt::format("{}: {} GGUF files; name one as {}:TAG ({})", r.repo, stems.size(), r.repo, tag_list(r)));
    std::sort(ggufs.begin(), ggufs.end());
    out.checkpoint = read_ggufs(hub, r, ggufs);
  }
  out.checkpoint.path = r.repo;
  out.source = fmt::format("Hugging Face Hub {}/{} at {} (commit {}): {} request(s), {} answer(s) from the cache", settings.endpoint, r.repo,
                           r.revision, r.sha.substr(0, 12), hub.requests(), hub.cache_hits());
  spdlog::info("hub: {} read in {} ms: {}", ref.display(), elapsed_ms(started), out.source);
  return out;
}

// A model read from files says where: the path, or the Hub repo and commit.
ModelSpec from_checkpoint(const ModelFiles& f, const CheckpointAnalysis& a) {
  ModelSpec m = model_from_checkpoint(f.checkpoint, a);
  m.source = f.source;
  if (f.remote) m.origin = "hub";
  return m;
}

// The model a recommendation is for, read from files: the answer's notes start with where.
ModelSpec from_files(const Graph& g, const ModelFiles& f) {
  ModelSpec m = from_checkpoint(f, analyze_checkpoint(g, f.checkpoint));
  if (f.remote) m.notes.insert(m.notes.begin(), "read from the " + f.source);
  return m;
}

// A repo a record lists: the record, with the named release made the checkpoint served as it is.
ModelSpec from_record_release(const Record& rec, const std::string& repo) {
  ModelSpec m = model_from_record(rec);
  m.source = fmt::format("model record {} (it lists {}; no network)", rec.id, repo);
  for (auto& r : m.releases) {
    if (!same_repo(r.repo, repo)) continue;
    if (r.primary) return m;  // the repo the model ships as: nothing changes
    for (auto& other : m.releases) other.primary = false;
    r.primary = true;
    r.local = true;
    m.notes.insert(m.notes.begin(), fmt::format("{} is {}'s {} release: served as it is", r.repo, rec.id, r.format));
    return m;
  }
  return m;  // the record's hf_id
}

// Whether words taken as a path would also read as a Hub repo id (ORG/NAME): the error then
// says how to ask the Hub instead.
bool hub_id_too(const std::string& name, const HubSettings& hub) {
  if (name.starts_with(".") || name.starts_with("/") || name.starts_with("~")) return false;
  try {
    auto ref = parse_hub_ref(name, hub.endpoint);
    return ref && !ref->repo.empty();
  } catch (const UsageError&) {
    return false;
  }
}

}  // namespace

const Record* model_record_for_repo(const Graph& g, const std::string& repo) {
  for (const Record* r : g.of_kind(Kind::Model)) {
    if (same_repo(r->str("hf_id"), repo)) return r;
    for (const auto& rel : r->data.value("releases", nlohmann::json::array()))
      if (rel.contains("repo") && rel["repo"].is_string() && same_repo(rel["repo"].get<std::string>(), repo)) return r;
  }
  return nullptr;
}

bool names_model_files(const std::string& name, const HubSettings& hub) {
  if (looks_like_checkpoint(name) || names_local_path(name)) return true;
  try {
    return parse_hub_ref(name, hub.endpoint).has_value();
  } catch (const UsageError&) {
    return true;  // a Hub shape with a malformed part: reading it says what is wrong
  }
}

ModelFiles read_model_files(const std::string& name, const HubSettings& hub) {
  if (looks_like_checkpoint(name)) {
    ModelFiles f;
    f.checkpoint = read_checkpoint(name);
    f.source = name;
    return f;
  }
  if (names_local_path(name)) throw UsageError(missing_path_error(name, hub_id_too(name, hub)));
  auto ref = parse_hub_ref(name, hub.endpoint);
  if (!ref) throw UsageError(fmt::format("{}: no such file or folder, and not a Hugging Face repo id (ORG/NAME) or URL", name));
  return read_hub(*ref, hub);
}

ModelReading read_model(const Graph& g, const std::string& name, const HubSettings& hub) {
  ModelReading r;
  r.files = read_model_files(name, hub);
  const Checkpoint& c = r.files.checkpoint;
  r.analysis = analyze_checkpoint(g, c);
  if (!c.gguf && c.config_file.empty()) {
    r.model_error = "no config.json beside the weights";
    return r;
  }
  try {
    r.model = from_checkpoint(r.files, r.analysis);
  } catch (const UsageError& e) {
    r.model_error = e.what();
  }
  return r;
}

long context_for(ModelSpec& m, long requested, bool given) {
  long context = requested;
  if (!given && m.max_context > 0 && context > m.max_context) {
    m.notes.push_back(fmt::format("context {} (the model's maximum) instead of the default {}", m.max_context, context));
    context = m.max_context;
  }
  if (std::string note = context_note(m, context); !note.empty()) m.notes.push_back(note);
  return context;
}

ModelSpec resolve_model(const Graph& g, const ModelRequest& a, const HubSettings& hub) {
  int given = !a.size.empty() + !a.name.empty() + !a.config.empty();
  if (given == 0) throw UsageError("recommend needs a model: --model-size 70b, --model ID or --model-config config.json");
  if (given > 1) throw UsageError("give one of --model-size, --model, --model-config");
  if (!a.config.empty()) {  // read as a checkpoint: a quantization_config is the shipped format, as for a folder
    ModelFiles f;
    f.checkpoint = read_checkpoint(a.config);
    f.source = a.config;
    return from_files(g, f);
  }
  if (!a.size.empty()) return model_from_size(g, a.size);
  Resolution r = g.resolve(a.name, Kind::Model);
  bool path_like = a.name.find('/') != std::string::npos || a.name.find('.') != std::string::npos || !r;
  if (path_like && looks_like_checkpoint(a.name)) return from_files(g, read_model_files(a.name, hub));
  if (r) {
    ModelSpec m = model_from_record(*r.record);
    if (looks_like_checkpoint(a.name))
      m.notes.push_back(fmt::format("\"{}\" is also a file or folder here; write ./{} to read it instead of the model record", a.name, a.name));
    return m;
  }
  if (names_local_path(a.name)) throw UsageError(missing_path_error(a.name, hub_id_too(a.name, hub)));
  std::optional<HubRef> ref = parse_hub_ref(a.name, hub.endpoint);
  if (!ref) throw_unknown("model", a.name, r);
  bool whole_repo = ref->url.empty() && ref->file.empty() && ref->tag.empty() && !ref->revision_given;
  if (whole_repo)
    if (const Record* rec = model_record_for_repo(g, ref->repo)) return from_record_release(*rec, ref->repo);
  ModelSpec m = from_files(g, read_hub(*ref, hub));
  if (ref->url.empty())
    if (const Record* rec = model_record_for_repo(g, ref->repo)) {  // the same model: its family's measurements stand for it
      m.id = rec->id;
      m.family = rec->str("family");
      m.notes.push_back(fmt::format("{} is a release of the model record {}", ref->repo, rec->id));
    }
  return m;
}

}  // namespace qsel
