// --model PATH: the model a checkpoint holds, its shape from config.json or the
// GGUF metadata, its shipped format and stored bytes from analyze_checkpoint.
#pragma once
#include "qsel/artifact/checkpoint.h"
#include "qsel/model/checkpoint_format.h"
#include "qsel/model/model_spec.h"

namespace qsel {

ModelSpec model_from_checkpoint(const Checkpoint& c, const CheckpointAnalysis& a);

}  // namespace qsel
