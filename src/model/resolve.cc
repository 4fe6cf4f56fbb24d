#include "qsel/model/resolve.h"
#include "qsel/core/json_number.h"

#include <algorithm>
#include <cctype>
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

// `pick`: a repository of several GGUF files and no tag is read for its shape from one of
// them (the first by name) instead of being refused (recommend: the list names the rest).
ModelFiles read_hub(const HubRef& ref, const HubSettings& given, bool pick = false) {
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
    out.ggufs = one_gguf(r, files, ref.tag);
    out.checkpoint = read_ggufs(hub, r, out.ggufs);
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
      out.ggufs = parts;
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
    if (stems.size() > 1 && !pick)
      throw UsageError(fmt::format("{}: {} GGUF files; name one as {}:TAG ({})", r.repo, stems.size(), r.repo, tag_list(r)));
    std::sort(ggufs.begin(), ggufs.end());
    if (stems.size() > 1) {  // the parts of the first file by name: every type has the same shape
      auto model = std::find_if(ggufs.begin(), ggufs.end(), [](const std::string& f) { return to_lower(f).find("mmproj") == std::string::npos; });
      std::string first = gguf_stem(model == ggufs.end() ? ggufs.front() : *model);  // not a vision projector's
      std::erase_if(ggufs, [&](const std::string& f) { return gguf_stem(f) != first; });
      out.picked = true;
    }
    out.ggufs = ggufs;
    out.checkpoint = read_ggufs(hub, r, ggufs);
  }
  out.checkpoint.path = r.repo;
  out.listing = std::move(r);
  const HubRepo& l = *out.listing;
  out.source = fmt::format("Hugging Face Hub {}/{} at {} (commit {}): {} request(s), {} answer(s) from the cache", settings.endpoint, l.repo,
                           l.revision, l.sha.substr(0, 12), hub.requests(), hub.cache_hits());
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

bool gguf_release(const Graph& g, const Release& r) {
  const Record* f = g.find(r.format);
  return f && f->str("scheme") == "gguf";
}

// A repo a record lists: the record, with the named release made the checkpoint served as it is.
// A GGUF repo's file list is read (one request, cached like every Hub answer) for the names of
// the files it holds; when it cannot be read the answer still comes, with the names the common
// publishers use and a note.
ModelSpec from_record_release(const Graph& g, const Record& rec, const std::string& repo, const HubSettings& settings) {
  ModelSpec m = model_from_record(rec);
  m.source = fmt::format("model record {} (it lists {}; no network)", rec.id, repo);
  bool gguf = false, official = true;
  int types = 0;  // a GGUF repo the record lists once per type holds several files: none is "the" checkpoint
  for (const auto& r : m.releases) types += same_repo(r.repo, repo) ? 1 : 0;
  for (auto& r : m.releases) {
    if (!same_repo(r.repo, repo)) continue;
    gguf = gguf || gguf_release(g, r);
    official = r.official;
    if (r.primary) break;  // the repo the model ships as: nothing changes
    if (types > 1) {
      m.notes.insert(m.notes.begin(), fmt::format("{} holds {} GGUF types {} records: name one as {}:TAG to serve that one as it is",
                                                  r.repo, types, rec.id, r.repo));
      break;
    }
    for (auto& other : m.releases) other.primary = false;
    r.primary = true;
    r.local = true;
    m.notes.insert(m.notes.begin(), fmt::format("{} is {}'s {} release: served as it is", r.repo, rec.id, r.format));
    break;
  }
  if (!gguf) return m;  // the record's hf_id, or a repo whose commands name the repo itself
  try {
    Hub hub(settings);
    HubRepo listing = hub.repo(repo, "main");
    m.source = fmt::format("model record {} (it lists {}; its file list from {} at commit {}: {} request(s), {} answer(s) from the cache)",
                           rec.id, repo, settings.endpoint, listing.sha.substr(0, 12), hub.requests(), hub.cache_hits());
    add_listed_releases(g, m, listing, official);
  } catch (const std::exception& e) {
    HubListing l;
    l.repo = repo;
    l.revision = "main";
    l.problem = e.what();
    m.hub = l;
    m.notes.push_back(fmt::format("{}: its file list could not be read ({}): the commands name the files as the common publishers do",
                                  repo, e.what()));
  }
  return m;
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

std::vector<std::string> gguf_type_names(const Record& f) {
  std::vector<std::string> out;
  for (const auto& a : f.strings("/aliases")) {
    std::string w = a.substr(a.rfind(' ') == std::string::npos ? 0 : a.rfind(' ') + 1);
    bool word = !w.empty() && std::all_of(w.begin(), w.end(), [](unsigned char ch) { return std::isupper(ch) || std::isdigit(ch) || ch == '_'; });
    if (word && std::isupper(static_cast<unsigned char>(w[0])) && w.rfind("LLAMA_FTYPE", 0) != 0 &&
        std::find(out.begin(), out.end(), w) == out.end())
      out.push_back(w);
  }
  return out;
}

void add_listed_releases(const Graph& g, ModelSpec& m, const HubRepo& r, bool official) {
  HubListing l;
  l.repo = r.repo;
  l.revision = r.revision;
  l.sha = r.sha;
  for (const Record* f : g.of_kind(Kind::Format)) {
    if (f->str("scheme") != "gguf" || f->str("regime") == "kv-cache") continue;
    for (const auto& name : gguf_type_names(*f)) {
      std::optional<ListedGguf> file = listed_gguf(r, name);
      if (!file) continue;
      Release* have = nullptr;
      for (auto& rel : m.releases)
        if (rel.format == f->id && same_repo(rel.repo, r.repo)) have = &rel;
      if (!have) {
        Release x;
        x.format = f->id;
        x.repo = r.repo;
        x.official = official;
        m.releases.push_back(x);
        have = &m.releases.back();
      }
      if (have->file.empty()) have->file = file->path;
      if (have->file == file->path && file->bytes > 0) have->file_gb = static_cast<double>(file->bytes) / 1e9;
      have->listed = true;
      l.types.push_back(name);
      if (gguf_stems(gguf_files_for_tag(r, name)).size() > 1) l.ambiguous.push_back(name);
      break;
    }
  }
  std::sort(l.types.begin(), l.types.end());
  if (l.types.empty())
    m.notes.push_back(fmt::format("{} (commit {}) holds no GGUF file of a type qsel knows: the commands name the files as the common publishers do",
                                  r.repo, r.sha.substr(0, 12)));
  else
    m.notes.push_back(fmt::format("{} holds {} (its file list at commit {}): the commands name those files; another type is a file you "
                                  "quantize yourself", r.repo, fmt::join(l.types, ", "), r.sha.substr(0, 12)));
  m.hub = std::move(l);
}

const Record* model_record_for_repo(const Graph& g, const std::string& repo) {
  for (const Record* r : g.of_kind(Kind::Model)) {
    if (same_repo(r->str("hf_id"), repo)) return r;
    for (const auto& rel : array_field(r->data, "releases"))
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
    if (const Record* rec = model_record_for_repo(g, ref->repo)) return from_record_release(g, *rec, ref->repo, hub);
  ModelFiles files = read_hub(*ref, hub, true);
  ModelSpec m = from_files(g, files);
  if (files.listing) {
    for (auto& r : m.releases) {
      if (!same_repo(r.repo, files.listing->repo)) continue;
      if (!files.ggufs.empty()) r.file = files.ggufs.front();  // the file read, as named (a split file's first part)
      if (files.picked) {  // read for its shape only: the repo ships every type it holds alike
        r.primary = r.local = false;
        m.notes.push_back(fmt::format("{} holds several GGUF files and no tag was given: the shape was read from {}; name one as {}:TAG "
                                      "to serve that one as it is", files.listing->repo, files.ggufs.front(), files.listing->repo));
      }
    }
    if (std::any_of(files.listing->files.begin(), files.listing->files.end(), [](const HubFile& f) { return is_gguf_path(f.path); }))
      add_listed_releases(g, m, *files.listing, false);  // who publishes the repo is not known: a third party's files
  }
  if (ref->url.empty())
    if (const Record* rec = model_record_for_repo(g, ref->repo)) {  // the same model: its family's measurements stand for it
      m.id = rec->id;
      m.family = rec->str("family");
      m.notes.push_back(fmt::format("{} is a release of the model record {}", ref->repo, rec->id));
    }
  return m;
}

}  // namespace qsel
