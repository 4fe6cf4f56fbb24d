// Build step: load data/ with the same loader and schemas as `qsel --data`, fail
// on any problem, and write the precompiled corpus blob the binary embeds.
#include <cstdio>
#include <filesystem>
#include <iterator>
#include <fstream>
#include <iostream>

#include "qsel/core/problem.h"
#include "qsel/loader/corpus_blob.h"
#include "qsel/loader/loader.h"

// The tool that writes the blob has none: the library's embedded() paths, which the
// linker may pull in with the code this tool uses, see an empty one.
std::string_view qsel::embedded_blob() { return {}; }

int main(int argc, char** argv) {
  if (argc != 5) {
    std::cerr << "usage: qsel-embed SCHEMA_DIR DATA_DIR RULE_DOCS_DIR OUT_BLOB\n";
    return 2;
  }
  try {
    auto schemas = qsel::read_schema_dir(argv[1]);
    qsel::SchemaSet set(schemas);
    qsel::Corpus corpus = qsel::load_corpus(argv[2], set);
    for (const auto& p : corpus.problems) std::cerr << qsel::located(p) << " [" << p.code << "]\n";
    if (!corpus.problems.empty()) {
      std::cerr << "qsel-embed: " << corpus.problems.size() << " problem(s) in " << argv[2]
                << "; the corpus must load cleanly to be embedded\n";
      return 1;
    }
    std::map<std::string, std::string> docs;
    for (const auto& e : std::filesystem::directory_iterator(argv[3]))
      if (e.path().extension() == ".md") {
        std::ifstream in(e.path());
        docs[e.path().stem().string()] = std::string(std::istreambuf_iterator<char>(in), {});
      }
    std::ofstream out(argv[4], std::ios::binary);
    std::string blob = qsel::encode_corpus(corpus, schemas, docs);
    out.write(blob.data(), static_cast<std::streamsize>(blob.size()));
    if (!out) {
      std::cerr << "qsel-embed: cannot write " << argv[4] << "\n";
      return 2;
    }
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "qsel-embed: " << e.what() << "\n";
    return 2;
  }
}
