#include <catch2/catch.hpp>

#include "qsel/report/lint_report.h"

using namespace qsel;

TEST_CASE("lint_json: findings and summary with the keys schemas/output/lint.schema.json names", "[report][lint]") {
  LintReport r;
  r.findings = {{"QS005", "contested-bpw", Severity::Warning, "data/formats/q.yaml", {24, 12}, "gguf-q4-k-m", "m", {}}};
  r.files = 290;
  r.records = 290;
  CHECK(lint_json(r).dump() ==
        R"({"schema_version":1,"findings":[{"code":"QS005","name":"contested-bpw","severity":"warning","file":"data/formats/q.yaml",)"
        R"("line":24,"column":12,"record":"gguf-q4-k-m","message":"m","fixable":false,)"
        R"("url":"https://github.com/qsel-project/qsel/blob/main/docs/lint/QS005.md"}],)"
        R"("summary":{"errors":0,"warnings":1,"files":290,"records":290}})");
  r.fixed = 2;
  CHECK(lint_json(r)["summary"]["fixed"] == 2);
}
