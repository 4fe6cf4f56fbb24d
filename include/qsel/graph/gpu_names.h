// Matching the names people and drivers give GPUs to accelerator records:
// "GeForce RTX 3090", "NVIDIA A100-SXM4-80GB", "m3 max 36gb", "Radeon RX 7900 XT".
// Typed names must match a record's spelling once vendor words and a memory size
// are set aside (a typo stays a typo); driver names match the longest spelling
// they contain, with the reported memory picking among a family's members.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "qsel/graph/graph.h"

namespace qsel {

struct GpuName {
  std::string rest;      // lower-case words without vendor words and without the memory size
  double memory_gb = 0;  // "36gb", "80 GB" in the name; 0 when none
};

// Splits a typed or reported GPU name into its model words and a memory size.
GpuName split_gpu_name(std::string_view name);

// A typed name that exact resolution missed: vendor words dropped, a memory size
// choosing among a family's members. Null when nothing matches the whole name.
const Record* resolve_typed_gpu(const Graph& g, std::string_view name, std::string* how);

// A name a driver reported (nvidia-smi, rocm-smi, sysctl): the record whose
// spelling is the longest contained in it, vendor words and memory sizes set
// aside on both sides; the reported memory (MiB, 0 when unknown) chooses among
// equals and among a family's members. Null when no spelling of 3+ characters matches.
const Record* match_reported_gpu(const Graph& g, std::string_view name, double memory_mib);

// The same, with every accelerator's spellings compacted once: what matches the
// GPUs of one probe (4,096 of them took 7 s when each match re-spelled the corpus).
class ReportedGpuMatcher {
 public:
  explicit ReportedGpuMatcher(const Graph& g);
  const Record* match(std::string_view name, double memory_mib) const;

 private:
  struct Part {
    const Record* record = nullptr;
    std::vector<std::string> spellings;  // compacted, vendor words and memory sizes set aside
    double reported_mib = 0;
    std::string family;
    bool family_default = false;
  };
  std::vector<Part> parts_;
};

// Accelerator ids whose id or aliases share the query's model number ("3080" in
// "rtx 3080 16gb"); empty when the query has no number of three or more digits.
std::vector<std::string> parts_sharing_model_number(const Graph& g, std::string_view query);

// Accelerator ids whose spellings share a word of three or more letters with the
// query ("orin" in "Orin (nvgpu)"), series words (rtx, pro, max …) aside.
std::vector<std::string> parts_sharing_a_word(const Graph& g, std::string_view query);

}  // namespace qsel
