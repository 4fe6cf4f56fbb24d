// QS015: a GGUF or software-dequant weight format lists native_support.
#include <fmt/format.h>

#include "checks.h"
#include "util.h"

namespace qsel::lint_checks {
namespace {

constexpr RuleInfo kInfo{
    "QS015", "native-software-dequant", Severity::Error, false,
    "A GGUF or software-dequant weight format lists accelerators in native_support.",
    {R"(A format record whose `scheme` is `gguf` or whose `hardware_path` is `software-dequant`, and whose `native_support` is not empty. KV-cache formats (`regime: kv-cache`) are exempt: their native list records which parts convert the element type in hardware (FP8 on Hopper and Ada), not a weight path. Formats whose native list means "the toolkit's own kernels run here" say so with `hardware_path: toolkit-kernel` and are not flagged.)",
     R"(The seeds call `native_support` on GGUF "the single most commonly botched field". No accelerator has a GGUF, AWQ, GPTQ, EXL2 or NF4 path in silicon: the weights are dequantized to 16-bit inside a kernel, and the speed comes from fewer bytes and kernel engineering (Marlin, Machete, MMQ), never from the part. A native entry makes the advisor promise a hardware speedup that does not exist.)",
     R"(# formats/gguf-q4-0.yaml
id: gguf-q4-0
scheme: gguf
hardware_path: software-dequant
native_support:
- h100-sxm)",
     R"(formats/gguf-q4-0.yaml:6:3: error: native_support lists 1 accelerator, but GGUF weights are dequantized in software on every part; list them in emulated_support [QS015 native-software-dequant])",
     R"(Move the accelerators to `emulated_support` and leave `native_support: []`. If the list is a census of where a toolkit's own kernels run (an ONNX Runtime or bitsandbytes build, MLX on Metal), set `hardware_path: toolkit-kernel` so readers and the advisor know it is not a silicon statement.)"}};

std::string reason(const Record& r) {
  if (r.str("scheme") == "gguf") return "GGUF weights are dequantized in software on every part";
  return "a software-dequant format has no silicon path";
}

void check_record(CheckContext& c, const Record& r) {
  bool dequant = r.str("scheme") == "gguf" || r.str("hardware_path") == "software-dequant";
  const json& native = field(r, "native_support");
  if (!dequant || r.str("regime") == "kv-cache" || !native.is_array() || native.empty()) return;
  c.report(r, "/native_support/0",
           fmt::format("native_support lists {} accelerator{}, but {}; list them in emulated_support", native.size(),
                       native.size() == 1 ? "" : "s", reason(r)));
}

void each(CheckContext& c, const Record& r) {
  if (r.kind == Kind::Format) check_record(c, r);
}

}  // namespace

Check native_software_dequant() { return {.info = &kInfo, .each = each}; }

}  // namespace qsel::lint_checks
