// libFuzzer harness: every engine log pattern in the corpus against a fuzzed
// log line (what `qsel verify` does to each line of a stranger's log), plus
// the pattern matcher with a fuzzed pattern.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "qsel/core/pattern.h"
#include "qsel/graph/graph.h"
#include "qsel/loader/corpus_blob.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::vector<std::string> patterns = [] {
    std::vector<std::string> out;
    qsel::Graph g(qsel::embedded().corpus);
    for (const qsel::Record* e : g.of_kind(qsel::Kind::Engine)) {
      for (const auto& k : e->data.value("kernel_selection", nlohmann::json::array()))
        if (k.contains("log"))
          for (const auto& p : k["log"]["patterns"]) out.push_back(p.get<std::string>());
      if (e->data.contains("log"))
        for (const char* part : {"detect", "facts", "notices"})
          for (const auto& p : e->data["log"].value(part, nlohmann::json::array()))
            out.push_back(p.is_string() ? p.get<std::string>() : p.value("pattern", std::string("x")));
    }
    return out;
  }();
  std::string_view line(reinterpret_cast<const char*>(data), size);
  for (const auto& p : patterns) qsel::match_pattern(p, line);
  std::size_t cut = size ? data[0] % (size + 1) : 0;
  qsel::pattern_problem(line.substr(0, cut));
  qsel::match_pattern(line.substr(0, cut), line.substr(cut));
  return 0;
}
