#include <catch2/catch.hpp>

#include <algorithm>

#include "qsel/graph/graph.h"
#include "support/fixtures.h"

using namespace qsel;
using qsel::test::minimal_record;
using qsel::test::replace_once;

namespace {

// A corpus with one record of each kind, wired so that every edge family appears once.
Graph tiny_graph(const qsel::test::TempDir& dir) {
  dir.write("targets/sm90.yaml", minimal_record("target", "sm90"));
  dir.write("accelerators/h100-sxm.yaml", minimal_record("accelerator", "h100-sxm", "aliases: [H100 SXM5]\nfamily: h100\nfamily_default: true\n"));
  dir.write("accelerators/h100-pcie.yaml", minimal_record("accelerator", "h100-pcie", "family: h100\n"));
  dir.write("formats/awq.yaml", minimal_record("format", "awq",
      "native_support: [h100-sxm]\nemulated_support: [h100-pcie]\nquality_delta: [bench-awq]\n"
      "bpw: {measured: [{value: 4.2, model: llama-x}]}\nrelated: [no-such-format]\n"));
  dir.write("benchmarks/bench-awq.yaml", replace_once(minimal_record("benchmark", "bench-awq"), "format_id: f", "format_id: awq"));
  dir.write("kernels/marlin.yaml", replace_once(minimal_record("kernel", "marlin", "formats: [awq]\nequivalent_to: [machete]\n"),
                                                "runs_on: {}", "runs_on: {targets: [sm90]}"));
  dir.write("kernels/machete.yaml", minimal_record("kernel", "machete"));
  dir.write("engines/vllm.yaml", replace_once(minimal_record("engine", "vllm", "matrix: vllm-matrix\n"),
      "kernel_selection: []", "kernel_selection:\n  - {kernel: machete, formats: [awq], when: {targets: [sm90]}}\n  - {kernel: marlin}"));
  dir.write("matrices/vllm-matrix.yaml", "id: vllm-matrix\nkind: matrix\nname: M\nengine: vllm\n"
      "columns:\n  - {key: awq, label: AWQ, formats: [awq], kernel: marlin}\n"
      "rows:\n  - {key: hopper, label: Hopper, match: {targets: [sm90]}, cells: {awq: \"Y\"}}\n"
      "status: draft\nconfidence: 0.5\nsources: [{title: t}]\n");
  dir.write("gotchas/trap.yaml", replace_once(minimal_record("gotcha", "trap"),
      "applies: {}", "applies: {formats: [awq], engines: [vllm], kernels: [machete], targets: {targets: [sm90]}}"));
  dir.write("models/llama-x.yaml", minimal_record("model", "llama-x"));
  Corpus c = load_corpus(dir.path(), qsel::test::schemas());
  for (const auto& p : c.problems) FAIL(located(p));
  return Graph(std::move(c));
}

std::vector<std::string> out_labels(const Graph& g, const std::string& id) {
  std::vector<std::string> out;
  for (const Edge* e : g.out_edges(*g.index_of(id))) out.push_back(std::string(e->label) + ">" + e->to_id);
  return out;
}

bool has(const std::vector<std::string>& v, const std::string& s) { return std::find(v.begin(), v.end(), s) != v.end(); }

}  // namespace

TEST_CASE("graph: every id-valued field becomes a typed edge", "[graph]") {
  qsel::test::TempDir dir;
  Graph g = tiny_graph(dir);
  auto fmt = out_labels(g, "awq");
  CHECK(has(fmt, "native-on>h100-sxm"));
  CHECK(has(fmt, "emulated-on>h100-pcie"));
  CHECK(has(fmt, "quality-evidence>bench-awq"));
  CHECK(has(fmt, "bpw-measured-on>llama-x"));
  CHECK(has(out_labels(g, "h100-sxm"), "target>sm90"));
  CHECK(has(out_labels(g, "bench-awq"), "measures>awq"));
  auto eng = out_labels(g, "vllm");
  CHECK(has(eng, "selects>machete"));
  CHECK(has(eng, "selects>marlin"));
  CHECK(has(eng, "selection-format>awq"));
  CHECK(has(eng, "selection-target>sm90"));
  CHECK(has(eng, "matrix>vllm-matrix"));
  auto mat = out_labels(g, "vllm-matrix");
  CHECK(has(mat, "matrix-of>vllm"));
  CHECK(has(mat, "column-format>awq"));
  CHECK(has(mat, "column-kernel>marlin"));
  CHECK(has(mat, "row-target>sm90"));
  auto kern = out_labels(g, "marlin");
  CHECK(has(kern, "consumes>awq"));
  CHECK(has(kern, "equivalent-to>machete"));
  CHECK(has(kern, "runs-on>sm90"));
  auto trap = out_labels(g, "trap");
  CHECK(has(trap, "applies-to-format>awq"));
  CHECK(has(trap, "applies-to-engine>vllm"));
  CHECK(has(trap, "applies-to-kernel>machete"));
  CHECK(has(trap, "applies-to-target>sm90"));
}

TEST_CASE("graph: reverse edges answer 'what refers to X' in one lookup", "[graph]") {
  qsel::test::TempDir dir;
  Graph g = tiny_graph(dir);
  std::vector<std::string> in;
  for (const Edge* e : g.in_edges(*g.index_of("sm90"))) in.push_back(g.record(e->from).id + ":" + std::string(e->label));
  CHECK(has(in, "h100-sxm:target"));
  CHECK(has(in, "h100-pcie:target"));
  CHECK(has(in, "marlin:runs-on"));
  CHECK(has(in, "vllm:selection-target"));
  CHECK(has(in, "vllm-matrix:row-target"));
  CHECK(has(in, "trap:applies-to-target"));
  CHECK(in.size() == 6);
}

TEST_CASE("graph: a dangling reference stays as an edge with no target", "[graph]") {
  qsel::test::TempDir dir;
  Graph g = tiny_graph(dir);
  auto d = g.dangling();
  REQUIRE(d.size() == 1);
  CHECK(d[0]->to_id == "no-such-format");
  CHECK(d[0]->label == "related");
  CHECK(d[0]->pointer == "/related/0");
  CHECK(g.record(d[0]->from).id == "awq");
}

TEST_CASE("graph: a reference to a record of the wrong kind is flagged", "[graph]") {
  qsel::test::TempDir dir;
  dir.write("targets/sm90.yaml", minimal_record("target", "sm90"));
  dir.write("accelerators/h100-sxm.yaml", minimal_record("accelerator", "h100-sxm"));
  dir.write("formats/awq.yaml", minimal_record("format", "awq", "native_support: [sm90]\n"));
  Graph g(load_corpus(dir.path(), qsel::test::schemas()));
  auto d = g.dangling();
  REQUIRE(d.size() == 1);
  CHECK(d[0]->wrong_kind);
  CHECK(d[0]->to_id == "sm90");
}

TEST_CASE("graph: ids and aliases resolve case-insensitively, tolerant of - _ and spaces", "[graph]") {
  qsel::test::TempDir dir;
  Graph g = tiny_graph(dir);
  for (const char* q : {"h100-sxm", "H100 SXM", "h100_sxm", "H100SXM", "h100 sxm5", "H100-SXM5"}) {
    INFO(q);
    auto r = g.resolve(q);
    REQUIRE(r);
    CHECK(r.record->id == "h100-sxm");
  }
  CHECK(g.resolve("H100 SXM5").how == Resolution::How::Alias);
  CHECK(g.resolve("h100_sxm").how == Resolution::How::Id);
}

TEST_CASE("graph: a family name resolves to its default member and names the others", "[graph]") {
  qsel::test::TempDir dir;
  Graph g = tiny_graph(dir);
  auto r = g.resolve("H100");
  REQUIRE(r);
  CHECK(r.record->id == "h100-sxm");
  CHECK(r.how == Resolution::How::Family);
  REQUIRE(r.others.size() == 1);
  CHECK(r.others[0]->id == "h100-pcie");
  CHECK(!g.resolve("h100", Kind::Format));
  // a typo of the family name suggests what the family resolves to (h1000 suggested only rtx-a1000)
  auto typo = g.resolve("h1000", Kind::Accelerator);
  CHECK(!typo);
  CHECK(typo.suggestions == std::vector<std::string>{"h100-sxm"});
}

TEST_CASE("graph: unknown names get did-you-mean suggestions by edit distance", "[graph]") {
  qsel::test::TempDir dir;
  Graph g = tiny_graph(dir);
  auto r = g.resolve("h100-sxn");
  CHECK(!r);
  REQUIRE(!r.suggestions.empty());
  CHECK(r.suggestions[0] == "h100-sxm");
  CHECK(g.resolve("machette").suggestions == std::vector<std::string>{"machete"});
  CHECK(g.resolve("zzzzzzzzzz").suggestions.empty());
}

TEST_CASE("graph: the embedded corpus resolves the spellings users type", "[graph][corpus]") {
  Graph g(load_corpus(qsel::test::source_dir() + "/data", qsel::test::schemas()));
  CHECK(g.resolve("h100").record->id == "h100-sxm");
  CHECK(g.resolve("5090").record->id == "rtx-5090");
  CHECK(g.resolve("mi300x").record->id == "mi300x");
  CHECK(g.resolve("Q4_K_M").record->id == "gguf-q4-k-m");
  CHECK(g.resolve("rtx5090").record->id == "rtx-5090");
}
