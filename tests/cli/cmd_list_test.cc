#include <catch2/catch.hpp>

#include <set>

#include "support/browse_corpus.h"
#include "support/fixtures.h"

using qsel::test::run_cli;
using nlohmann::json;

namespace {

struct SmallListed : qsel::test::Small {
  std::set<std::string> ids(std::vector<std::string> args) const {
    args.insert(args.begin(), {"--format", "json"});
    auto r = run(args);
    INFO(r.err);
    REQUIRE(r.code == 0);
    auto j = json::parse(r.out);
    std::set<std::string> out;
    for (const auto& rec : j["records"]) out.insert(rec["id"].get<std::string>());
    return out;
  }
};

using Ids = std::set<std::string>;

Ids embedded_ids(std::vector<std::string> args, json* whole = nullptr) {
  args.insert(args.begin(), {"--format", "json"});
  auto r = run_cli(args);
  INFO(r.err);
  REQUIRE(r.code == 0);
  REQUIRE(r.err.empty());
  auto j = json::parse(r.out);
  if (whole) *whole = j;
  Ids out;
  for (const auto& rec : j["records"]) out.insert(rec["id"].get<std::string>());
  return out;
}

}  // namespace

TEST_CASE("cmd_list: --native-on and --emulated-on give explain's verdict, not the support lists alone", "[cli][list]") {
  SmallListed s;
  // fmt-x lists gpu-new in native_support, fmt-y in emulated_support: each is kept exactly
  // when explain's verdict on the part says so.
  Ids native = s.ids({"list", "formats", "--native-on", "new gpu"}), emulated = s.ids({"list", "formats", "--emulated-on", "gpu-new"});
  for (const char* f : {"fmt-x", "fmt-y", "fmt-z"}) {
    INFO(f);
    auto e = s.run({"--format", "json", "explain", f, "--on", "gpu-new"});
    REQUIRE(e.code == 0);
    std::string verdict = json::parse(e.out)["verdict"];
    CHECK(native.count(f) == (verdict == "native" ? 1u : 0u));
    CHECK(emulated.count(f) == (verdict == "emulated" ? 1u : 0u));
  }
  // on the real corpus: Ada runs FP8 natively; bitsandbytes and AutoRound, which list it, dequantize
  Ids ada = embedded_ids({"list", "formats", "--native-on", "rtx-4090"});
  CHECK(ada.count("fp8-e4m3") == 1);
  CHECK(ada.count("bitsandbytes-load-in-4bit") == 0);
  CHECK(ada.count("autoround-w4a16") == 0);
}

TEST_CASE("cmd_list: --engine: served formats, selected kernels, gotchas and matrices that name it", "[cli][list]") {
  SmallListed s;
  // fmt-x: engine.formats; fmt-z: a Y* cell whose footnote excludes only fmt-y.
  CHECK(s.ids({"list", "formats", "--engine", "eng"}) == Ids{"fmt-x", "fmt-z"});
  CHECK(s.ids({"list", "kernels", "--engine", "eng"}) == Ids{"k-one"});
  CHECK(s.ids({"list", "gotchas", "--engine", "the engine"}) == Ids{"g-one"});
  CHECK(s.ids({"list", "matrices", "--engine", "eng"}) == Ids{"mx"});
  CHECK(s.ids({"list", "formats", "--engine", "eng-bare"}).empty());
}

TEST_CASE("cmd_list: --regime, --severity and --vendor, filters combine", "[cli][list]") {
  SmallListed s;
  CHECK(s.ids({"list", "formats", "--regime", "w4a16"}) == Ids{"fmt-x", "fmt-z"});
  CHECK(s.ids({"list", "kernels", "--regime", "w4a16"}) == Ids{"k-one"});
  CHECK(s.ids({"list", "gotchas", "--severity", "blocker"}) == Ids{"g-one"});
  CHECK(s.ids({"list", "accelerators", "--vendor", "amd"}) == Ids{"gpu-amd"});
  CHECK(s.ids({"list", "targets", "--vendor", "nvidia"}) == Ids{"t-new", "t-old"});
  CHECK(s.ids({"list", "formats", "--regime", "w4a16", "--engine", "eng"}) == Ids{"fmt-x", "fmt-z"});
  CHECK(s.ids({"list", "formats", "--regime", "w4a4", "--engine", "eng"}).empty());
}

TEST_CASE("cmd_list: JSON keeps its shape and adds the filters used", "[cli][list]") {
  SmallListed s;
  auto plain = json::parse(s.run({"--format", "json", "list", "formats"}).out);
  CHECK(!plain.contains("filters"));
  auto f = json::parse(s.run({"--format", "json", "list", "formats", "--native-on", "new gpu", "--regime", "w4a16"}).out);
  for (const char* key : {"kind", "plural", "count", "columns", "records"}) CHECK(f.contains(key));
  CHECK(f["filters"] == json::array({{{"flag", "--native-on"}, {"value", "new gpu"}, {"resolved", "gpu-new"}},
                                     {{"flag", "--regime"}, {"value", "w4a16"}, {"resolved", "w4a16"}}}));
}

TEST_CASE("cmd_list: a filter that does not apply, or a bad value, exits 2 with one line", "[cli][list]") {
  SmallListed s;
  struct Case { std::vector<std::string> args; std::string err; };
  std::vector<Case> cases = {
      {{"list", "formats", "--severity", "blocker"}, "qsel: error: --severity filters gotchas, not formats\n"},
      {{"list", "gotchas", "--vendor", "amd"}, "qsel: error: --vendor filters accelerators, targets, not gotchas\n"},
      {{"list", "--native-on", "gpu-new"}, "qsel: error: --native-on needs a kind: qsel list formats --native-on …\n"},
      {{"list", "formats", "--native-on", "gpu-nwe"}, "qsel: error: unknown GPU \"gpu-nwe\"; did you mean \"gpu-new\"?\n"},
      {{"list", "formats", "--native-on", "t-new"}, "qsel: error: \"t-new\" is a target, not a GPU; name a part (gpu-new)\n"},
      {{"list", "formats", "--engine", "engine"}, "qsel: error: unknown engine \"engine\"; did you mean \"eng\"?\n"},
      {{"list", "formats", "--regime", "w4a17"}, "qsel: error: unknown regime \"w4a17\"; did you mean \"w4a16\"?\n"},
      {{"list", "gotchas", "--severity", "fatal"}, "qsel: error: unknown severity \"fatal\"; use one of blocker, major, minor\n"},
      {{"list", "accelerators", "--vendor", "nvida"}, "qsel: error: unknown vendor \"nvida\"; did you mean \"nvidia\"?\n"},
  };
  for (const auto& c : cases) {
    auto r = s.run(c.args);
    INFO(c.args.back());
    CHECK(r.code == 2);
    CHECK(r.out.empty());
    CHECK(r.err == c.err);
  }
}

TEST_CASE("cmd_list: filters on the embedded corpus", "[cli][list]") {
  auto native = embedded_ids({"list", "formats", "--native-on", "h100"});
  CHECK(native.count("fp8-e4m3"));
  CHECK(!native.count("nvfp4"));
  CHECK(embedded_ids({"list", "formats", "--emulated-on", "h100-sxm"}).count("nvfp4"));

  json w4a4;
  embedded_ids({"list", "formats", "--regime", "w4a4"}, &w4a4);
  REQUIRE(!w4a4["records"].empty());
  for (const auto& r : w4a4["records"]) CHECK(r["regime"] == "w4a4");

  auto vllm_formats = embedded_ids({"list", "formats", "--engine", "vllm"});
  CHECK(vllm_formats.count("fp8-kv"));
  CHECK(vllm_formats.count("nvfp4"));
  CHECK(embedded_ids({"list", "kernels", "--engine", "vllm"}).count("machete"));

  json blockers;
  embedded_ids({"list", "gotchas", "--severity", "blocker"}, &blockers);
  for (const auto& r : blockers["records"]) CHECK(r["severity"] == "blocker");

  json amd;
  embedded_ids({"list", "accelerators", "--vendor", "amd"}, &amd);
  REQUIRE(!amd["records"].empty());
  for (const auto& r : amd["records"]) CHECK(r["vendor"] == "amd");
}

TEST_CASE("cmd_list: markdown is a reference table with each record's sources linked", "[cli][list]") {
  auto r = run_cli({"list", "accelerators", "--vendor", "nvidia", "--format", "markdown"});
  REQUIRE(r.code == 0);
  CHECK(r.err.empty());
  CHECK(r.out.rfind("# ", 0) == 0);
  CHECK(r.out.find("Filtered by --vendor nvidia.") != std::string::npos);
  CHECK(r.out.find("| id | vendor | target | GiB | memory | GB/s | BF16 TFLOPS | FP8 TFLOPS | FP4 TFLOPS | market | year | name | sources |") !=
        std::string::npos);
  CHECK(r.out.find("| rtx-3090 | nvidia | sm86 | 24 | GDDR6X | 936.2 | 71 | — | — | consumer | 2020 | NVIDIA GeForce RTX 3090 | [1][rtx-3090.1]") !=
        std::string::npos);
  CHECK(r.out.find("\n[rtx-3090.1]: <https://github.com/Lightning-AI/pytorch-lightning/") != std::string::npos);
  // every table row has a sources cell that links at least one source
  std::size_t rows = 0, linked = 0, pos = 0;
  while ((pos = r.out.find("\n| ", pos)) != std::string::npos) {
    std::size_t end = r.out.find('\n', pos + 1);
    std::string row = r.out.substr(pos + 1, end - pos - 1);
    pos = end;
    if (row.rfind("| id ", 0) == 0 || row.rfind("| ---", 0) == 0) continue;
    ++rows;
    linked += row.find("][") != std::string::npos;
  }
  CHECK(rows >= 160);
  CHECK(linked == rows);
  auto text = run_cli({"list", "accelerators", "--vendor", "nvidia", "--no-color"});
  CHECK(text.out.find("BF16") == std::string::npos);  // detail columns stay out of the text table
}
