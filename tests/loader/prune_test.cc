#include <catch2/catch.hpp>

#include <chrono>
#include <string>

#include "qsel/loader/prune.h"
#include "qsel/loader/yaml_reader.h"

using namespace qsel;

namespace {

Record record_of(const std::string& yaml, Kind kind = Kind::Benchmark) {
  YamlDocument doc = read_yaml(yaml, "t.yaml");
  REQUIRE(doc.problems.empty());
  Record r;
  r.kind = kind;
  r.data = std::move(doc.value);
  r.marks = std::move(doc.marks);
  fill_common(r);
  return r;
}

std::string pointers(const Marks& m) {
  std::string out;
  m.for_each([&](std::string_view p, Mark, Mark) { out += std::string(p) + ";"; });
  return out;
}

const char* kBench = R"(id: b1
name: B one
aliases: [bee]
metric: ppl
notes: a long note nobody reads after its own checks
baseline:
  benchmark: b0
  label: BF16
series:
- accelerator: h100
  value: 1
- accelerator: a100
  value: 2
sources:
- title: a paper
  url: https://example.org
)";

}  // namespace

TEST_CASE("prune: keeps declared subtrees and their ancestors, drops the rest", "[prune]") {
  Record r = record_of(kBench);
  KeptPaths kept;
  kept.add("/id");
  kept.add("/baseline/benchmark");
  kept.add("/series/1/accelerator");
  kept.add("/metric");
  kept.prune(r);
  CHECK(r.data.dump() ==
        R"({"baseline":{"benchmark":"b0"},"id":"b1","metric":"ppl","series":[null,{"accelerator":"a100"}]})");
  CHECK(pointers(r.marks) == ";/baseline;/baseline/benchmark;/id;/metric;/series;/series/1;/series/1/accelerator;");
  // What was kept keeps its place in the file.
  CHECK(r.mark_of("/series/1/accelerator") == Mark{12, 16});
  CHECK(r.mark_of("/baseline/benchmark") == Mark{7, 14});
  // Id, name and aliases are members of the record, not of its tree: they stay.
  CHECK(r.id == "b1");
  CHECK(r.name == "B one");
  CHECK(r.aliases == std::vector<std::string>{"bee"});
}

TEST_CASE("prune: the empty pointer keeps the whole record", "[prune]") {
  Record r = record_of(kBench);
  std::string before = r.data.dump();
  std::size_t marks = r.marks.size();
  KeptPaths kept;
  kept.add("/metric");
  kept.add("");
  CHECK(kept.keeps_everything());
  kept.prune(r);
  CHECK(r.data.dump() == before);
  CHECK(r.marks.size() == marks);
}

TEST_CASE("prune: a kept subtree swallows deeper pointers, in either order", "[prune]") {
  Record a = record_of(kBench), b = record_of(kBench);
  KeptPaths one, two;
  one.add("/series");
  one.add("/series/0/value");
  two.add("/series/0/value");
  two.add("/series");
  one.prune(a);
  two.prune(b);
  CHECK(a.data.dump() == R"({"series":[{"accelerator":"h100","value":1},{"accelerator":"a100","value":2}]})");
  CHECK(b.data == a.data);
  CHECK(pointers(a.marks) == pointers(b.marks));
}

TEST_CASE("prune: escaped tokens name keys holding '/' and '~'", "[prune]") {
  Record r = record_of("id: x\nweird:\n  a/b: 1\n  c~d: 2\n  e: 3\n");
  KeptPaths kept;
  kept.add("/weird/a~1b");
  kept.add("/weird/c~0d");
  kept.prune(r);
  CHECK(r.data.dump() == R"({"weird":{"a/b":1,"c~d":2}})");
  CHECK(pointers(r.marks) == ";/weird;/weird/a~1b;/weird/c~0d;");
}

TEST_CASE("prune: a pointer through a scalar or past a list's end keeps what is there", "[prune]") {
  Record r = record_of("id: x\nmetric: ppl\nlist: [a]\nother: 1\n");
  KeptPaths kept;
  kept.add("/metric/deeper");
  kept.add("/list/5");
  kept.prune(r);
  CHECK(r.data.dump() == R"({"list":[null],"metric":"ppl"})");
}

TEST_CASE("prune: kept_paths_for takes the fields of one kind and of every kind", "[prune]") {
  std::vector<KeptField> fields = {{Kind::Benchmark, "/metric"}, {Kind::Format, ""}, {std::nullopt, "/id"}};
  CHECK(kept_paths_for(Kind::Format, fields).keeps_everything());
  KeptPaths bench = kept_paths_for(Kind::Benchmark, fields);
  CHECK_FALSE(bench.keeps_everything());
  Record r = record_of(kBench);
  bench.prune(r);
  CHECK(r.data.dump() == R"({"id":"b1","metric":"ppl"})");
  Record g = record_of(kBench, Kind::Gotcha);
  kept_paths_for(Kind::Gotcha, fields).prune(g);
  CHECK(g.data.dump() == R"({"id":"b1"})");
}

TEST_CASE("prune: pointers added in any order and repeated merge into one tree", "[prune]") {
  Record r = record_of("id: x\na:\n  b: 1\n  c: 2\n  d: 3\nz: 4\n");
  KeptPaths kept;
  kept.add("/a/c");
  kept.add("/z");
  kept.add("/a/b");
  kept.add("/a/c");
  kept.prune(r);
  CHECK(r.data.dump() == R"({"a":{"b":1,"c":2},"z":4})");
}

TEST_CASE("prune: a hundred thousand kept items of one list cost n log n", "[prune]") {
  std::string yaml = "id: x\nlist:\n";
  for (int i = 0; i < 100000; ++i) yaml += "- v\n";
  YamlLimits limits;  // past the loader's limits (1,000 items a list), to make n squared show
  limits.max_items = limits.max_nodes = 200000;
  YamlDocument doc = read_yaml(yaml, "t.yaml", limits);
  REQUIRE(doc.problems.empty());
  Record r;
  r.data = std::move(doc.value);
  r.marks = std::move(doc.marks);
  KeptPaths kept;
  for (int i = 99999; i >= 0; i -= 2) kept.add("/list/" + std::to_string(i));  // every odd item, backwards
  auto start = std::chrono::steady_clock::now();
  kept.prune(r);
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));  // quadratic took minutes
  REQUIRE(r.data["list"].size() == 100000);
  CHECK(r.data["list"][0].is_null());
  CHECK(r.data["list"][99999] == "v");
  CHECK(r.marks.size() == 2 + 50000);  // the root, /list, and each kept item
}
