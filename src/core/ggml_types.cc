#include "qsel/core/ggml_types.h"

#include "qsel/core/text.h"

namespace qsel {

// From llama.cpp ggml/src/ggml-common.h (block_* structs; QK_K = 256).
// bytes: the struct's sizeof; scale group: weights that share one scale.
const std::vector<GgmlType>& ggml_types() {
  static const std::vector<GgmlType> table = {
      {"Q4_0", 32, 18, 32},        // ggml_half d; uint8_t qs[16]
      {"Q4_1", 32, 20, 32},        // ggml_half d, m; uint8_t qs[16]
      {"Q5_0", 32, 22, 32},        // ggml_half d; uint8_t qh[4]; uint8_t qs[16]
      {"Q5_1", 32, 24, 32},        // ggml_half d, m; uint8_t qh[4]; uint8_t qs[16]
      {"Q8_0", 32, 34, 32},        // ggml_half d; int8_t qs[32]
      {"Q2_K", 256, 84, 16},       // scales[16] (4-bit scale+min per 16); qs[64]; d, dmin
      {"Q3_K", 256, 110, 16},      // hmask[32]; qs[64]; scales[12] (6-bit per 16); d
      {"Q4_K", 256, 144, 32},      // d, dmin; scales[12] (6-bit scale+min per 32); qs[128]
      {"Q5_K", 256, 176, 32},      // d, dmin; scales[12]; qh[32]; qs[128]
      {"Q6_K", 256, 210, 16},      // ql[128]; qh[64]; int8 scales[16] (per 16); d
      {"IQ1_S", 256, 50, 256},     // ggml_half d; qs[32]; uint16 qh[8]
      {"IQ2_XXS", 256, 66, 256},   // ggml_half d; uint16 qs[32]
      {"IQ3_XXS", 256, 98, 256},   // ggml_half d; qs[96]
      {"IQ4_NL", 32, 18, 32},      // ggml_half d; qs[16]
      {"IQ4_XS", 256, 136, 32},    // ggml_half d; uint16 scales_h; scales_l[4] (6-bit per 32); qs[128]
      {"TQ1_0", 256, 54, 256},     // qs[48]; qh[4]; ggml_half d
      {"TQ2_0", 256, 66, 256},     // qs[64]; ggml_half d
      {"MXFP4", 32, 17, 32},       // uint8_t e (E8M0); qs[16]
  };
  return table;
}

const GgmlType* find_ggml_type(std::string_view name) {
  std::string key = to_lower(name);
  for (const GgmlType& t : ggml_types())
    if (to_lower(t.name) == key) return &t;
  return nullptr;
}

}  // namespace qsel
