// The JSON output contracts: every document qsel prints with --format json starts
// with "schema_version": 1 and validates against its schema in schemas/output/,
// over a spread of arguments per command; every JSON example in the docs
// validates against the schema of the command that printed it; and each schema
// rejects a document that lacks a key it requires.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>

#include "qsel/loader/schema_set.h"
#include "qsel/report/json_contract.h"
#include "qsel/report/lint_report.h"
#include "support/checkpoints.h"
#include "support/fixtures.h"

namespace fs = std::filesystem;
using nlohmann::json;
using ojson = nlohmann::ordered_json;
using Args = std::vector<std::string>;
using qsel::test::run_cli;

namespace {

const std::vector<std::string>& schema_files() {
  static const std::vector<std::string> files = {
      "recommend.schema.json", "explain.schema.json", "explain-format.schema.json", "list.schema.json",
      "show.schema.json",      "graph.schema.json",   "matrix.schema.json",         "inspect.schema.json",
      "verify.schema.json",    "lint.schema.json",    "lint-rules.schema.json"};
  return files;
}

std::string schema_path(const std::string& name) { return qsel::test::source_dir() + "/schemas/output/" + name; }

json schema_doc(const std::string& name) { return json::parse(qsel::test::read_text(schema_path(name))); }

const qsel::SchemaSet& contracts() {
  static const qsel::SchemaSet set([] {
    std::map<std::string, json> docs;
    for (const auto& f : schema_files()) docs[f] = schema_doc(f);
    return docs;
  }());
  return set;
}

std::vector<std::string> contract_violations(const std::string& schema, const json& doc) {
  std::vector<std::string> out;
  for (const auto& p : contracts().validate(schema, doc, qsel::Marks{}, schema)) out.push_back(p.message);
  return out;
}

// The schema that covers `qsel ARGS --format json`, from the subcommand.
std::string schema_for(const Args& words) {
  static const std::map<std::string, std::string> by_command = {
      {"recommend", "recommend.schema.json"}, {"explain", "explain.schema.json"}, {"list", "list.schema.json"},
      {"show", "show.schema.json"},           {"graph", "graph.schema.json"},     {"matrix", "matrix.schema.json"},
      {"inspect", "inspect.schema.json"},     {"verify", "verify.schema.json"},   {"lint", "lint.schema.json"}};
  for (const auto& w : words) {
    auto it = by_command.find(w);
    if (it == by_command.end()) continue;
    if (w == "lint" && std::find(words.begin(), words.end(), "--list-rules") != words.end()) return "lint-rules.schema.json";
    return it->second;
  }
  return "";
}

bool asks_for_json(const Args& words) {
  for (std::size_t i = 0; i < words.size(); ++i)
    if (words[i] == "--format=json" || (words[i] == "--format" && i + 1 < words.size() && words[i + 1] == "json")) return true;
  return false;
}

// Runs `qsel ARGS --format json` in-process, checks the version comes first and
// the document validates against its schema; returns the document.
ojson checked(Args args, std::initializer_list<int> codes = {0}) {
  args.insert(args.end(), {"--format", "json"});
  std::string shown;
  for (const auto& a : args) shown += " " + a;
  INFO("qsel" << shown);
  std::string schema = schema_for(args);
  REQUIRE(!schema.empty());
  auto r = run_cli(args);
  INFO("stderr: " << r.err);
  REQUIRE(std::find(codes.begin(), codes.end(), r.code) != codes.end());
  ojson doc = ojson::parse(r.out);
  REQUIRE(doc.is_object());
  REQUIRE(!doc.empty());
  CHECK(doc.begin().key() == "schema_version");
  CHECK(doc["schema_version"] == qsel::kOutputSchemaVersion);
  for (const auto& v : contract_violations(schema, json::parse(r.out))) FAIL_CHECK(schema << ": " << v);
  return doc;
}

std::string fixture_log(const std::string& name) { return qsel::test::source_dir() + "/tests/fixtures/logs/" + name; }
std::string seed_state() { return qsel::test::source_dir() + "/tests/fixtures/seed-state"; }

// A tiny AutoAWQ checkpoint folder and a tiny Q4_K_M GGUF file, as the inspect tests build them.
struct Checkpoints {
  qsel::test::TempDir dir;
  std::string awq, gguf;
  Checkpoints() {
    awq = qsel::test::write_checkpoint(dir, "llama-awq",
                                       qsel::test::tiny_config({{"quant_method", "awq"}, {"bits", 4}, {"group_size", 128}, {"zero_point", true},
                                                                {"version", "gemm"}}),
                                       qsel::test::awq_tensors());
    qsel::test::GgufWriter w;
    w.str("general.architecture", "llama");
    w.u32("general.file_type", 15);
    w.u32("llama.block_count", 1);
    w.u32("llama.embedding_length", 256);
    w.u32("llama.attention.head_count", 4);
    w.u32("llama.attention.head_count_kv", 2);
    w.u32("llama.vocab_size", 256);
    w.tensor("blk.0.attn_q.weight", {256, 256}, 12, 256, 144);
    w.tensor("blk.0.ffn_down.weight", {512, 256}, 14, 256, 210);
    gguf = dir.write("tiny-q4km.gguf", w.bytes()).string();
  }
};

}  // namespace

// ---- the schemas themselves ---------------------------------------------------------------------

TEST_CASE("json_contracts: every output schema is draft-07, titled, described and requires schema_version 1", "[contract]") {
  std::set<std::string> on_disk;
  for (const auto& e : fs::directory_iterator(qsel::test::source_dir() + "/schemas/output")) on_disk.insert(e.path().filename().string());
  CHECK(on_disk == std::set<std::string>(schema_files().begin(), schema_files().end()));
  for (const auto& name : schema_files()) {
    INFO(name);
    json s = schema_doc(name);
    CHECK(s["$schema"] == "http://json-schema.org/draft-07/schema#");
    CHECK(s["$id"] == "https://github.com/qsel-project/qsel/schemas/output/" + name);
    CHECK(!s.value("title", "").empty());
    CHECK(!s.value("description", "").empty());
    CHECK(s["type"] == "object");
    auto required = s.value("required", json::array());
    CHECK(std::find(required.begin(), required.end(), "schema_version") != required.end());
    CHECK(s["properties"]["schema_version"]["const"] == qsel::kOutputSchemaVersion);
    std::string text = qsel::test::read_text(schema_path(name));
    for (const char* internal : {"DESIGN.md", "doc 23", "doc 04"}) CHECK(text.find(internal) == std::string::npos);
  }
}

TEST_CASE("json_contracts: explain.schema.json's single-target branch is explain-format.schema.json", "[contract]") {
  json single = schema_doc("explain-format.schema.json");
  json branch = schema_doc("explain.schema.json")["definitions"]["format_on_target"];
  json props = single["properties"];
  props.erase("schema_version");
  json required = json::array();
  for (const auto& k : single["required"])
    if (k != "schema_version") required.push_back(k);
  CHECK(branch["properties"] == props);
  CHECK(branch["required"] == required);
}

// ---- generated outputs --------------------------------------------------------------------------

TEST_CASE("json_contracts: recommend", "[contract]") {
  for (const Args& q : {Args{"--gpu", "h100", "--model-size", "70b", "--all"}, Args{"--gpu", "rtx-3090", "--model", "llama-3.1-8b"},
                        Args{"--gpu", "mi300x", "--model-size", "8b", "--kv-cache", "fp8", "--objective", "speed"},
                        Args{"--gpu", "rtx-4090", "--model-size", "405b"}}) {
    Args a = q;
    a.insert(a.begin(), "recommend");
    checked(a, {0, 1});
  }
  Checkpoints c;
  auto doc = checked({"recommend", "--gpu", "rtx-4090", "--model", c.awq});
  CHECK(doc["model"].contains("checkpoint"));
}

TEST_CASE("json_contracts: explain, every topic kind", "[contract]") {
  Checkpoints c;
  std::vector<Args> topics = {
      {"nvfp4", "--on", "sm120"},   {"awq", "--on", "rtx-3090"},  {"gguf-q4-k-m", "--on", "h100"}, {"mxfp4", "--on", "mi355x"},
      {"nvfp4", "--on", "blackwell"}, {"nvfp4", "--on", "blackwell", "--engine", "trtllm"},
      {"nvfp4"}, {"gguf-q4-k-m"}, {"h100"}, {"sm90"}, {"machete"}, {"vllm"}, {"arc-llamacpp-agentic-stall"}, {"llama-3.1-70b"},
      {"bench-3bit-group-size-finer-ppl-delta"}, {"trtllm-quant-matrix"}, {"gguf-imatrix"}, {"decode-roofline"},
      {"kv4-key-bits-question"}, {"QS004"}, {"QS001"}, {c.awq}, {c.awq, "--on", "h100"}, {c.gguf}};
  for (int i = 1; i <= 7; ++i) topics.push_back({"rule-" + std::to_string(i)});
  std::set<std::string> kinds;
  for (auto t : topics) {
    t.insert(t.begin(), "explain");
    ojson doc = checked(t);
    kinds.insert(doc["kind"].get<std::string>() + (doc["kind"] == "format" && doc.contains("target") ? " on target" : ""));
    if (doc["kind"] == "lint-rule") CHECK(doc["rule"]["url"] == qsel::lint_doc_url(doc["topic"].get<std::string>()));
  }
  CHECK(kinds == std::set<std::string>{"format on target", "format-family", "format", "accelerator", "target", "kernel", "engine",
                                       "gotcha", "model", "benchmark", "matrix", "technique", "fact", "question", "rule", "lint-rule"});
}

TEST_CASE("json_contracts: explain nvfp4 --on blackwell follows the schema docs/commands/explain.md names", "[contract]") {
  std::string page = qsel::test::read_text(qsel::test::source_dir() + "/docs/commands/explain.md");
  std::string sentence = "`--format json` follows\n`schemas/output/";
  auto at = page.find(sentence);
  REQUIRE(at != std::string::npos);
  at += sentence.size();
  std::string named = page.substr(at, page.find('`', at) - at);
  CHECK(named == "explain.schema.json");
  auto r = run_cli({"explain", "nvfp4", "--on", "blackwell", "--format", "json"});
  REQUIRE(r.code == 0);
  json doc = json::parse(r.out);
  CHECK(doc["kind"] == "format-family");
  CHECK(contract_violations(named, doc).empty());
  // the single-target schema is not the family's: it names explain.schema.json for that
  CHECK_FALSE(contract_violations("explain-format.schema.json", doc).empty());
  for (const auto& per : doc["per_target"]) {
    json single = per;
    single["schema_version"] = qsel::kOutputSchemaVersion;
    CHECK(contract_violations("explain-format.schema.json", single).empty());
  }
}

TEST_CASE("json_contracts: list", "[contract]") {
  CHECK(checked({"list"}).contains("kinds"));
  for (const Args& q : {Args{"formats"}, Args{"accelerators", "--vendor", "amd"}, Args{"gotchas", "--engine", "vllm", "--severity", "blocker"},
                        Args{"kernels", "--regime", "w4a16"}, Args{"models"}, Args{"questions"}, Args{"matrices"}}) {
    Args a = q;
    a.insert(a.begin(), "list");
    CHECK(checked(a).contains("records"));
  }
}

TEST_CASE("json_contracts: show", "[contract]") {
  for (const char* id : {"h100", "H100 SXM", "blackwell", "nvfp4", "vllm", "machete", "trtllm-quant-matrix", "llama-3.1-70b",
                         "arc-llamacpp-agentic-stall", "bench-3bit-group-size-finer-ppl-delta"})
    checked({"show", id});
}

TEST_CASE("json_contracts: graph", "[contract]") {
  CHECK(checked({"graph"})["root"].is_null());
  for (const Args& q : {Args{"--around", "nvfp4"}, Args{"--around", "h100", "--depth", "2"}, Args{"--around", "gguf-tq1-0", "--depth", "0"}}) {
    Args a = q;
    a.insert(a.begin(), "graph");
    CHECK(checked(a)["root"].is_string());
  }
}

TEST_CASE("json_contracts: matrix, every shape", "[contract]") {
  CHECK(checked({"matrix"}).contains("matrices"));
  CHECK(checked({"matrix", "--engine", "vllm"}).contains("rows"));
  CHECK(checked({"matrix", "--engine", "trtllm", "--gpu", "h100"}).contains("gpu"));
  CHECK(checked({"matrix", "--engine", "sglang"}).contains("rows"));
  CHECK(checked({"matrix", "--gpu", "h100"}).contains("grids"));
  CHECK(checked({"matrix", "--derived"})["derived"] == true);
  CHECK(checked({"matrix", "--derived", "--vendor", "amd"})["vendor"] == "amd");
}

TEST_CASE("json_contracts: inspect", "[contract]") {
  Checkpoints c;
  CHECK(checked({"inspect", c.awq})["format"]["id"] == "awq");
  CHECK(checked({"inspect", c.gguf})["kind"] == "gguf");
  CHECK(checked({"inspect", c.awq + "/config.json"})["kind"] == "config");
  CHECK(checked({"inspect", c.awq, "--tensors"}).contains("tensor_list"));
}

TEST_CASE("json_contracts: verify", "[contract]") {
  checked({"verify", "--log", fixture_log("vllm-marlin-ampere-rtx3090.log"), "--gpu", "rtx-3090", "--quant", "gptq"}, {0, 1});
  checked({"verify", "--log", fixture_log("vllm-marlin-ampere-rtx3090.log"), "--gpu", "h100", "--quant", "gptq"}, {0, 1});
  checked({"verify", "--log", fixture_log("llamacpp-cuda-init-rtx4070.log")}, {0, 1, 3});
  checked({"verify", "--log", fixture_log("vllm-nvfp4-sm120-b12x-moe.log"), "--quant", "nvfp4"}, {0, 1, 3});
  checked({"verify", "--log", fixture_log("sglang-awq-deepseek-r1.log")}, {0, 1, 3});
}

TEST_CASE("json_contracts: lint findings carry null positions, fixable and the doc url", "[contract]") {
  ojson doc = checked({"lint", seed_state()}, {1});
  REQUIRE(doc["findings"].size() == 19);  // 15, and QS041 on its llama-2-7b and QS043 on its three rows
  std::map<std::string, bool> fixable;
  for (const auto& f : doc["findings"]) {
    CHECK(f["url"] == qsel::lint_doc_url(f["code"].get<std::string>()));
    CHECK(f["url"] == "https://github.com/qsel-project/qsel/blob/main/docs/lint/" + f["code"].get<std::string>() + ".md");
    fixable[f["code"]] = f["fixable"].get<bool>();
  }
  CHECK(fixable == std::map<std::string, bool>{{"QS003", false}, {"QS004", true}, {"QS005", false}, {"QS041", false}, {"QS043", false}});
  checked({"lint", seed_state(), "--select", "QS004"}, {1});
  checked({"lint", seed_state(), "--select", "QS005"}, {0});
  checked({"lint", qsel::test::source_dir() + "/tests/fixtures/rules-mini"}, {0, 1});

  // a finding with no position (a whole file) has null line and column
  qsel::LintReport r;
  r.findings = {{"QS010", "file-too-large", qsel::Severity::Error, "data/formats/a.yaml", {}, "", "big", {}},
                {"QS004", "kquant-group-size", qsel::Severity::Error, "data/formats/b.yaml", {9, 20}, "b", "m",
                 qsel::Fix{{9, 20}, "256", "32"}}};
  json j = json::parse(qsel::lint_json(r).dump());
  CHECK(j["findings"][0]["line"].is_null());
  CHECK(j["findings"][0]["column"].is_null());
  CHECK(j["findings"][0]["fixable"] == false);
  CHECK(j["findings"][1]["line"] == 9);
  CHECK(j["findings"][1]["column"] == 20);
  CHECK(j["findings"][1]["fixable"] == true);
  CHECK(contract_violations("lint.schema.json", j).empty());
}

TEST_CASE("json_contracts: lint --list-rules", "[contract]") {
  ojson doc = checked({"lint", "--list-rules"});
  REQUIRE(!doc["rules"].empty());
  for (const auto& r : doc["rules"]) CHECK(r["url"] == qsel::lint_doc_url(r["code"].get<std::string>()));
}

TEST_CASE("json_contracts: SARIF rules link their docs and results carry a line-independent fingerprint", "[contract][sarif]") {
  auto finding = [](int line, const std::string& message) {
    return qsel::Finding{"QS004", "kquant-group-size", qsel::Severity::Error, "/repo/data/formats/q.yaml", {line, 20}, "gguf-q4-k-m", message, {}};
  };
  auto fingerprint = [](const qsel::LintReport& r, std::size_t i) {
    return json::parse(qsel::lint_sarif(r, "/repo", "0.1.0").dump())["runs"][0]["results"][i]["partialFingerprints"]["qselFindingHash/v1"];
  };
  qsel::LintReport a, moved, other, twice;
  a.findings = {finding(9, "m")};
  moved.findings = {finding(42, "m")};
  other.findings = {finding(9, "another message")};
  twice.findings = {finding(9, "m"), finding(12, "m")};
  CHECK(fingerprint(a, 0).is_string());
  CHECK(fingerprint(a, 0).get<std::string>().size() == 16);
  CHECK(fingerprint(a, 0) == fingerprint(moved, 0));
  CHECK(fingerprint(a, 0) != fingerprint(other, 0));
  CHECK(fingerprint(twice, 0) == fingerprint(a, 0));
  CHECK(fingerprint(twice, 1) != fingerprint(twice, 0));
  // the same file named from another folder: the path relative to the root is what counts
  qsel::LintReport elsewhere;
  elsewhere.findings = {finding(9, "m")};
  elsewhere.findings[0].file = "/other/data/formats/q.yaml";
  CHECK(json::parse(qsel::lint_sarif(elsewhere, "/other", "0.1.0").dump())["runs"][0]["results"][0]["partialFingerprints"] ==
        json::parse(qsel::lint_sarif(a, "/repo", "0.1.0").dump())["runs"][0]["results"][0]["partialFingerprints"]);

  json log = json::parse(qsel::lint_sarif(a, "/repo", "0.1.0").dump());
  const json& rules = log["runs"][0]["tool"]["driver"]["rules"];
  for (const auto& r : rules) {
    CHECK(r["helpUri"] == qsel::lint_doc_url(r["id"].get<std::string>()));
    for (const char* k : {"shortDescription", "fullDescription", "help"}) CHECK(!r[k]["text"].get<std::string>().empty());
    CHECK(r["defaultConfiguration"]["level"].is_string());
  }
  const json& res = log["runs"][0]["results"][0];
  CHECK(rules[res["ruleIndex"].get<std::size_t>()]["id"] == res["ruleId"]);
}

// ---- negative: each schema rejects a document missing a key it requires --------------------------

TEST_CASE("json_contracts: each schema rejects a document missing a required key", "[contract]") {
  Checkpoints c;
  struct Case {
    Args args;
    std::vector<std::string> keys;  // each removed in turn; the top-level required keys are removed too
  };
  std::vector<Case> cases = {
      {{"recommend", "--gpu", "h100", "--model-size", "8b"}, {}},
      {{"explain", "nvfp4", "--on", "sm120"}, {"verdict", "matrix_cells"}},
      {{"explain", "nvfp4", "--on", "blackwell"}, {"per_target", "targets"}},
      {{"explain", "nvfp4"}, {"native_support", "status"}},
      {{"explain", "h100"}, {"target", "file"}},
      {{"explain", "rule-2"}, {"doc", "records"}},
      {{"explain", "QS004"}, {"rule"}},
      {{"list"}, {"kinds"}},
      {{"list", "formats"}, {"records", "columns"}},
      {{"show", "h100"}, {}},
      {{"graph", "--around", "nvfp4"}, {}},
      {{"matrix"}, {"count"}},
      {{"matrix", "--engine", "vllm"}, {"rows", "columns"}},
      {{"matrix", "--gpu", "h100"}, {}},
      {{"matrix", "--derived"}, {"parts", "formats"}},
      {{"inspect", c.gguf}, {}},
      {{"verify", "--log", fixture_log("vllm-marlin-ampere-rtx3090.log"), "--gpu", "rtx-3090", "--quant", "gptq"}, {}},
      {{"lint", seed_state()}, {}},
      {{"lint", "--list-rules"}, {}},
  };
  std::set<std::string> rejected_by;
  for (auto& cs : cases) {
    Args args = cs.args;
    args.insert(args.end(), {"--format", "json"});
    auto r = run_cli(args);
    json doc = json::parse(r.out);
    std::string schema = schema_for(args);
    INFO(schema << " on qsel " << args[0] << " " << args[1]);
    REQUIRE(contract_violations(schema, doc).empty());
    const json required = schema_doc(schema)["required"];  // a copy: the temporary document dies here
    for (const auto& k : required) cs.keys.push_back(k.get<std::string>());
    for (const auto& key : cs.keys) {
      INFO("without \"" << key << "\"");
      REQUIRE(doc.contains(key));
      json broken = doc;
      broken.erase(key);
      CHECK_FALSE(contract_violations(schema, broken).empty());
    }
    json retyped = doc;
    retyped["schema_version"] = 2;
    CHECK_FALSE(contract_violations(schema, retyped).empty());
    rejected_by.insert(schema);
  }
  // explain-format.schema.json: the single-target document
  auto r = run_cli({"explain", "awq", "--on", "rtx-3090", "--format", "json"});
  json doc = json::parse(r.out);
  REQUIRE(contract_violations("explain-format.schema.json", doc).empty());
  const json single_required = schema_doc("explain-format.schema.json")["required"];
  for (const auto& k : single_required) {
    json broken = doc;
    broken.erase(k.get<std::string>());
    CHECK_FALSE(contract_violations("explain-format.schema.json", broken).empty());
  }
  rejected_by.insert("explain-format.schema.json");
  CHECK(rejected_by == std::set<std::string>(schema_files().begin(), schema_files().end()));
}

// ---- the docs --------------------------------------------------------------------------------

namespace {

struct DocJson {
  std::string where;   // "docs/commands/explain.md:62"
  std::string schema;  // empty when nothing says which
  std::string text;
};

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

// Shell-like words, as docs_examples_test reads a `$ qsel …` line.
Args words(const std::string& command) {
  Args out;
  std::string cur;
  char quote = 0;
  bool any = false;
  for (char ch : command) {
    if (quote) {
      if (ch == quote) quote = 0;
      else cur += ch;
    } else if (ch == '\'' || ch == '"') {
      quote = ch;
      any = true;
    } else if (ch == ' ') {
      if (any || !cur.empty()) out.push_back(cur);
      cur.clear();
      any = false;
    } else {
      cur += ch;
    }
  }
  if (any || !cur.empty()) out.push_back(cur);
  return out;
}

// "<!-- schema: lint.schema.json -->" on one of the three lines above a fence.
std::string marked_schema(const std::vector<std::string>& lines, std::size_t fence) {
  const std::string tag = "<!-- schema: ";
  for (std::size_t back = 1; back <= 3 && back <= fence; ++back) {
    const std::string& l = lines[fence - back];
    auto at = l.find(tag);
    if (at != std::string::npos) return l.substr(at + tag.size(), l.find(" -->") - at - tag.size());
  }
  return "";
}

// Every JSON document a page shows as qsel output: the captured output of each
// `$ qsel … --format json` example in a fenced block, and every ```json block.
std::vector<DocJson> json_in(const fs::path& file) {
  std::vector<DocJson> out;
  auto lines = lines_of(qsel::test::read_text(file));
  std::string rel = fs::path(file).lexically_relative(qsel::test::source_dir()).generic_string();
  bool fenced = false, json_fence = false, capturing = false;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string& l = lines[i];
    if (l.rfind("```", 0) == 0) {
      if (!fenced && l.rfind("```json", 0) == 0) {
        json_fence = true;
        out.push_back({rel + ":" + std::to_string(i + 1), marked_schema(lines, i), ""});
      }
      fenced = !fenced;
      if (!fenced) json_fence = capturing = false;
      continue;
    }
    if (!fenced) continue;
    if (l.rfind("$ qsel ", 0) == 0) {
      Args w = words(l.substr(7));
      capturing = asks_for_json(w);
      if (json_fence) {  // a ```json block that shows its command: the command names the schema
        if (out.back().schema.empty()) out.back().schema = schema_for(w);
      } else if (capturing) {
        out.push_back({rel + ":" + std::to_string(i + 1), schema_for(w), ""});
      }
      continue;
    }
    if (json_fence || capturing) out.back().text += l + "\n";
  }
  return out;
}

std::vector<fs::path> doc_files() {
  std::vector<fs::path> out;
  fs::path root = qsel::test::source_dir();
  for (const auto& e : fs::directory_iterator(root / "docs" / "commands"))
    if (e.path().extension() == ".md") out.push_back(e.path());
  for (const char* f : {"docs/ci.md", "docs/json.md", "README.md"})
    if (fs::exists(root / f)) out.push_back(root / f);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("json_contracts: the JSON-example reader finds commands, ```json blocks and their schema", "[contract]") {
  qsel::test::TempDir d;
  auto page = d.write("p.md",
                      "```\n$ qsel --format json list gotchas\n{\"a\": 1}\n```\n"
                      "```\n$ qsel list\ntext\n```\n"
                      "<!-- schema: lint.schema.json -->\n```json\n{\"b\": 2}\n```\n"
                      "```json\n$ qsel lint --list-rules --format json\n{\"c\": 3}\n```\n"
                      "```json\n{}\n```\n");
  auto found = json_in(page);
  REQUIRE(found.size() == 4);
  CHECK(found[0].schema == "list.schema.json");
  CHECK(json::parse(found[0].text) == json{{"a", 1}});
  CHECK(found[1].schema == "lint.schema.json");
  CHECK(json::parse(found[1].text) == json{{"b", 2}});
  CHECK(found[2].schema == "lint-rules.schema.json");
  CHECK(json::parse(found[2].text) == json{{"c", 3}});
  CHECK(found[3].schema.empty());
}

TEST_CASE("json_contracts: every JSON example in the docs validates against its schema", "[contract][docs]") {
  std::size_t validated = 0;
  std::set<std::string> schemas_seen;
  for (const auto& file : doc_files()) {
    std::string page = qsel::test::read_text(file);
    for (const auto& ex : json_in(file)) {
      INFO(ex.where);
      REQUIRE(!ex.schema.empty());  // a JSON block must say which output it is (its command or a schema marker)
      json doc;
      REQUIRE_NOTHROW(doc = json::parse(ex.text));
      CHECK(doc.value("schema_version", 0) == qsel::kOutputSchemaVersion);
      for (const auto& v : contract_violations(ex.schema, doc)) FAIL_CHECK(ex.schema << ": " << v);
      // a command page names the schema its JSON examples follow
      if (file.parent_path().filename() == "commands") CHECK(page.find("schemas/output/" + ex.schema) != std::string::npos);
      schemas_seen.insert(ex.schema);
      ++validated;
    }
  }
  CHECK(validated >= 5);
  CHECK(schemas_seen.size() >= 4);
}

TEST_CASE("json_contracts: docs/json.md lists every output schema", "[contract][docs]") {
  std::string page = qsel::test::read_text(qsel::test::source_dir() + "/docs/json.md");
  for (const auto& name : schema_files()) CHECK(page.find("schemas/output/" + name) != std::string::npos);
  CHECK(page.find(std::string(qsel::kLintDocBaseUrl)) != std::string::npos);
}
