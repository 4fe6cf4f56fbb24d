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
};
ModelFiles read_model_files(const std::string& name, const HubSettings& hub);

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
