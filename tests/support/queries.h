// Queries on the embedded corpus as recommend builds them from --gpu, --model and --engine,
// for the rules' tests (one helper instead of one per test file).
#pragma once
#include <string>
#include <vector>

#include "qsel/rules/deliberation.h"

namespace qsel::test {

// --gpu GPU [--model MODEL] [--engine E ...]: the accelerator and its target, the model record by
// id ("" leaves the model unset), the engines asked for; every other field at recommend's default.
Query corpus_query(const std::string& gpu, const std::string& model = "", std::vector<std::string> engines = {});
// The same query, deliberated.
Deliberation ask_corpus(const std::string& gpu, const std::string& model, std::vector<std::string> engines = {});

}  // namespace qsel::test
