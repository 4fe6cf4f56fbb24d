#include "qsel/graph/engines.h"

#include <catch2/catch.hpp>

#include "support/browse_corpus.h"
#include "qsel/core/errors.h"
#include "qsel/loader/loader.h"
#include "support/fixtures.h"

using namespace qsel;

using qsel::test::usage_error;

TEST_CASE("engines: by id or alias, and their matrices", "[graph]") {
  Graph g = test::browse_graph();
  const Record& e = resolve_engine(g, "THE ENGINE");
  CHECK(e.id == "eng");
  auto ms = matrices_of(g, e);
  REQUIRE(ms.size() == 1);
  CHECK(ms[0]->id == "mx");
  CHECK(matrices_of(g, resolve_engine(g, "eng-bare")).empty());
  CHECK(usage_error([&] { resolve_engine(g, "gpu-new"); }).rfind("unknown engine \"gpu-new\"", 0) == 0);
}


TEST_CASE("engines: a name near none of them lists the engines (--engine foo said only 'unknown')", "[graph]") {
  Graph g = test::browse_graph();
  std::vector<std::string> ids;
  for (const Record* e : g.of_kind(Kind::Engine)) ids.push_back(e->id);
  std::string list;
  for (const auto& id : ids) list += (list.empty() ? "" : ", ") + id;
  CHECK(usage_error([&] { resolve_engine(g, "zzzzzzzz"); }) == "unknown engine \"zzzzzzzz\"; the engines are " + list);
}
