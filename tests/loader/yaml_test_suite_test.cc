// Runs the loader over every case of the YAML test suite (read in place from
// ../shared/third_party/yaml-test-suite, tag data-2022-01-17): each must end in
// a loaded value or a located error, with no crash and no hang. A case folder
// holds in.yaml, and an `error` file when the input is invalid YAML 1.2.
#include <catch2/catch.hpp>

#include <filesystem>
#include <map>
#include <set>

#include "qsel/loader/loader.h"
#include "support/fixtures.h"

namespace fs = std::filesystem;
using namespace qsel;

namespace {

// Must-fail cases the reader still accepts, each with the reason it may.
// yaml-cpp 0.7 accepts 34 of the 94; the one-document rule, the record rules
// (no anchors, ...) and the byte-level checks in src/loader/yaml_strict.cc
// reject the rest. A case listed here that starts being rejected fails the test
// too, so the list stays true.
const std::map<std::string, std::string> kAcceptedMustFail = {};

// Must-pass cases the reader accepted before the byte-level checks existed
// (the others fail the record rules: anchors, several documents, tags, ...).
// The checks must never reject valid YAML, so this count may only grow.
constexpr std::size_t kMustPassAcceptedBefore = 208;

std::string case_id(const fs::path& root, const fs::path& in_yaml) {
  return fs::relative(in_yaml.parent_path(), root).generic_string();
}

}  // namespace

TEST_CASE("yaml_test_suite: every case loads or fails with a located problem", "[loader][yaml][yaml-test-suite]") {
  fs::path root = QSEL_YAML_TEST_SUITE;
  if (!fs::exists(root)) {
    WARN("yaml-test-suite not found at " << root.string() << "; skipped");
    return;
  }
  std::size_t cases = 0, must_fail = 0, rejected_must_fail = 0, must_pass = 0, accepted_must_pass = 0,
              loaded_records = 0;
  std::set<std::string> accepted_with_reason;
  for (const auto& e : fs::recursive_directory_iterator(root)) {
    if (e.path().filename() != "in.yaml") continue;
    ++cases;
    std::string id = case_id(root, e.path());
    std::string text = qsel::test::read_text(e.path());
    bool expect_error = fs::exists(e.path().parent_path() / "error");
    auto doc = read_yaml(text, e.path().string());
    INFO("case " << id << " (" << e.path().string() << ")");
    for (const auto& p : doc.problems) {
      CHECK(!p.code.empty());
      CHECK(!p.message.empty());
      bool file_level = p.code == "QS010" || p.code == "QS011";
      CHECK((p.mark.known() || file_level));
    }
    if (doc.ok()) CHECK(doc.marks.value("").has_value());
    if (expect_error) {
      ++must_fail;
      if (!doc.ok()) {
        ++rejected_must_fail;
        CHECK(kAcceptedMustFail.count(id) == 0);  // rejected now: take it off the list
      } else {
        INFO("invalid YAML accepted without a reason in kAcceptedMustFail");
        CHECK(kAcceptedMustFail.count(id) == 1);
        accepted_with_reason.insert(id);
      }
    } else {
      ++must_pass;
      accepted_must_pass += doc.ok();
    }
    Problems ps;
    if (load_record(text, "case.yaml", Kind::Format, qsel::test::schemas(), ps)) ++loaded_records;
    for (const auto& p : ps) CHECK(!p.message.empty());
  }
  WARN("yaml-test-suite must-fail: " << rejected_must_fail << " of " << must_fail << " rejected, "
       << accepted_with_reason.size() << " accepted with reasons; must-pass: " << accepted_must_pass << " of "
       << must_pass << " accepted (the rest break record rules)");
  CHECK(cases == 402);
  CHECK(must_fail == 94);
  CHECK(rejected_must_fail + accepted_with_reason.size() == must_fail);
  CHECK(accepted_with_reason.size() == kAcceptedMustFail.size());
  CHECK(accepted_must_pass >= kMustPassAcceptedBefore);
  CHECK(loaded_records == 0);  // none of the suite's documents is a valid format record
}
