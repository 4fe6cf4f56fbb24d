#include <catch2/catch.hpp>

#include "lint/lint_support.h"

using namespace qsel;
using namespace qsel::test;

namespace {

std::string q4k(const std::string& id, const std::string& bpw) {
  return minimal_record("format", id, "ggml_type: Q4_K\nbpw:\n" + bpw);
}

}  // namespace

TEST_CASE("QS005 contested-bpw warns where two disagreeing values are kept on purpose", "[lint][QS005]") {
  TempDir d;
  d.write("models/llama-3.1-8b.yaml", minimal_record("model", "llama-3.1-8b"));
  d.write("formats/gguf-q4-k-m.yaml",
          q4k("gguf-q4-k-m", "  struct: 4.5\n  measured:\n  - value: 4.8944\n    model: llama-3.1-8b\n  contested: true\n"));
  auto f = lint_code(d.path(), "QS005");
  REQUIRE(f.size() == 1);
  CHECK(where(f[0], d.path()) == "formats/gguf-q4-k-m.yaml:10:12: bpw is contested: 4.5 (Q4_K block struct) vs 4.89 "
                                 "measured on llama-3.1-8b; both are kept on purpose");
  CHECK(f[0].severity == Severity::Warning);
}

TEST_CASE("QS005 contested-bpw shows enough digits to tell close values apart", "[lint][QS005]") {
  TempDir d;
  d.write("models/m.yaml", minimal_record("model", "m"));
  d.write("formats/gguf-q6-k.yaml",
          replaced(q4k("gguf-q6-k", "  struct: 6.5625\n  measured: [{value: 6.5633, model: m}]\n  contested: true\n"),
                   "ggml_type: Q4_K", "ggml_type: Q6_K"));
  auto f = lint_code(d.path(), "QS005");
  REQUIRE(f.size() == 1);
  CHECK(f[0].message == "bpw is contested: 6.5625 (Q6_K block struct) vs 6.563 measured on m; both are kept on purpose");
}

TEST_CASE("QS005 contested-bpw fires as an error on a single value that contradicts the struct", "[lint][QS005]") {
  TempDir d;
  d.write("formats/gguf-q4-k-m.yaml", q4k("gguf-q4-k-m", "  nominal: 4.85\n  struct: 4.5\n"));
  d.write("formats/gguf-q4-k-s.yaml", q4k("gguf-q4-k-s", "  struct: 4.25\n"));
  auto f = lint_code(d.path(), "QS005");
  REQUIRE(f.size() == 2);
  CHECK(where(f[0], d.path()) == "formats/gguf-q4-k-m.yaml:8:12: bpw.nominal 4.85 contradicts the Q4_K block struct "
                                 "(144 B x 8 / 256 = 4.5) and the record does not keep both as contested");
  CHECK(f[0].severity == Severity::Error);
  CHECK(where(f[1], d.path()) == "formats/gguf-q4-k-s.yaml:8:11: bpw.struct 4.25 contradicts the Q4_K block struct "
                                 "(144 B x 8 / 256 = 4.5) and the record does not keep both as contested");
}

TEST_CASE("QS005 contested-bpw is clean on agreeing or rounded values", "[lint][QS005]") {
  TempDir d;
  d.write("models/m.yaml", minimal_record("model", "m"));
  d.write("formats/gguf-q4-k-m.yaml", q4k("gguf-q4-k-m", "  nominal: 4.5\n  struct: 4.5\n  measured: [{value: 4.9, model: m}]\n"));
  d.write("formats/gguf-iq1-s.yaml",
          replaced(q4k("gguf-iq1-s", "  nominal: 1.56\n"), "ggml_type: Q4_K", "ggml_type: IQ1_S"));
  CHECK(lint_code(d.path(), "QS005").empty());
}
