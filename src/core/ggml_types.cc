#include "qsel/core/ggml_types.h"

#include "qsel/core/text.h"

namespace qsel {

// From llama.cpp ggml/src/ggml-common.h (block_* structs; QK_K = 256).
// bytes: the struct's sizeof; scale group: weights that share one scale.
const std::vector<GgmlType>& ggml_types() {
  static const std::vector<GgmlType> table = {
      {"Q4_0", 32, 18, 32, 2},        // ggml_half d; uint8_t qs[16]
      {"Q4_1", 32, 20, 32, 3},        // ggml_half d, m; uint8_t qs[16]
      {"Q5_0", 32, 22, 32, 6},        // ggml_half d; uint8_t qh[4]; uint8_t qs[16]
      {"Q5_1", 32, 24, 32, 7},        // ggml_half d, m; uint8_t qh[4]; uint8_t qs[16]
      {"Q8_0", 32, 34, 32, 8},        // ggml_half d; int8_t qs[32]
      {"Q8_1", 32, 36, 32, 9},        // ggml_half d, s; int8_t qs[32] (activations)
      {"Q2_K", 256, 84, 16, 10},      // scales[16] (4-bit scale+min per 16); qs[64]; d, dmin
      {"Q3_K", 256, 110, 16, 11},     // hmask[32]; qs[64]; scales[12] (6-bit per 16); d
      {"Q4_K", 256, 144, 32, 12},     // d, dmin; scales[12] (6-bit scale+min per 32); qs[128]
      {"Q5_K", 256, 176, 32, 13},     // d, dmin; scales[12]; qh[32]; qs[128]
      {"Q6_K", 256, 210, 16, 14},     // ql[128]; qh[64]; int8 scales[16] (per 16); d
      {"Q8_K", 256, 292, 256, 15},    // float d; int8 qs[256]; int16 bsums[16] (activations)
      {"IQ2_XXS", 256, 66, 256, 16},  // ggml_half d; uint16 qs[32]
      {"IQ2_XS", 256, 74, 16, 17},    // ggml_half d; uint16 qs[32]; scales[8] (4-bit per 16)
      {"IQ3_XXS", 256, 98, 256, 18},  // ggml_half d; qs[96]
      {"IQ1_S", 256, 50, 256, 19},    // ggml_half d; qs[32]; uint16 qh[8]
      {"IQ4_NL", 32, 18, 32, 20},     // ggml_half d; qs[16]
      {"IQ3_S", 256, 110, 32, 21},    // ggml_half d; qs[64]; qh[8]; signs[32]; scales[4] (4-bit per 32)
      {"IQ2_S", 256, 82, 16, 22},     // ggml_half d; qs[64]; qh[8]; scales[8] (4-bit per 16)
      {"IQ4_XS", 256, 136, 32, 23},   // ggml_half d; uint16 scales_h; scales_l[4] (6-bit per 32); qs[128]
      {"IQ1_M", 256, 56, 16, 29},     // qs[32]; qh[16]; scales[8] (3-bit per 16, fp16 d split over the rest)
      {"TQ1_0", 256, 54, 256, 34},    // qs[48]; qh[4]; ggml_half d
      {"TQ2_0", 256, 66, 256, 35},    // qs[64]; ggml_half d
      {"MXFP4", 32, 17, 32, 39},      // uint8_t e (E8M0); qs[16]
      {"NVFP4", 64, 36, 16, 40},      // 4 x uint8 UE4M3 scales (one per 16); qs[32]
      {"Q1_0", 128, 18, 128, 41},     // ggml_half d; qs[16] (1 bit each)
      {"Q2_0", 64, 18, 64, 42},       // ggml_half d; qs[16] (2 bits each)
      // Unquantized and integer types (ggml.h enum ggml_type).
      {"F32", 1, 4, 0, 0, false},
      {"F16", 1, 2, 0, 1, false},
      {"I8", 1, 1, 0, 24, false},
      {"I16", 1, 2, 0, 25, false},
      {"I32", 1, 4, 0, 26, false},
      {"I64", 1, 8, 0, 27, false},
      {"F64", 1, 8, 0, 28, false},
      {"BF16", 1, 2, 0, 30, false},
  };
  return table;
}

const GgmlType* ggml_type_by_id(long long id) {
  for (const GgmlType& t : ggml_types())
    if (t.id == id) return &t;
  return nullptr;
}

const GgmlType* find_ggml_type(std::string_view name) {
  std::string key = to_lower(name);
  for (const GgmlType& t : ggml_types())
    if (to_lower(t.name) == key) return &t;
  return nullptr;
}

}  // namespace qsel
