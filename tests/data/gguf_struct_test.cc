// Issue 3: every GGUF record agrees with its ggml block struct.
#include <catch2/catch.hpp>

#include "qsel/core/ggml_types.h"
#include "qsel/loader/corpus_blob.h"

using namespace qsel;

TEST_CASE("data: every GGUF record's bpw.struct is bytes x 8 / elements of its ggml type", "[data][gguf]") {
  int checked = 0;
  for (const Record& r : embedded().corpus.records) {
    if (r.kind != Kind::Format || r.str("scheme") != "gguf") continue;
    INFO(r.id);
    const GgmlType* type = find_ggml_type(r.str("ggml_type"));
    REQUIRE(type);
    REQUIRE(r.data.contains("bpw"));
    CHECK(r.data["bpw"]["struct"].get<double>() == type->block_bytes * 8.0 / type->block_elements);
    ++checked;
  }
  CHECK(checked >= 14);
}

TEST_CASE("data: every GGUF record's weight_group_size is its type's scale group", "[data][gguf]") {
  for (const Record& r : embedded().corpus.records) {
    if (r.kind != Kind::Format || r.str("scheme") != "gguf") continue;
    INFO(r.id);
    const GgmlType* type = find_ggml_type(r.str("ggml_type"));
    REQUIRE(type);
    CHECK(r.data["weight_group_size"].get<int>() == type->scale_group);
  }
}
