// Whole-file bits per weight of a GGUF type on a model, from the sizes measured on published files.
// A type's excess over its block struct (promoted tensors, embeddings, the output layer) depends on
// the model's size and vocabulary, so every type is read on one reference model per question: the
// model itself where enough types were measured on it, else the model nearest in size that has. A
// type not measured there is carried to it from where it was measured, by how the excess of the types
// measured on both changed.
#pragma once
#include <optional>
#include <string>

#include "qsel/graph/graph.h"
#include "qsel/model/model_spec.h"

namespace qsel {

struct Bpw;

std::optional<Bpw> measured_gguf_bpw(const Record& format, const ModelSpec& model, const Graph* graph);

}  // namespace qsel
