// libFuzzer harness: one record file through the strict YAML reader and the
// schema of its kind (the first byte picks the kind). Any crash, sanitizer
// report, timeout or unbounded allocation is a bug; problems are expected.
#include <cstddef>
#include <cstdint>
#include <string>

#include "qsel/loader/corpus_blob.h"
#include "qsel/loader/loader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const qsel::SchemaSet schemas(qsel::embedded().schemas);
  if (size == 0) return 0;
  const auto& kinds = qsel::all_kinds();
  qsel::Kind kind = kinds[data[0] % kinds.size()].kind;
  std::string text(reinterpret_cast<const char*>(data + 1), size - 1);
  qsel::Problems problems;
  qsel::load_record(text, "fuzz.yaml", kind, schemas, problems);
  return 0;
}
