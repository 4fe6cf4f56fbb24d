#include <catch2/catch.hpp>

#include "qsel/loader/loader.h"
#include "qsel/loader/schema_set.h"
#include "support/fixtures.h"

using namespace qsel;
using qsel::test::minimal_record;

namespace {

Problems problems_of(const std::string& kind, const std::string& text) {
  Problems out;
  load_record(text, "f.yaml", *parse_kind(kind), qsel::test::schemas(), out);
  return out;
}

}  // namespace

TEST_CASE("schema_set: a minimal record of every kind validates", "[loader][schema]") {
  for (const auto& k : all_kinds()) {
    INFO(k.name);
    CHECK(problems_of(k.name, minimal_record(k.name, "x")).empty());
  }
}

TEST_CASE("schema_set: violations name the JSON path and what was expected", "[loader][schema]") {
  struct Case { std::string kind, extra; Mark mark; std::string message; };
  std::vector<Case> cases = {
      {"format", "weight_bits: four\n", {6, 14}, "/weight_bits: expected number or null, got string \"four\""},
      {"format", "bpw: {nominal: 4.5, measured: [{value: 4.8, model: Llama 8B}]}\n", {6, 52},
       "/bpw/measured/0/model: expected an id: lower-case letters (a-z), digits, '.' and '-', starting and ending with a letter or "
       "digit, at most 80 characters (\"rtx-4090\", \"gguf-q4-k-m\"), got \"Llama 8B\""},
      {"format", "weight_group_size: 0\n", {6, 20}, "/weight_group_size: expected at least 1, got 0"},
      {"format", "regmie: w4a16\n", {6, 1}, "/regmie: unknown field \"regmie\"; did you mean \"regime\"?"},
      {"gotcha", "", {0, 0}, ""},
  };
  cases.pop_back();
  for (const auto& c : cases) {
    INFO(c.extra);
    auto ps = problems_of(c.kind, minimal_record(c.kind, "x", c.extra));
    REQUIRE(ps.size() == 1);
    CHECK(ps[0].code == "QS001");
    CHECK(ps[0].message == c.message);
    CHECK(ps[0].mark == c.mark);
    CHECK(ps[0].record == "x");
  }
}

TEST_CASE("schema_set: enum, range, required and type errors at the root", "[loader][schema]") {
  auto status = problems_of("format", "id: x\nkind: format\nname: X\nscheme: awq\nregime: w4a16\nstatus: final\n"
                                      "confidence: 1.5\nsources: []\n");
  REQUIRE(status.size() == 3);
  CHECK(status[0].message == "/status: expected one of \"draft\", \"reviewed\", got \"final\"");
  CHECK(status[0].mark == Mark{6, 9});
  CHECK(status[1].message == "/confidence: expected at most 1, got 1.5");
  CHECK(status[2].message == "/sources: expected at least 1 item(s), got 0");

  auto missing = problems_of("accelerator", "id: x\nkind: accelerator\nname: X\nstatus: draft\nconfidence: 1\nsources: [{title: t}]\n");
  REQUIRE(missing.size() == 2);
  CHECK(missing[0].message == "/: missing required field \"vendor\"");
  CHECK(missing[0].mark == Mark{1, 1});
  CHECK(missing[1].message == "/: missing required field \"target\"");

  auto kind = problems_of("format", minimal_record("model", "x"));
  REQUIRE(!kind.empty());
  CHECK(std::any_of(kind.begin(), kind.end(),
                    [](const Problem& p) { return p.message == "/kind: expected \"format\", got \"model\""; }));

  auto scalar = problems_of("format", "just a string\n");
  REQUIRE(scalar.size() == 1);
  CHECK(scalar[0].message == "/: expected a mapping (one record), got a scalar or list");
}

TEST_CASE("schema_set: every schema is draft-07, self-contained and has the common fields", "[loader][schema]") {
  for (const auto& k : all_kinds()) {
    INFO(k.name);
    const auto& s = qsel::test::schemas().schema(k.name);
    CHECK(s["$schema"] == "http://json-schema.org/draft-07/schema#");
    CHECK(s.dump().find("\"$ref\":\"http") == std::string::npos);
    for (const char* f : {"id", "kind", "name", "status", "confidence", "sources"})
      CHECK(std::find(s["required"].begin(), s["required"].end(), f) != s["required"].end());
    CHECK(s["properties"]["kind"]["const"] == k.name);
  }
}

TEST_CASE("schema_set: long strings against the id pattern do not crash std::regex", "[loader][schema]") {
  // valijson checks `pattern` with std::regex, which overflows its stack on very long
  // input; the loader caps scalars at 16384 characters and ids at 80 by maxLength.
  std::string id(16000, 'a');
  auto ps = problems_of("format", minimal_record("format", id));
  REQUIRE(!ps.empty());
  CHECK(ps[0].message.find("/id: expected at most 80 characters") == 0);
}
