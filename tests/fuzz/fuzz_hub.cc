// libFuzzer harness: what a stranger's network hands the Hub client. The first
// byte picks the parser: 0 a model name (parse_hub_ref), 1 the Hub's model info
// and file list (hub_repo_from_listing), then everything read from a list: the
// lookup of each file, the GGUF tags, stems and the files a tag names. Usage
// errors are the expected outcome of bad input; anything else is a bug.
#include <cstddef>
#include <cstdint>
#include <string>

#include "qsel/core/errors.h"
#include "qsel/model/hub.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
  try {
    if (data[0] % 2 == 0) {
      if (auto r = qsel::parse_hub_ref(text, "https://huggingface.co")) {
        (void)r->display();
        if (!r->password.empty() && r->display().find(":" + r->password + "@") != std::string::npos) __builtin_trap();  // shown with its secret
      }
    } else {
      qsel::HubRepo r = qsel::hub_repo_from_listing(text, "org/name", "main", "listing");
      std::vector<std::string> paths;
      for (const auto& f : r.files) {
        if (r.find(f.path) != &f) __builtin_trap();  // sorted, each once: find() is a binary search
        paths.push_back(f.path);
      }
      (void)qsel::gguf_tags(r);
      (void)qsel::gguf_stems(paths);
      (void)qsel::gguf_files_for_tag(r, "Q4_K_M");
    }
  } catch (const qsel::UsageError&) {
  }
  return 0;
}
