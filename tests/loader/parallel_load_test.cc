// load_corpus loads files on several threads and merges them in file order; the
// schemas validate with one reused validator per thread. Neither may show.
#include <catch2/catch.hpp>

#include <algorithm>
#include <thread>

#include "qsel/core/text.h"
#include "qsel/loader/loader.h"
#include "support/fixtures.h"

using namespace qsel;
using qsel::test::minimal_record;
namespace fs = std::filesystem;

namespace {

std::string describe(const Problem& p) {
  return p.code + " " + p.file + ":" + std::to_string(p.mark.line) + ":" + std::to_string(p.mark.column) + " [" + p.record +
         "] " + p.message + (p.severity == Severity::Error ? " (error)" : " (warning)");
}

std::vector<std::string> described(const Problems& ps) {
  std::vector<std::string> out;
  for (const auto& p : ps) out.push_back(describe(p));
  return out;
}

void require_same(const Corpus& a, const Corpus& b) {
  CHECK(a.files == b.files);
  CHECK(a.digest == b.digest);
  CHECK(described(a.problems) == described(b.problems));
  REQUIRE(a.records.size() == b.records.size());
  for (std::size_t i = 0; i < a.records.size(); ++i) {
    const Record &x = a.records[i], &y = b.records[i];
    CHECK(x.id == y.id);
    CHECK(x.kind == y.kind);
    CHECK(x.file == y.file);
    CHECK(x.aliases == y.aliases);
    CHECK(x.data == y.data);
    CHECK(x.marks == y.marks);
  }
}

// The digest the loader has always given: sha256 over "<plural>\n<file name>\n<size>\n<bytes>"
// of every record file, in path order, computed here the slow, obvious way.
std::string expected_digest(const fs::path& corpus) {
  std::vector<fs::path> files;
  for (const auto& k : all_kinds()) {
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(corpus / k.plural, ec))
      if (e.path().extension() == ".yaml" || e.path().extension() == ".yml") files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  // Each file is hashed on its own (kind folder, name, size, bytes); the digest
  // is the hash of those hashes in path order.
  std::string all;
  for (const auto& f : files) {
    std::string text = qsel::test::read_text(f);
    all += sha256_hex(f.parent_path().filename().string() + "\n" + f.filename().string() + "\n" +
                      std::to_string(text.size()) + "\n" + text);
  }
  return sha256_hex(all);
}

// A corpus where nearly every file fails its schema, many of them on `pattern`
// keywords (the regexes the validators cache), plus YAML errors and duplicates.
void write_bad_corpus(const qsel::test::TempDir& dir) {
  for (int i = 0; i < 60; ++i) {
    std::string n = std::to_string(i);
    dir.write("formats/f" + n + ".yaml", minimal_record("format", "f" + n, "related: [Bad_Id" + n + ", ok-" + n + "]\n") +
                                             "    url: ftp://example.com/" + n + "\n");
    dir.write("engines/e" + n + ".yaml", minimal_record("engine", "e" + n, i % 2 ? "colour: red\n" : "weight_bits: four\n"));
    dir.write("benchmarks/b" + n + ".yaml", minimal_record("benchmark", "b" + n, "value: [1, 2]\n"));
    dir.write("targets/t" + n + ".yaml", minimal_record("target", i % 3 ? "t" + n : "T_" + n, "aliases: [x" + n + "]\n"));
    dir.write("kernels/k" + n + ".yaml", i % 5 ? minimal_record("kernel", "k" + n) : "id: k" + n + "\nname: [unclosed\n");
  }
  dir.write("formats/dup.yaml", minimal_record("format", "good"));
  dir.write("formats/good.yaml", minimal_record("format", "good"));
}

}  // namespace

TEST_CASE("parallel load: the real corpus loads the same on 1, 2 and 5 threads", "[whole-corpus][loader]") {
  fs::path data = fs::path(qsel::test::source_dir()) / "data";
  Corpus one = load_corpus(data, qsel::test::schemas(), {}, 1);
  REQUIRE(one.records.size() > 100);
  CHECK(one.digest == expected_digest(data));
  for (unsigned threads : {2u, 5u}) {
    INFO(threads << " threads");
    require_same(one, load_corpus(data, qsel::test::schemas(), {}, threads));
  }
  require_same(one, load_corpus(data, qsel::test::schemas()));  // one thread per core
}

TEST_CASE("parallel load: a corpus full of errors gives the same problems in the same order on any thread count",
          "[loader]") {
  qsel::test::TempDir dir;
  write_bad_corpus(dir);
  Corpus one = load_corpus(dir.path(), qsel::test::schemas(), {}, 1);
  CHECK(one.digest == expected_digest(dir.path()));
  CHECK(one.files == 302);
  CHECK(one.problems.size() > 250);
  CHECK(std::any_of(one.problems.begin(), one.problems.end(),
                    [](const Problem& p) { return p.message.find("/sources/0/url") == 0; }));
  CHECK(std::any_of(one.problems.begin(), one.problems.end(), [](const Problem& p) { return p.code == "QS002"; }));
  CHECK(std::any_of(one.problems.begin(), one.problems.end(), [](const Problem& p) { return p.code == "QS006"; }));
  for (unsigned threads : {2u, 3u, 8u}) {
    INFO(threads << " threads");
    require_same(one, load_corpus(dir.path(), qsel::test::schemas(), {}, threads));
  }
}

TEST_CASE("parallel load: a validator reused across records explains each one as a fresh validator does", "[loader]") {
  qsel::test::TempDir dir;
  write_bad_corpus(dir);
  std::vector<std::pair<std::string, std::string>> docs;  // kind, text
  for (const auto& k : all_kinds()) {
    std::error_code ec;
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(dir.path() / k.plural, ec)) files.push_back(e.path());
    std::sort(files.begin(), files.end());
    for (const auto& f : files) docs.emplace_back(k.name, qsel::test::read_text(f));
  }
  REQUIRE(docs.size() > 250);
  const SchemaSet& schemas = qsel::test::schemas();
  auto validate = [&](const std::pair<std::string, std::string>& d) {
    YamlDocument y = read_yaml(d.second, "f.yaml");
    return y.ok() ? described(schemas.validate(d.first, y.value, y.marks, "f.yaml")) : std::vector<std::string>{"yaml"};
  };
  std::size_t failing = 0;
  for (int round = 0; round < 2; ++round)  // the second round runs entirely on warm caches
    for (const auto& d : docs) {
      std::vector<std::string> reused = validate(d), fresh;
      std::thread([&] { fresh = validate(d); }).join();  // a new thread: a validator that has never run
      CHECK(reused == fresh);
      failing += !reused.empty() && reused[0] != "yaml";
    }
  CHECK(failing > 300);
}
