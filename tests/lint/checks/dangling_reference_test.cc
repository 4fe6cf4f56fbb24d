#include <catch2/catch.hpp>

#include "lint/lint_support.h"

using namespace qsel;
using namespace qsel::test;

namespace {

void base_corpus(const TempDir& d) {
  d.write("targets/sm90.yaml", minimal_record("target", "sm90"));
  d.write("accelerators/h100-sxm.yaml", minimal_record("accelerator", "h100-sxm"));
  d.write("formats/mlx-affine-4bit.yaml", minimal_record("format", "mlx-affine-4bit", "aliases: [mlx-quantized-4bit]\n"));
}

}  // namespace

TEST_CASE("QS003 dangling-reference fires on an alias, a typo and a wrong kind", "[lint][QS003]") {
  TempDir d;
  base_corpus(d);
  d.write("benchmarks/b.yaml", replaced(minimal_record("benchmark", "b"), "format_id: f", "format_id: mlx-quantized-4bit"));
  d.write("formats/awq.yaml", minimal_record("format", "awq", "native_support: [sm90]\nemulated_support: [h100-sxn]\n"));
  auto f = lint_code(d.path(), "QS003");
  REQUIRE(f.size() == 3);
  CHECK(where(f[0], d.path()) ==
        "benchmarks/b.yaml:4:12: format_id \"mlx-quantized-4bit\" names no record; did you mean \"mlx-affine-4bit\"?");
  CHECK(f[0].record == "b");
  CHECK(f[0].name == "dangling-reference");
  CHECK(f[0].severity == Severity::Error);
  CHECK(where(f[1], d.path()) == "formats/awq.yaml:6:18: native_support[0] \"sm90\" names a target, not an accelerator");
  CHECK(where(f[2], d.path()) ==
        "formats/awq.yaml:7:20: emulated_support[0] \"h100-sxn\" names no record; did you mean \"h100-sxm\"?");
  CHECK_FALSE(f[2].fix);
}

TEST_CASE("QS003 dangling-reference is clean when every id resolves", "[lint][QS003]") {
  TempDir d;
  base_corpus(d);
  d.write("benchmarks/b.yaml", replaced(minimal_record("benchmark", "b"), "format_id: f", "format_id: mlx-affine-4bit"));
  d.write("formats/awq.yaml", minimal_record("format", "awq", "native_support: [h100-sxm]\n"));
  CHECK(lint_code(d.path(), "QS003").empty());
}

TEST_CASE("QS003 dangling-reference suggests for the first 256 unknown ids of a run, then names them plainly", "[lint][QS003]") {
  TempDir d;
  base_corpus(d);
  std::string list;
  for (int i = 0; i < 300; ++i) list += (i ? ", " : "") + std::string("h100-sx") + std::to_string(i);
  d.write("formats/awq.yaml", minimal_record("format", "awq", "emulated_support: [" + list + "]\n"));
  auto f = lint_code(d.path(), "QS003");
  REQUIRE(f.size() == 300);
  std::size_t hinted = 0;
  for (const auto& x : f) hinted += x.message.find("did you mean") != std::string::npos;
  CHECK(hinted == 256);
  CHECK(f[299].message.find("names no record") != std::string::npos);
}
