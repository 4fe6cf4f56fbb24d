#include "qsel/core/citation.h"

#include <catch2/catch.hpp>

using namespace qsel;
using nlohmann::json;

TEST_CASE("citation: a GitHub blob URL of code is a code citation with repo, path and commit", "[core][citation]") {
  Citation c = read_citation(json::parse(
      R"({"title": "t", "url": "https://github.com/vllm-project/vllm/blob/0123456789abcdef0123456789abcdef01234567/csrc/x.cu#L10", "date": "2025-12-02"})"));
  CHECK(c.code);
  CHECK(c.repo == "vllm-project/vllm");
  CHECK(c.path == "csrc/x.cu");
  CHECK(c.commit == "0123456789abcdef0123456789abcdef01234567");
  CHECK(c.date == "2025-12-02");
  CHECK(c.tier == "engine-code");
  Citation branch = read_citation(json::parse(R"({"title": "t", "url": "https://github.com/a/b/tree/main/src/models"})"));
  CHECK(branch.code);
  CHECK(branch.ref == "main");
  CHECK(branch.commit.empty());
  CHECK(branch.tier.empty());
}

TEST_CASE("citation: documentation, pages and design notes are not code citations", "[core][citation]") {
  CHECK_FALSE(read_citation(json::parse(R"({"title": "t", "url": "https://github.com/a/b/blob/main/README.md"})")).code);
  CHECK_FALSE(read_citation(json::parse(R"({"title": "t", "url": "https://github.com/a/b/blob/main/docs/x.rst?plain=1"})")).code);
  CHECK_FALSE(read_citation(json::parse(R"({"title": "t", "url": "https://docs.vllm.ai/x"})")).code);
  CHECK_FALSE(read_citation(json::parse(R"({"title": "t", "url": "https://github.com/a/b/issues/3"})")).code);
  CHECK_FALSE(read_citation(json::parse(R"({"title": "t", "url": "https://github.com/a"})")).code);
  CHECK(read_citation(json::parse(R"({"title": "doc 04 — weight-only-4bit vs W4A4", "section": "§3.2"})")).tier == "census");
  CHECK(read_citation(json::parse(R"({"title": "x", "tier": "vendor-blog"})")).tier == "vendor-blog");
  CHECK(read_citation(json::parse(R"({"title": "x", "repo": "a/b"})")).code);  // repo given: code, path missing
  CHECK_FALSE(read_citation(json::parse("3")).code);
}

TEST_CASE("citation: tiers rank engine code highest and unknown tiers not at all", "[core][citation]") {
  CHECK(tier_rank("engine-code") == 0);
  CHECK(tier_rank("census") == 4);
  CHECK(tier_rank("third-party") == 5);
  CHECK(tier_rank("") == -1);
  CHECK(tier_rank("blog") == -1);
  CHECK(is_commit("0123456789abcdef0123456789abcdef01234567"));
  CHECK_FALSE(is_commit("0123456789ABCDEF0123456789abcdef01234567"));
  CHECK_FALSE(is_commit("0123456"));
}

TEST_CASE("citation: dates are checked calendar days and round-trip", "[core][citation]") {
  CHECK(date_days("1970-01-01") == 0);
  CHECK(date_days("2026-12-01") == 20788);
  CHECK(days_to_date(20788) == "2026-12-01");
  CHECK(date_days("2024-02-29") > 0);
  for (const char* bad : {"2023-02-29", "2025-13-01", "2025-00-10", "2025-1-01", "25-01-01", "2025-01-32", "", "1969-12-31", "2025-01-0x"})
    CHECK(date_days(bad) == -1);
  for (int d : {0, 59, 365, 11016, 20788, 2932896}) CHECK(date_days(days_to_date(d)) == d);
}

TEST_CASE("citation: every source of a record is visited, and freshness spans their dates", "[core][citation]") {
  json r = json::parse(R"({
    "sources": [{"title": "a", "date": "2025-01-02"}, {"title": "b"}],
    "kernel_selection": [{"log": {"source": {"title": "c", "url": "https://github.com/a/b/blob/0123456789abcdef0123456789abcdef01234567/x.py"}}}],
    "contested_by": [{"field": "f", "source": {"title": "d", "date": "2026-03-04"}}]})");
  std::vector<std::string> seen;
  for_each_source(r, [&](const std::string& pointer, const json&) { seen.push_back(pointer); });
  CHECK(seen == std::vector<std::string>{"/contested_by/0/source", "/kernel_selection/0/log/source", "/sources/0", "/sources/1"});
  Freshness f = freshness_of(r);
  CHECK(f.oldest == "2025-01-02");
  CHECK(f.newest == "2026-03-04");
  CHECK(f.dated == 2);
  CHECK(f.undated_code == 1);
}
