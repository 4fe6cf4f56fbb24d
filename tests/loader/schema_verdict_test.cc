#include "loader/schema_verdict.h"

#include <catch2/catch.hpp>

#include <chrono>
#include <filesystem>

#include "qsel/loader/corpus_blob.h"
#include "qsel/loader/record.h"
#include "qsel/loader/schema_set.h"
#include "qsel/loader/yaml_reader.h"
#include "support/fixtures.h"

using namespace qsel;
using namespace qsel::test;
using nlohmann::json;

namespace {

std::optional<SchemaVerdict> verdict_of(const char* schema) { return SchemaVerdict::compile(json::parse(schema)); }

// Values that break most constraints one way or another.
std::vector<json> odd_values() {
  return {json(nullptr), json(true), json(-1), json(0), json(1.5), json(12345678901234LL), json(""),
          json(std::string(20000, 'x')), json("x"), json::array(), json::array({1, 1}), json::array({"a", "a"}),
          json::object(), json::object({{"unknown_field", 1}})};
}

}  // namespace

TEST_CASE("schema verdict: every kind's schema compiles, and proves a minimal record valid", "[loader][schema][verdict]") {
  for (const KindInfo& k : all_kinds()) {
    INFO(k.name);
    // Taking patterns out (SchemaPatterns) only removes keywords that compile
    // to "ask": the whole schema compiles exactly when what lint uses does.
    CHECK(SchemaVerdict::compile(embedded().schemas.at(k.name)).has_value());
    YamlDocument doc = read_yaml(minimal_record(k.name, "x1"), "x1.yaml");
    REQUIRE(doc.problems.empty());
    REQUIRE(schemas().valijson_accepts(k.name, doc.value));
    // A matrix's ids keep their pattern in valijson's schema (the id definition
    // is also reached under the footnotes' oneOf), so a matrix is always asked.
    CHECK(schemas().proved_valid(k.name, doc.value) == (k.kind != Kind::Matrix));
  }
}

TEST_CASE("schema verdict: every record of data/ is certainly valid, but where a oneOf is reached", "[loader][schema][verdict]") {
  std::size_t certain = 0, asked = 0;
  for (const KindInfo& k : all_kinds()) {
    for (const auto& e : std::filesystem::directory_iterator(source_dir() + "/data/" + k.plural)) {
      YamlDocument doc = read_yaml(read_text(e.path()), e.path().string());
      REQUIRE(doc.problems.empty());
      REQUIRE(schemas().valijson_accepts(k.name, doc.value));
      if (schemas().proved_valid(k.name, doc.value)) ++certain;
      else {
        ++asked;
        CHECK(k.kind == Kind::Matrix);  // its id pattern stays with valijson
      }
    }
  }
  CHECK(certain > 500);
  CHECK(asked <= 3);
}

TEST_CASE("schema verdict: never says valid where valijson says invalid (data/ records, mutated)", "[loader][schema][verdict]") {
  // Each record of every fourth file, with each field (and each field one level
  // down) removed or replaced by an odd value, and an unknown field added.
  std::size_t cases = 0, invalid = 0, certain = 0;
  auto judge = [&](const std::string& kind, const json& doc, const std::string& what) {
    ++cases;
    bool valid = schemas().valijson_accepts(kind, doc);
    bool sure = schemas().proved_valid(kind, doc);
    if (!valid) ++invalid;
    if (sure) ++certain;
    if (sure && !valid) FAIL_CHECK("certainly valid, but valijson rejects it: " << what << " " << doc.dump().substr(0, 300));
  };
  for (const KindInfo& k : all_kinds()) {
    std::size_t n = 0;
    for (const auto& e : std::filesystem::directory_iterator(source_dir() + "/data/" + k.plural)) {
      if (n++ % (4 * qsel::test::kSweepStride)) continue;
      YamlDocument doc = read_yaml(read_text(e.path()), e.path().string());
      const std::string s = k.name;
      json base = doc.value;
      json extra = base;
      extra["not_a_field"] = 1;
      judge(s, extra, "unknown field");
      for (const auto& [key, value] : base.items()) {
        json removed = base;
        removed.erase(key);
        judge(s, removed, key + " removed");
        for (const json& odd : odd_values()) {
          json changed = base;
          changed[key] = odd;
          judge(s, changed, key + " = odd");
        }
        if (value.is_object())
          for (const auto& [sub, subvalue] : value.items()) {
            (void)subvalue;
            for (const json& odd : odd_values()) {
              json changed = base;
              changed[key][sub] = odd;
              judge(s, changed, key + "/" + sub + " = odd");
            }
          }
        if (value.is_array() && !value.empty()) {
          json twice = base;
          twice[key].push_back(value[0]);
          judge(s, twice, key + " item repeated");
          for (const json& odd : odd_values()) {
            json changed = base;
            changed[key][0] = odd;
            judge(s, changed, key + "/0 = odd");
          }
        }
      }
    }
  }
  INFO(cases << " cases, " << invalid << " invalid, " << certain << " certainly valid");
  CHECK(cases > 20000 / qsel::test::kSweepStride);
  CHECK(invalid > cases / 3);  // the mutations do break records
  CHECK(certain > 1000 / qsel::test::kSweepStride);     // and the verdict still proves the ones that stay valid
}

TEST_CASE("schema verdict: keywords it does not know leave the schema to valijson", "[loader][schema][verdict]") {
  CHECK_FALSE(verdict_of(R"({"patternProperties": {"^x": {}}})"));
  CHECK_FALSE(verdict_of(R"({"items": [{"type": "string"}]})"));
  CHECK_FALSE(verdict_of(R"({"$ref": "other.json#/x"})"));
  CHECK_FALSE(verdict_of(R"({"$ref": "#/definitions/missing"})"));
  CHECK_FALSE(verdict_of(R"({"minimum": 0, "exclusiveMinimum": true})"));  // draft-04's form
  CHECK_FALSE(verdict_of(R"({"type": "date"})"));
  CHECK(verdict_of(R"({"type": "string", "format": "uri", "description": "x"})"));
}

TEST_CASE("schema verdict: answers yes only where sure", "[loader][schema][verdict]") {
  auto v = verdict_of(R"({
    "type": "object", "required": ["a"], "additionalProperties": false,
    "properties": {
      "a": {"type": "integer", "minimum": 0, "exclusiveMaximum": 10},
      "b": {"enum": ["x", 1]},
      "c": {"type": "array", "uniqueItems": true, "items": {"type": "string", "maxLength": 3}},
      "d": {"oneOf": [{"type": "string"}, {"type": "integer"}]},
      "e": {"anyOf": [{"type": "string"}, {"type": "null"}]},
      "f": {"type": "number"}
    }})");
  REQUIRE(v);
  CHECK(v->certainly_valid(json::parse(R"({"a": 0})")));
  CHECK(v->certainly_valid(json::parse(R"({"a": 9, "b": "x", "c": ["ab", "é€"], "e": null, "f": 2})")));
  CHECK_FALSE(v->certainly_valid(json::parse(R"({})")));                // required
  CHECK_FALSE(v->certainly_valid(json::parse(R"({"a": 10})")));         // exclusiveMaximum
  CHECK_FALSE(v->certainly_valid(json::parse(R"({"a": -1})")));         // minimum
  CHECK_FALSE(v->certainly_valid(json::parse(R"({"a": 1.0})")));        // strict types: not an integer
  CHECK_FALSE(v->certainly_valid(json::parse(R"({"a": 1, "z": 1})")));  // additionalProperties
  CHECK_FALSE(v->certainly_valid(json::parse(R"({"a": 1, "b": 1.0})")));  // 1.0 is not the integer 1
  CHECK(v->certainly_valid(json::parse(R"({"a": 1, "b": 1})")));
  CHECK_FALSE(v->certainly_valid(json::parse(R"({"a": 1, "c": ["a", "a"]})")));  // uniqueItems
  CHECK_FALSE(v->certainly_valid(json::parse(R"({"a": 1, "c": ["abcd"]})")));     // maxLength in code points
  CHECK(v->certainly_valid(json::parse(R"({"a": 1, "c": ["ééé"]})")));
  CHECK_FALSE(v->certainly_valid(json::parse(R"({"a": 1, "d": "s"})")));         // a oneOf: valijson's call
  CHECK_FALSE(v->certainly_valid(json::parse(R"({"a": 9007199254740993})")));      // past 2^53: not exact
  auto structured = verdict_of(R"({"enum": [[1], {"k": 1}]})");
  REQUIRE(structured);
  CHECK_FALSE(structured->certainly_valid(json::parse("[1]")));  // lists and maps in an enum: valijson's call
}

TEST_CASE("schema verdict: $ref loops and multiplying branches end quickly", "[loader][schema][verdict]") {
  auto loop = verdict_of(R"({"$ref": "#"})");
  REQUIRE(loop);
  CHECK_FALSE(loop->certainly_valid(json(1)));
  auto branches = verdict_of(R"({"allOf": [{"$ref": "#"}, {"$ref": "#"}]})");
  REQUIRE(branches);
  auto start = std::chrono::steady_clock::now();
  CHECK_FALSE(branches->certainly_valid(json(1)));
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
  auto tree = verdict_of(R"({"type": "object", "properties": {"child": {"$ref": "#"}}})");
  REQUIRE(tree);
  CHECK(tree->certainly_valid(json::parse(R"({"child": {"child": {}}})")));
}
