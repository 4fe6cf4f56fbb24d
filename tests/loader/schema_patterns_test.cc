#include "loader/schema_patterns.h"

#include <catch2/catch.hpp>

#include "qsel/loader/schema_set.h"
#include "qsel/loader/yaml_reader.h"
#include "support/fixtures.h"

using namespace qsel;
using nlohmann::json;

namespace {

const json kSchema = json::parse(R"J({
  "type": "object",
  "definitions": {
    "id": {"type": "string", "pattern": "^[a-z]+$"},
    "either": {"type": "string", "pattern": "^e"}
  },
  "properties": {
    "id": {"$ref": "#/definitions/id"},
    "ids": {"type": "array", "items": {"$ref": "#/definitions/id"}},
    "env": {"type": "object", "additionalProperties": {"type": "string", "pattern": "^[0-9]+$"}},
    "choice": {"oneOf": [{"type": "string", "pattern": "^a"}, {"$ref": "#/definitions/either"}]},
    "negated": {"not": {"type": "string", "pattern": "^x"}},
    "beside_ref": {"$ref": "#/definitions/id", "pattern": "^q"},
    "lookahead": {"type": "string", "pattern": "^(?=a)"},
    "pattern": {"type": "string"}
  }
})J");

}  // namespace

TEST_CASE("schema patterns: taken only where no other verdict can hang on them", "[loader][schema]") {
  json for_valijson = kSchema;
  SchemaPatterns p(kSchema, for_valijson);
  // The id definition (reached by $ref from properties and items) and the
  // additionalProperties one; not oneOf's, not's, the one beside a $ref, nor
  // the look-ahead the linear matcher cannot run.
  CHECK(p.taken() == 2);
  CHECK_FALSE(for_valijson["definitions"]["id"].contains("pattern"));
  CHECK_FALSE(for_valijson["properties"]["env"]["additionalProperties"].contains("pattern"));
  CHECK(for_valijson["definitions"]["either"].contains("pattern"));  // reached from oneOf
  CHECK(for_valijson["properties"]["choice"]["oneOf"][0].contains("pattern"));
  CHECK(for_valijson["properties"]["negated"]["not"].contains("pattern"));
  CHECK(for_valijson["properties"]["beside_ref"].contains("pattern"));
  CHECK(for_valijson["properties"]["lookahead"].contains("pattern"));
  CHECK(for_valijson["properties"]["pattern"] == kSchema["properties"]["pattern"]);  // a field named "pattern" is no keyword
}

TEST_CASE("schema patterns: the check finds the value that fails, by pointer", "[loader][schema]") {
  json for_valijson = kSchema;
  SchemaPatterns p(kSchema, for_valijson);
  CHECK_FALSE(p.check(json::parse(R"({"id": "abc", "ids": ["x", "y"], "env": {"A": "12"}, "pattern": "?"})")));
  CHECK_FALSE(p.check(json::parse(R"({"id": 12})")));  // not a string: the type keyword's business
  auto f = p.check(json::parse(R"({"id": "abc", "ids": ["x", "Y"]})"));
  REQUIRE(f);
  CHECK(f->pointer == "/ids/1");
  CHECK(f->pattern == "^[a-z]+$");
  f = p.check(json::parse(R"({"env": {"a/b~c": "1x"}})"));
  REQUIRE(f);
  CHECK(f->pointer == "/env/a~1b~0c");
}

TEST_CASE("schema patterns: a $ref cycle and deep nesting leave every pattern with valijson", "[loader][schema]") {
  json cyclic = json::parse(R"({"definitions": {"a": {"$ref": "#/definitions/b"}, "b": {"$ref": "#/definitions/a"}},
                                "properties": {"x": {"$ref": "#/definitions/a"}, "y": {"type": "string", "pattern": "^y"}}})");
  json copy = cyclic;
  CHECK(SchemaPatterns(cyclic, copy).taken() == 0);
  CHECK(copy == cyclic);
  json deep = {{"type", "string"}, {"pattern", "^d"}};
  for (int i = 0; i < 200; ++i) deep = {{"properties", {{"k", deep}}}};
  json deep_copy = deep;
  CHECK(SchemaPatterns(deep, deep_copy).taken() == 0);
}

TEST_CASE("schema patterns: validation gives the same verdicts and messages, daggers included", "[loader][schema]") {
  json schema = json::parse(R"({"type": "object", "additionalProperties": false, "required": ["id"],
    "properties": {"id": {"type": "string", "pattern": "^[a-z]+$", "description": "an id: a-z only"},
                   "mark": {"type": "string", "pattern": "^[*†‡]$"}}})");
  SchemaSet set({{"format", schema}});
  auto problems = [&](const std::string& text) {
    YamlDocument doc = read_yaml(text, "f.yaml");
    return set.validate("format", doc.value, doc.marks, "f.yaml");
  };
  CHECK(problems("id: abc\nmark: \"†\"\n").empty());  // std::regex read the class as bytes and refused it
  CHECK(problems("id: abc\nmark: \"*\"\n").empty());
  auto p = problems("id: abc\nmark: \"††\"\n");
  REQUIRE(p.size() == 1);
  CHECK(p[0].message == "/mark: expected a value matching \"^[*†‡]$\", got \"††\"");
  p = problems("id: aBc\n");
  REQUIRE(p.size() == 1);
  CHECK(p[0].message == "/id: expected an id: a-z only, got \"aBc\"");
  CHECK(p[0].mark.line == 1);
}

TEST_CASE("schema patterns: our own schemas leave valijson only the pattern a oneOf depends on", "[loader][schema]") {
  for (const auto& [kind, schema] : read_schema_dir(std::string(QSEL_SOURCE_DIR) + "/schemas")) {
    INFO(kind);
    json for_valijson = schema;
    SchemaPatterns p(schema, for_valijson);
    CHECK(p.taken() > 0);
    // matrix footnotes are oneOf [text, {text, excludes_formats: id_list}]: the
    // id pattern can choose the branch, so valijson keeps it there.
    if (kind == "matrix") {
      CHECK(for_valijson["definitions"]["id"].contains("pattern"));
      for_valijson["definitions"]["id"].erase("pattern");
    }
    CHECK(for_valijson.dump().find("\"pattern\":\"") == std::string::npos);
  }
}
