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
    "id": {"type": "string", "pattern": "^[a-z]+$"}
  },
  "properties": {
    "id": {"$ref": "#/definitions/id"},
    "ids": {"type": "array", "items": {"$ref": "#/definitions/id"}},
    "env": {"type": "object", "additionalProperties": {"type": "string", "pattern": "^[0-9]+$"}},
    "pattern": {"type": "string"}
  }
})J");

// kSchema with one more property; the pointer the refusal names.
std::string refusal(const char* property) {
  json schema = kSchema;
  schema["properties"]["extra"] = json::parse(property);
  json copy = schema;
  try {
    SchemaPatterns p(schema, copy);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "(taken)";
}

}  // namespace

TEST_CASE("schema patterns: every pattern is taken, so valijson evaluates no regular expression", "[loader][schema]") {
  json for_valijson = kSchema;
  SchemaPatterns p(kSchema, for_valijson);
  // The id definition (reached by $ref from properties and items) and the additionalProperties one.
  CHECK(p.taken() == 2);
  CHECK_FALSE(for_valijson["definitions"]["id"].contains("pattern"));
  CHECK_FALSE(for_valijson["properties"]["env"]["additionalProperties"].contains("pattern"));
  CHECK(for_valijson["properties"]["pattern"] == kSchema["properties"]["pattern"]);  // a field named "pattern" is no keyword
}

TEST_CASE("schema patterns: a pattern RE2 cannot take, or one where its verdict could sway another, is refused by pointer", "[loader][schema]") {
  CHECK(refusal(R"J({"type": "string", "pattern": "^(?=a)"})J") ==
        "pattern \"^(?=a)\" at /properties/extra/pattern: RE2 cannot take it: invalid perl operator: (?=");
  CHECK(refusal(R"J({"type": "string", "pattern": "(a)\\1"})J").find("RE2 cannot take it: invalid escape sequence: \\1") != std::string::npos);
  CHECK(refusal(R"J({"oneOf": [{"type": "string", "pattern": "^a"}, {"type": "integer"}]})J") ==
        "/properties/extra/oneOf/0/pattern sits where qsel cannot check it with RE2 (under a keyword such as anyOf, not, if or "
        "patternProperties); move it to a properties/items path");
  CHECK(refusal(R"J({"not": {"type": "string", "pattern": "^x"}})J").rfind("/properties/extra/not/pattern sits where", 0) == 0);
  CHECK(refusal(R"J({"$ref": "#/definitions/id", "pattern": "^q"})J").rfind("/properties/extra/pattern sits where", 0) == 0);
  CHECK(refusal(R"J({"type": "object", "patternProperties": {"^x": {"type": "string"}}})J")
            .rfind("/properties/extra/patternProperties sits where", 0) == 0);
  CHECK(refusal(R"J({"type": "string", "description": "no pattern here"})J") == "(taken)");
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

TEST_CASE("schema patterns: a $ref cycle or nesting past the limit refuses the schema", "[loader][schema]") {
  json cyclic = json::parse(R"({"definitions": {"a": {"$ref": "#/definitions/b"}, "b": {"$ref": "#/definitions/a"}},
                                "properties": {"x": {"$ref": "#/definitions/a"}, "y": {"type": "string", "pattern": "^y"}}})");
  json copy = cyclic;
  CHECK_THROWS_WITH(SchemaPatterns(cyclic, copy), "nesting or $ref chains deeper than 128");
  json deep = {{"type", "string"}, {"pattern", "^d"}};
  for (int i = 0; i < 200; ++i) deep = {{"properties", {{"k", deep}}}};
  json deep_copy = deep;
  CHECK_THROWS_WITH(SchemaPatterns(deep, deep_copy), "nesting or $ref chains deeper than 128");
  CHECK_THROWS_WITH(SchemaSet({{"format", deep}}), "schema for kind \"format\" is unusable: nesting or $ref chains deeper than 128");
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

TEST_CASE("schema patterns: every pattern of our schemas compiles under RE2 and is taken from valijson", "[loader][schema]") {
  for (const auto& [kind, schema] : read_schema_dir(std::string(QSEL_SOURCE_DIR) + "/schemas")) {
    INFO(kind);
    json for_valijson = schema;
    SchemaPatterns p(schema, for_valijson);
    CHECK(p.taken() > 0);
    CHECK(for_valijson.dump().find("\"pattern\":\"") == std::string::npos);
  }
}

TEST_CASE("schema patterns: allOf branches always apply, then and else where valijson says the if holds or not", "[loader][schema]") {
  json schema = json::parse(R"J({
    "type": "object",
    "definitions": {"rule": {"properties": {"topic": {"type": "string", "pattern": "^rule-[1-7]$"}}}},
    "allOf": [
      {"properties": {"code": {"type": "string", "pattern": "^QS[0-9]{3}$"}}},
      {"if": {"properties": {"kind": {"const": "rule"}}, "required": ["kind"]},
       "then": {"$ref": "#/definitions/rule"},
       "else": {"properties": {"topic": {"type": "string", "pattern": "^[a-z]+$"}}}}
    ]
  })J");
  json for_valijson = schema;
  SchemaPatterns p(schema, for_valijson);
  CHECK(p.taken() == 3);
  CHECK(for_valijson.dump().find("\"pattern\"") == std::string::npos);
  CHECK_FALSE(p.check(json::parse(R"({"code": "QS001", "kind": "rule", "topic": "rule-2"})")));
  CHECK_FALSE(p.check(json::parse(R"({"kind": "other", "topic": "abc"})")));
  auto f = p.check(json::parse(R"({"code": "QS1"})"));
  REQUIRE(f);
  CHECK(f->pointer == "/code");
  f = p.check(json::parse(R"({"kind": "rule", "topic": "rule-9"})"));  // then: the rule pattern
  REQUIRE(f);
  CHECK(f->pattern == "^rule-[1-7]$");
  f = p.check(json::parse(R"({"kind": "other", "topic": "rule-2"})"));  // else: a-z only
  REQUIRE(f);
  CHECK(f->pattern == "^[a-z]+$");
  CHECK(refusal(R"J({"if": {"properties": {"x": {"type": "string", "pattern": "^x"}}}, "then": {"required": ["y"]}})J")
            .rfind("/properties/extra/if/properties/x/pattern sits where", 0) == 0);
}
