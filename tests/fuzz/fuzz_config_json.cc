// libFuzzer harness: a Hugging Face config.json read into a model. Usage errors
// are the expected outcome of bad input; anything else is a bug.
#include <cstddef>
#include <cstdint>
#include <string>

#include "qsel/core/errors.h"
#include "qsel/model/model_spec.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  try {
    qsel::model_from_config_text(text, "config.json");
  } catch (const qsel::UsageError&) {
  }
  return 0;
}
