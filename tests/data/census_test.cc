// Issue 3: the native/emulated census of doc 04 §3, recomputed from the format
// records, must match the seed's lists and counts. A data edit that breaks the
// census fails here.
#include <catch2/catch.hpp>

#include <map>
#include <set>

#include "qsel/graph/graph.h"
#include "qsel/loader/corpus_blob.h"

using namespace qsel;
using Set = std::set<std::string>;

namespace {

struct Census {
  std::map<std::string, Set> native, emulated;  // accelerator -> formats
};

Census tally(const Corpus& c) {
  Census out;
  for (const auto& r : c.records) {
    if (r.kind != Kind::Format) continue;
    for (const auto& a : r.strings("/native_support")) out.native[a].insert(r.id);
    for (const auto& a : r.strings("/emulated_support")) out.emulated[a].insert(r.id);
  }
  return out;
}

Set formats_listing(const Corpus& c, const std::string& field, const std::string& accel) {
  Set out;
  for (const auto& r : c.records)
    if (r.kind == Kind::Format)
      for (const auto& a : r.strings(field))
        if (a == accel) out.insert(r.id);
  return out;
}

const Record& format(const Corpus& c, const std::string& id) {
  for (const auto& r : c.records)
    if (r.id == id) return r;
  throw std::logic_error("no record " + id);
}

Set list(const Corpus& c, const std::string& id, const std::string& field) {
  auto v = format(c, id).strings(field);
  return Set(v.begin(), v.end());
}

}  // namespace

TEST_CASE("census: every accelerator's recorded census figures match the tally", "[data][census]") {
  const Corpus& c = embedded().corpus;
  Census t = tally(c);
  int checked = 0;
  for (const auto& r : c.records) {
    if (r.kind != Kind::Accelerator || !r.data.contains("census")) continue;
    INFO(r.id);
    const auto& cen = r.data["census"];
    if (cen.contains("native")) CHECK(t.native[r.id].size() == cen["native"].get<std::size_t>());
    if (cen.contains("emulated")) CHECK(t.emulated[r.id].size() == cen["emulated"].get<std::size_t>());
    ++checked;
  }
  CHECK(checked >= 25);
}

TEST_CASE("census: doc 04's counts per accelerator", "[data][census]") {
  Census t = tally(embedded().corpus);
  std::map<std::string, std::pair<int, int>> seed = {  // native, emulated (-1: not stated)
      {"h100-sxm", {13, -1}}, {"h100-pcie", {3, -1}}, {"h100-nvl", {5, -1}}, {"l4", {8, -1}}, {"l40s", {12, -1}},
      {"mi300x", {8, -1}},    {"radeon-pro-vii", {1, 21}}, {"arc-b580", {2, 18}}, {"arc-pro-b60", {2, 13}},
      {"gaudi3", {2, 2}},     {"rtx-4090", {6, -1}}, {"b200", {8, -1}}, {"b300", {8, -1}}};
  for (const auto& [id, n] : seed) {
    INFO(id);
    CHECK(static_cast<int>(t.native[id].size()) == n.first);
    if (n.second >= 0) CHECK(static_cast<int>(t.emulated[id].size()) == n.second);
  }
}

TEST_CASE("census: doc 04's explicit lists", "[data][census]") {
  const Corpus& c = embedded().corpus;
  Set blackwell8 = {"nvfp4", "mxfp4", "mxfp8", "fp8-blockwise", "fp8-e4m3", "fp8-e5m2", "modelopt", "wq4a4"};
  CHECK(formats_listing(c, "/native_support", "b200") == blackwell8);
  CHECK(formats_listing(c, "/native_support", "b300") == blackwell8);
  CHECK(formats_listing(c, "/native_support", "rtx-4090") ==
        Set{"autoround-w4a16", "bitsandbytes-load-in-4bit", "llmcompressor-quant", "ort-matmulnbits-int4",
            "ort-quant-int8", "ortgenai-int4-fp8"});
  for (const char* arc : {"arc-b580", "arc-pro-b60"})
    CHECK(formats_listing(c, "/native_support", arc) == Set{"autoround-w4a16", "ort-matmulnbits-int4"});
  for (const char* f : {"nvfp4", "mxfp4"}) {
    INFO(f);
    CHECK(list(c, f, "/native_support") == Set{"b200", "b300", "gb200-nvl72"});
    CHECK(list(c, f, "/emulated_support") == Set{"h100-sxm", "a100-80gb-sxm4", "radeon-pro-vii"});
  }
  for (const char* f : {"fp8-e4m3", "fp8-e5m2"}) {
    INFO(f);
    CHECK(list(c, f, "/emulated_support") == Set{"a100-80gb-sxm4", "a10"});
    Set native = list(c, f, "/native_support");
    for (const char* a : {"l4", "l40s", "h100-sxm", "h100-pcie", "h100-nvl", "h200", "gh200", "b200", "b300"})
      CHECK(native.count(a) == 1);
    CHECK(native.count("rtx-4090") == 0);  // despite its FP8 TFLOPS, not on its native list
  }
  Set apple = {"apple-m3-max", "apple-m3-ultra", "apple-m4-max", "apple-m4-pro", "apple-m5-max", "apple-m5-pro", "apple-m5-ultra"};
  CHECK(list(c, "mlx-affine-4bit", "/native_support") == apple);
  CHECK(list(c, "mlx-affine-4bit", "/emulated_support").empty());
  CHECK(format(c, "mlx-affine-4bit").data["weight_group_size"] == 64);
  CHECK(formats_listing(c, "/native_support", "gaudi2") == Set{"intel-neural-compressor"});
  CHECK(formats_listing(c, "/emulated_support", "gaudi3") == Set{"moe-expert-mixed-precision", "moe-routing-consistency"});
  CHECK(list(c, "int8-w8a8", "/native_support").count("a100-80gb-sxm4") == 1);
  CHECK(list(c, "int8-w8a8", "/emulated_support").count("a10") == 1);
}

TEST_CASE("census: parts with no quantization story appear in no list", "[data][census]") {
  Census t = tally(embedded().corpus);
  for (const char* a : {"mi350x", "mi355x", "tpu-v4", "tpu-v5e", "tpu-v5p", "tpu-v6e", "inferentia2", "trainium2",
                        "cerebras-wse3", "groq-lpu", "tt-wormhole", "tt-blackhole"}) {
    INFO(a);
    CHECK(t.native[a].empty());
    CHECK(t.emulated[a].empty());
  }
  for (const char* a : {"rtx-5090", "rtx-pro-6000-blackwell"}) {
    INFO(a);
    CHECK(t.native[a].empty());  // "no native_support lists for RTX 5090 or RTX PRO 6000 at all"
    CHECK(!t.emulated[a].empty());
  }
}

TEST_CASE("census: no GGUF record is native anywhere", "[data][census]") {
  for (const auto& r : embedded().corpus.records)
    if (r.kind == Kind::Format && r.str("scheme") == "gguf") {
      INFO(r.id);
      CHECK(r.strings("/native_support").empty());
    }
}

// The census counts the parts the format records name, and no others: the 35
// below (doc 04's lists plus the parts its rows name). A part added for
// hardware coverage enters a list only with a source that says so, and then
// this list changes in the same commit.
TEST_CASE("census: the accelerators it counts, by name", "[data][census]") {
  const Corpus& c = embedded().corpus;
  Census t = tally(c);
  Set counted;
  for (const auto& [a, fs] : t.native) counted.insert(a);
  for (const auto& [a, fs] : t.emulated) counted.insert(a);
  const Set expected = {"a10", "a100-80gb-sxm4", "apple-m3-max", "apple-m3-ultra", "apple-m4-max", "apple-m4-pro", "apple-m5-max",
                        "apple-m5-pro", "apple-m5-ultra", "arc-b580", "arc-pro-b60", "b200", "b300", "dgx-spark", "gaudi2", "gaudi3",
                        "gb200-nvl72", "gh200", "h100-nvl", "h100-pcie", "h100-sxm", "h200", "l4", "l40s", "mi250x", "mi300x", "mi325x",
                        "radeon-pro-vii", "rtx-3090-ti", "rtx-4090", "rtx-5090", "rtx-pro-6000-blackwell", "strix-halo", "t4", "v100"};
  CHECK(counted == expected);
  std::size_t accelerators = 0;
  for (const auto& r : c.records) accelerators += r.kind == Kind::Accelerator;
  // Every other accelerator record (coverage parts: RTX 30/40/50, workstation, Jetson, Apple variants …) is in no list.
  CHECK(accelerators > expected.size() + 150);
  for (const auto& id : counted) {
    INFO(id);
    bool exists = std::any_of(c.records.begin(), c.records.end(), [&](const Record& r) { return r.id == id && r.kind == Kind::Accelerator; });
    CHECK(exists);
  }
}
