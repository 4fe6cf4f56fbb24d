#include <catch2/catch.hpp>

#include "cli/browse_args.h"
#include "qsel/core/text.h"
#include "support/fixtures.h"

using namespace qsel;

TEST_CASE("browse_args: enum values come from the schemas", "[cli][args]") {
  Context ctx;
  auto regimes = schema_enum(ctx, "format", "/properties/regime/enum");
  CHECK(std::find(regimes.begin(), regimes.end(), "w4a16") != regimes.end());
  CHECK(schema_enum(ctx, "format", "/properties/nope/enum").empty());
  CHECK(schema_enum(ctx, "no-such-kind", "/x").empty());
  CHECK_NOTHROW(require_one_of("w4a16", regimes, "regime"));
}
