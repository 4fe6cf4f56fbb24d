// nothing_fits_lead (src/rules/nothing_fits.cc): when no candidate fits, the answer opens
// with that and with the smallest changes that make one fit, each with that answer's #1;
// never more GPUs for a machine that cannot take them.
#include <catch2/catch.hpp>

#include "qsel/graph/embedded_graph.h"
#include "qsel/rules/rule_support.h"
#include "qsel/rules/rules.h"
#include "support/fixtures.h"
#include "support/rules_mini.h"
#include "support/queries.h"

using namespace qsel;
using qsel::test::mentions;

namespace {

Deliberation nf_ask(const std::string& gpu, const std::string& model, std::vector<std::string> engines = {}, long context = 8192) {
  Query q = test::corpus_query(gpu, model, std::move(engines));
  q.context = context;
  return deliberate(embedded_graph(), q);
}

}  // namespace

TEST_CASE("nothing fits: a 405B on one 12 GB card says so first, with system RAM and a smaller Llama", "[rules][nothing-fits]") {
  auto d = nf_ask("rtx-4070", "llama-3.1-405b");
  CHECK_FALSE(d.deployable);
  CHECK(d.lead_kind == "nothing-fits");
  REQUIRE(d.lead.size() >= 2);
  CHECK(d.lead[0].find("1 x rtx-4070") == 0);
  CHECK(d.lead[0].find("holds none of the") != std::string::npos);
  CHECK(mentions(d.lead, "with --ram "));
  CHECK(mentions(d.lead, "with --model llama-3.1-70b: "));
  CHECK_FALSE(mentions(d.lead, "--count 64"));
}

TEST_CASE("nothing fits: a Mac is offered a smaller model, never more GPUs or more system RAM", "[rules][nothing-fits]") {
  auto d = nf_ask("apple-m3-pro-36gb", "llama-3.1-405b");
  CHECK(d.lead_kind == "nothing-fits");
  CHECK_FALSE(mentions(d.lead, "--count"));
  CHECK_FALSE(mentions(d.lead, "--ram"));
  CHECK(mentions(d.lead, "with --model llama-3.1-70b: "));
  for (const auto& n : d.notes) CHECK(n.find("--count") == std::string::npos);
}

TEST_CASE("nothing fits: a shorter context is offered when that is what makes room", "[rules][nothing-fits]") {
  // 8B in BF16 fits a 24 GB card at 8k; at 1M tokens of context the KV cache does not.
  auto d = nf_ask("rtx-4090", "llama-3.1-8b", {"vllm"}, 1048576);
  if (d.lead_kind == "nothing-fits") CHECK(mentions(d.lead, "with --context "));
}

TEST_CASE("nothing fits: more GPUs of a datacenter part, within one node", "[rules][nothing-fits]") {
  auto d = nf_ask("h100-sxm", "deepseek-r1");
  CHECK(d.lead_kind == "nothing-fits");
  CHECK(mentions(d.lead, "with --count "));
  for (const auto& l : d.lead)
    if (auto at = l.find("--count "); at != std::string::npos) CHECK(std::stoi(l.substr(at + 8)) <= 8);
}

TEST_CASE("nothing fits: an answer that fits has no such lead", "[rules][nothing-fits]") {
  auto d = nf_ask("h100-sxm", "llama-3.1-8b");
  CHECK(d.lead_kind.empty());
  CHECK(d.lead.empty());
}

TEST_CASE("nothing fits: over parts users cannot add to, no lead or note says --count", "[rules][nothing-fits]") {
  const Graph& g = embedded_graph();
  std::size_t asked = 0;
  const auto parts = g.of_kind(Kind::Accelerator);
  for (std::size_t i = 0; i < parts.size(); i += 7) {
    const Record* a = parts[i];
    if (rule_util::takes_more_parts(a)) continue;
    INFO(a->id);
    auto d = nf_ask(a->id, "llama-3.1-405b");
    CHECK_FALSE(mentions(d.lead, "--count"));
    CHECK_FALSE(mentions(d.changes, "--count"));
    for (const auto& n : d.notes) CHECK(n.find("smallest GPU count") == std::string::npos);
    ++asked;
  }
  CHECK(asked >= 8);
}

TEST_CASE("nothing fits: recommend opens with it and exits 1, with no Run #1 for a plan that does not fit", "[rules][nothing-fits][cli]") {
  auto r = test::run_cli({"recommend", "--gpu", "rtx-4070", "--model", "llama-3.1-405b"});
  CHECK(r.code == 1);
  auto lead = r.out.find("\nNothing fits ");
  auto table = r.out.find("\n #");
  REQUIRE(lead != std::string::npos);
  CHECK(lead < table);
  CHECK(r.out.find("\nRun #1") == std::string::npos);
  CHECK(r.out.find("\nWhy #1") == std::string::npos);
}
