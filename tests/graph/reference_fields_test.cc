#include <catch2/catch.hpp>

#include <set>

#include "qsel/graph/reference_fields.h"
#include "qsel/loader/corpus_blob.h"

using namespace qsel;

TEST_CASE("reference_fields: every pattern names a field of its kind's schema", "[graph]") {
  const auto& schemas = embedded().schemas;
  for (const auto& f : reference_fields()) {
    INFO(kind_name(f.from) << " " << f.pattern);
    const auto& schema = schemas.at(kind_name(f.from));
    std::string first = f.pattern.substr(1, f.pattern.find('/', 1) - 1);
    CHECK(schema["properties"].contains(first));
    CHECK(!f.label.empty());
  }
}

TEST_CASE("reference_fields: references_of finds nested ids with concrete pointers", "[graph]") {
  Record r;
  r.kind = Kind::Engine;
  r.data = nlohmann::json::parse(R"({"kernel_selection":[{"kernel":"a","formats":["f"],"when":{"targets":["t"]}}],"matrix":"m"})");
  std::set<std::string> found;
  for (const auto& ref : references_of(r)) found.insert(ref.field->label + " " + ref.pointer + " " + ref.id);
  CHECK(found == std::set<std::string>{"matrix /matrix m", "selects /kernel_selection/0/kernel a",
                                      "selection-format /kernel_selection/0/formats/0 f",
                                      "selection-target /kernel_selection/0/when/targets/0 t"});
}
