#include <catch2/catch.hpp>

#include "qsel/core/errors.h"
#include "support/rules_mini.h"

using namespace qsel;
using namespace qsel::test;

TEST_CASE("model_spec: a size class resolves to its reference architecture and says so", "[rules][model]") {
  ModelSpec m = model_from_size(mini(), "10B");
  CHECK(m.id == "m-dense");
  CHECK(m.origin == "reference");
  CHECK(m.description == "10B dense, reference architecture m-dense (10 layers, 2 KV heads)");
  ModelSpec moe = model_from_size(mini(), "8x5b");
  CHECK(moe.id == "m-moe");
  CHECK(moe.moe());
}

TEST_CASE("model_spec: sizes without a reference borrow the nearest architecture and say so", "[rules][model]") {
  ModelSpec m = model_from_size(mini(), "1.5b");
  CHECK(m.params_b == Approx(1.5));
  CHECK(m.id.empty());
  CHECK(m.description == "1.5B (no reference architecture of this size; attention and KV cache from m-dense)");
  REQUIRE(m.notes.size() == 1);
  ModelSpec a = model_from_size(mini(), "30b-a3b");
  CHECK(a.params_b == Approx(30));
  CHECK(a.active_params_b == Approx(3));
  ModelSpec x = model_from_size(mini(), "4x7b");
  CHECK(x.params_b == Approx(28));
  CHECK(model_from_size(mini(), "1t").params_b == Approx(1000));
  CHECK(model_from_size(mini(), "500m").params_b == Approx(0.5));
}

TEST_CASE("model_spec: unreadable sizes are usage errors", "[rules][model]") {
  for (const char* bad : {"big", "70", "0b", "-3b", "b70", "8x", "x7b", "1.2.3b", "70b-a80b", "99999999999999999999b"}) {
    INFO(bad);
    CHECK_THROWS_AS(model_from_size(mini(), bad), UsageError);
  }
  CHECK_THROWS_WITH(model_from_size(mini(), "huge"),
                    "cannot read model size \"huge\"; expected a size like 70b, 8B, 1.5b, 1t, 8x7b or 235b-a22b");
  std::string long_size(30000, '9');  // once a stack overflow inside std::regex
  CHECK_THROWS_AS(model_from_size(mini(), long_size + "b"), UsageError);
}
