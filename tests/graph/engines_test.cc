#include "qsel/graph/engines.h"

#include <catch2/catch.hpp>

#include "support/browse_corpus.h"
#include "qsel/core/errors.h"
#include "qsel/loader/loader.h"
#include "support/fixtures.h"

using namespace qsel;

namespace {

Graph small_graph() {
  qsel::test::TempDir dir;
  qsel::test::write_browse_corpus(dir);
  Corpus c = load_corpus(dir.path(), qsel::test::schemas());
  REQUIRE(c.problems.empty());
  return Graph(std::move(c));
}

std::string usage_error(const std::function<void()>& f) {
  try {
    f();
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("engines: by id or alias, and their matrices", "[graph]") {
  Graph g = small_graph();
  const Record& e = resolve_engine(g, "THE ENGINE");
  CHECK(e.id == "eng");
  auto ms = matrices_of(g, e);
  REQUIRE(ms.size() == 1);
  CHECK(ms[0]->id == "mx");
  CHECK(matrices_of(g, resolve_engine(g, "eng-bare")).empty());
  CHECK(usage_error([&] { resolve_engine(g, "gpu-new"); }).rfind("unknown engine \"gpu-new\"", 0) == 0);
}

