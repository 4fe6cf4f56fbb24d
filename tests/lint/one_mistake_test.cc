// One mistake is one finding: the real corpus copied, mistakes made the way
// curators make them, and exactly one finding per mistake — no false
// "names no record" for references to a record that failed its schema.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <map>

#include "lint/lint_support.h"

using namespace qsel;
using namespace qsel::test;
namespace fs = std::filesystem;

namespace {

// The real corpus, copied into `d`/data.
fs::path copy_corpus(const TempDir& d) {
  fs::path to = d.path() / "data";
  fs::copy(source_dir() + "/data", to, fs::copy_options::recursive);
  return to;
}

void edit(const fs::path& file, const std::string& from, const std::string& to) {
  std::string text = read_text(file);
  auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  text.replace(at, from.size(), to);
  std::ofstream(file, std::ios::binary | std::ios::trunc) << text;
}

void copy_record(const fs::path& corpus, const std::string& kind, const std::string& from, const std::string& to) {
  fs::copy_file(corpus / kind / (from + ".yaml"), corpus / kind / (to + ".yaml"));
  edit(corpus / kind / (to + ".yaml"), "id: " + from + "\n", "id: " + to + "\n");
}

// Errors (and warnings) that are not in the pristine corpus: "file:line:col: message [CODE]".
std::vector<std::string> new_findings(const fs::path& corpus) {
  static const std::vector<std::string> pristine = [] {
    std::vector<std::string> out;
    for (const auto& f : lint_all(source_dir() + "/data").findings) out.push_back(f.code + " " + fs::path(f.file).filename().string() + " " + f.message);
    return out;
  }();
  std::vector<std::string> out;
  for (const auto& f : lint_all(corpus).findings) {
    std::string key = f.code + " " + fs::path(f.file).filename().string() + " " + f.message;
    if (std::find(pristine.begin(), pristine.end(), key) == pristine.end())
      out.push_back(fmt::format("{}:{}:{}: {} [{}]", fs::path(f.file).lexically_relative(corpus).generic_string(), f.mark.line,
                                f.mark.column, f.message, f.code));
  }
  return out;
}

}  // namespace

TEST_CASE("one mistake: the curator exercise — a GPU and a format copied, four mistakes, four findings", "[whole-corpus][lint][one-mistake]") {
  TempDir d;
  fs::path c = copy_corpus(d);
  // The GPU: a copy of rtx-4090 with its own alias, no doc 04 census (that counted the original).
  copy_record(c, "accelerators", "rtx-4090", "rtx-4090-oc");
  fs::path gpu = c / "accelerators/rtx-4090-oc.yaml";
  edit(gpu, "aliases:\n- '4090'\n- rtx4090\n- rtx 4090\n- geforce rtx 4090\n- nvidia geforce rtx 4090\n", "aliases:\n- 4090 oc\n");
  std::string text = read_text(gpu);
  auto census = text.find("census:\n");
  REQUIRE(census != std::string::npos);
  text.erase(census, text.find("\nstatus:", census) + 1 - census);
  std::ofstream(gpu, std::ios::binary | std::ios::trunc) << text;
  edit(gpu, "memory_bandwidth_gbs: 1008", "memory_bandwith_gbs: 1008");  // 1. a wrong field name
  edit(gpu, "memory_gb: 24\n", "memory_gb: 24 GB\n");                    // 2. a wrong type
  // A new sm89 part belongs wherever its target's tensor cores run a format natively (QS033).
  for (const char* f : {"fp8-e4m3", "fp8-e5m2", "fp8-per-tensor", "int8-w8a8", "smoothquant", "qserve-w4a8kv4"})
    edit(c / "formats" / (std::string(f) + ".yaml"), "\n- rtx-4090\n", "\n- rtx-4090\n- rtx-4090-oc\n");
  // The format: a copy of gguf-q2-k for the new card.
  copy_record(c, "formats", "gguf-q2-k", "gguf-q2-k-oc");
  fs::path fmt_file = c / "formats/gguf-q2-k-oc.yaml";
  edit(fmt_file, "aliases:\n- Q2_K\n- q2_k\n", "aliases:\n- q2_k oc\n");
  edit(fmt_file, "emulated_support: []", "emulated_support: [rtx-4090-oc]");  // names the GPU that fails its schema: fine
  edit(fmt_file, "related:\n- gguf-q3-k-m\n", "related:\n- gguf-q3-k-mx\n");   // 3. a dangling reference
  edit(fmt_file, "weight_group_size: 16", "weight_group_size: 256");          // 4. the K-quant super-block as the group

  auto found = new_findings(c);
  INFO(fmt::format("{}", fmt::join(found, "\n")));
  REQUIRE(found.size() == 4);
  CHECK(found[0] == "accelerators/rtx-4090-oc.yaml:9:12: /memory_gb: expected number or null, got string \"24 GB\" [QS001]");
  CHECK(found[1] == "accelerators/rtx-4090-oc.yaml:15:1: /memory_bandwith_gbs: unknown field \"memory_bandwith_gbs\"; did you mean "
                    "\"memory_bandwidth_gbs\"? [QS001]");
  CHECK(found[2] == "formats/gguf-q2-k-oc.yaml:10:20: weight_group_size 256 is the Q2_K super-block; its scale group is 16 [QS004]");
  CHECK(found[3] == "formats/gguf-q2-k-oc.yaml:62:3: related[0] \"gguf-q3-k-mx\" names no record; did you mean \"gguf-q3-k-m\"? [QS003]");
}

TEST_CASE("one mistake: N independent mistakes across the real corpus give exactly N findings", "[whole-corpus][lint][one-mistake]") {
  TempDir d;
  fs::path c = copy_corpus(d);
  struct Mistake {
    const char* file;
    const char* from;
    const char* to;
    const char* code;
  };
  // Records many others refer to, broken in ways that fail their schema (repairable or not),
  // plus mistakes caught by graph checks. Each must give exactly one finding.
  const std::vector<Mistake> mistakes = {
      {"formats/awq.yaml", "\nregime:", "\nregimen:", "QS001"},                  // unknown field (and a required one now missing)
      {"accelerators/h100-sxm.yaml", "\nmemory_gb: 80\n", "\nmemory_gb: eighty\n", "QS001"},  // wrong type on a much-cited part
      {"targets/sm90.yaml", "\nvendor: nvidia\n", "\nvendor: nvidia\nvendor: nvidia\n", "QS008"},  // duplicate key: YAML-fatal
      {"engines/vllm.yaml", "\nconfidence:", "\nconfidance:", "QS001"},           // required field misspelt
      {"kernels/marlin.yaml", "\nstatus: ", "\nstatus: 7 #", "QS001"},           // wrong enum/type
      {"formats/gguf-q4-k-s.yaml", "weight_group_size: 32", "weight_group_size: 256", "QS004"},
      {"formats/gguf-q8-0.yaml", "\nrelated:\n- ", "\nrelated:\n- no-such-format\n- ", "QS003"},
  };
  for (const auto& m : mistakes) edit(c / m.file, m.from, m.to);
  auto found = new_findings(c);
  INFO(fmt::format("{}", fmt::join(found, "\n")));
  REQUIRE(found.size() == mistakes.size());
  for (const auto& m : mistakes) {
    INFO(m.file);
    CHECK(std::count_if(found.begin(), found.end(), [&](const std::string& f) {
            return f.rfind(m.file, 0) == 0 && f.find(std::string("[") + m.code + "]") != std::string::npos;
          }) == 1);
  }
}
