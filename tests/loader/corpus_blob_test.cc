#include <catch2/catch.hpp>

#include "qsel/loader/corpus_blob.h"
#include "support/fixtures.h"

using namespace qsel;

TEST_CASE("corpus_blob: the embedded corpus is exactly what data/ loads to (not stale)", "[whole-corpus][loader][corpus]") {
  Corpus fresh = load_corpus(qsel::test::source_dir() + "/data", qsel::test::schemas());
  REQUIRE(fresh.problems.empty());
  const Corpus& emb = embedded().corpus;
  CHECK(emb.digest == fresh.digest);
  REQUIRE(emb.records.size() == fresh.records.size());
  for (std::size_t i = 0; i < emb.records.size(); ++i) {
    INFO(fresh.records[i].file);
    CHECK(emb.records[i].id == fresh.records[i].id);
    CHECK(emb.records[i].data == fresh.records[i].data);
    CHECK(emb.records[i].marks == fresh.records[i].marks);
  }
}

TEST_CASE("corpus_blob: the embedded schemas are the files in schemas/", "[loader][corpus]") {
  CHECK(embedded().schemas == read_schema_dir(qsel::test::source_dir() + "/schemas"));
}

TEST_CASE("corpus_blob: encode then decode round-trips records, marks and digest", "[loader]") {
  qsel::test::TempDir dir;
  dir.write("formats/x.yaml", qsel::test::minimal_record("format", "x", "aliases: [X1]\n"));
  Corpus c = load_corpus(dir.path(), qsel::test::schemas());
  auto decoded = decode_corpus(encode_corpus(c, embedded().schemas));
  REQUIRE(decoded.corpus.records.size() == 1);
  const Record& r = decoded.corpus.records[0];
  CHECK(r.id == "x");
  CHECK(r.aliases == std::vector<std::string>{"X1"});
  CHECK(r.marks == c.records[0].marks);
  CHECK(decoded.corpus.digest == c.digest);
  CHECK(decoded.corpus.origin == "embedded");
}
