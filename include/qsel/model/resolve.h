// Every way a user names a model, turned into the one ModelSpec the rules
// read: a size (--model-size 70b), a record id or alias (llama-3.1-8b), a
// config.json, a checkpoint folder or .gguf file, a Hugging Face repo id
// (ORG/NAME[@REVISION][:TAG]) or URL. The order, so the answer never depends
// on the network when it need not:
//   1. a model record by id or alias;
//   2. a file or folder that exists here;
//   3. a record whose hf_id or releases list the repo (no request; naming a
//      release makes it the checkpoint served as it is);
//   4. the Hub: the repo's config, quantization configs and headers.
#pragma once
#include <optional>
#include <string>

#include "qsel/artifact/checkpoint.h"
#include "qsel/graph/graph.h"
#include "qsel/model/checkpoint_format.h"
#include "qsel/model/hub.h"
#include "qsel/model/model_spec.h"

namespace qsel {

struct ModelRequest {
  std::string size;    // --model-size
  std::string name;    // --model: an id, alias, path, Hub id or URL
  std::string config;  // --model-config
};

// Exactly one of the three must be set; a UsageError otherwise, and for any
// name that is none of the above (with the nearest record ids).
ModelSpec resolve_model(const Graph& g, const ModelRequest& request, const HubSettings& hub);

// The files a name points at (inspect, explain PATH, verify --model): a local
// file or folder, or a Hub repo or URL. `source` says where they were read.
struct ModelFiles {
  Checkpoint checkpoint;
  std::string source;  // "Hugging Face Hub https://huggingface.co/Qwen/Qwen3-32B-AWQ at main (commit 0123456789ab): …"
  bool remote = false;
  std::optional<HubRepo> listing;  // a Hub repository's file list (not a URL's file)
  std::vector<std::string> ggufs;  // the GGUF files read (a split file's parts, in order)
  bool picked = false;             // a repo of several GGUF types, no tag: `ggufs` were read for the shape only
};
ModelFiles read_model_files(const std::string& name, const HubSettings& hub);

// The quantization types a GGUF format record goes by in file names: its aliases that are
// one upper-case word ("Q4_K_M", "MXFP4_MOE"), never the llama.cpp enum (LLAMA_FTYPE_...).
std::vector<std::string> gguf_type_names(const Record& format);

// The GGUF files `r`'s list holds for each GGUF format record, as releases of `m` from that
// repository (file, file_gb from the listed sizes; official as given); m.hub says which
// types it holds, and a note says so.
void add_listed_releases(const Graph& g, ModelSpec& m, const HubRepo& r, bool official);

// What `qsel inspect` and `explain PATH` show: the files, their analysis
// (format, bytes, groups) and, where a shape can be read, the model; a file
// whose header reads is worth describing even when its shape is not.
struct ModelReading {
  ModelFiles files;
  CheckpointAnalysis analysis;
  std::optional<ModelSpec> model;
  std::string model_error;  // why there is no model ("no config.json beside the weights")
};
ModelReading read_model(const Graph& g, const std::string& name, const HubSettings& hub);

// The --context a query runs at: the request, or the model's maximum when it
// is shorter and no --context was given; notes what was chosen and what a long
// context needs (UsageError beyond every length the model supports).
long context_for(ModelSpec& m, long requested, bool given);

// True when `name` is an existing path here or has a Hub id's or URL's shape.
bool names_model_files(const std::string& name, const HubSettings& hub);

// The record that names `repo` as its hf_id or in its releases (case-insensitive), or null.
const Record* model_record_for_repo(const Graph& g, const std::string& repo);

}  // namespace qsel
