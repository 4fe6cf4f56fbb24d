#include <catch2/catch.hpp>

#include "cli/browse_args.h"
#include "cli/browse_corpus.h"
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

TEST_CASE("browse_args: engines and their matrices", "[cli][args]") {
  Graph g = small_graph();
  const Record& e = resolve_engine(g, "THE ENGINE");
  CHECK(e.id == "eng");
  auto ms = matrices_of(g, e);
  REQUIRE(ms.size() == 1);
  CHECK(ms[0]->id == "mx");
  CHECK(matrices_of(g, resolve_engine(g, "eng-bare")).empty());
  CHECK(usage_error([&] { resolve_engine(g, "gpu-new"); }).rfind("unknown engine \"gpu-new\"", 0) == 0);
}

TEST_CASE("browse_args: enum values come from the schemas; unknown ones get a suggestion", "[cli][args]") {
  Context ctx;
  auto regimes = schema_enum(ctx, "format", "/properties/regime/enum");
  CHECK(std::find(regimes.begin(), regimes.end(), "w4a16") != regimes.end());
  CHECK(schema_enum(ctx, "format", "/properties/nope/enum").empty());
  CHECK(schema_enum(ctx, "no-such-kind", "/x").empty());
  CHECK_NOTHROW(require_one_of("w4a16", regimes, "regime"));
  CHECK(usage_error([&] { require_one_of("W4A16", regimes, "regime"); }) == "unknown regime \"W4A16\"; did you mean \"w4a16\"?");
  CHECK(usage_error([&] { require_one_of("zzzz", {"alpha", "beta"}, "thing"); }) == "unknown thing \"zzzz\"; use one of alpha, beta");
}
