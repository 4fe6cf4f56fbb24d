#include "qsel/graph/reference_fields.h"

#include <sstream>

namespace qsel {
using nlohmann::json;
namespace {

const std::vector<Kind> kAny{};

std::vector<ReferenceField> selector_fields(Kind from, const std::string& base, const std::string& label) {
  return {{from, base + "/targets/*", label, {Kind::Target}},
          {from, base + "/not_targets/*", label + "-excluded", {Kind::Target}}};
}

std::vector<ReferenceField> build() {
  using K = Kind;
  std::vector<ReferenceField> t = {
      {K::Format, "/native_support/*", "native-on", {K::Accelerator}},
      {K::Format, "/emulated_support/*", "emulated-on", {K::Accelerator}},
      {K::Format, "/quality_delta/*", "quality-evidence", {K::Benchmark}},
      {K::Format, "/bpw/measured/*/model", "bpw-measured-on", {K::Model}},
      {K::Format, "/related/*", "related", kAny},
      {K::Format, "/preferred_over/*/format", "preferred-over", {K::Format}},
      {K::Format, "/preferred_over/*/evidence/*", "evidence", kAny},
      {K::Accelerator, "/target", "target", {K::Target}},
      {K::Accelerator, "/census/native_formats/*", "census-native", {K::Format}},
      {K::Accelerator, "/census/emulated_formats/*", "census-emulated", {K::Format}},
      {K::Target, "/compatible_with/*", "compatible-with", {K::Target}},
      {K::Kernel, "/formats/*", "consumes", {K::Format}},
      {K::Kernel, "/equivalent_to/*", "equivalent-to", {K::Kernel}},
      {K::Kernel, "/excludes/*/formats/*", "excludes-format", {K::Format}},
      {K::Kernel, "/excludes/*/targets/*", "excludes-target", {K::Target}},
      {K::Kernel, "/engines/*", "used-by", {K::Engine}},
      {K::Kernel, "/compiled_for/*", "compiled-for", {K::Target}},
      {K::Engine, "/formats/*", "serves", {K::Format}},
      {K::Engine, "/matrix", "matrix", {K::Matrix}},
      {K::Engine, "/kernel_selection/*/kernel", "selects", {K::Kernel}},
      {K::Engine, "/kernel_selection/*/formats/*", "selection-format", {K::Format}},
      {K::Engine, "/maturity/*/formats/*", "maturity-of", {K::Format}},
      {K::Model, "/releases/*/format", "released-as", {K::Format}},
      {K::Matrix, "/engine", "matrix-of", {K::Engine}},
      {K::Matrix, "/columns/*/formats/*", "column-format", {K::Format}},
      {K::Matrix, "/columns/*/kernel", "column-kernel", {K::Kernel}},
      {K::Matrix, "/columns/*/kernels/*", "column-kernel", {K::Kernel}},
      {K::Matrix, "/footnotes/*/excludes_formats/*", "footnote-excludes", {K::Format}},
      {K::Benchmark, "/format_id", "measures", {K::Format}},
      {K::Benchmark, "/model_id", "on-model", {K::Model}},
      {K::Benchmark, "/engine", "on-engine", {K::Engine}},
      {K::Benchmark, "/kernel", "on-kernel", {K::Kernel}},
      {K::Benchmark, "/accelerator", "on-accelerator", {K::Accelerator}},
      {K::Benchmark, "/series/*/accelerator", "on-accelerator", {K::Accelerator}},
      {K::Benchmark, "/baseline/benchmark", "baseline", {K::Benchmark}},
      {K::Gotcha, "/applies/formats/*", "applies-to-format", {K::Format}},
      {K::Gotcha, "/applies/engines/*", "applies-to-engine", {K::Engine}},
      {K::Gotcha, "/applies/kernels/*", "applies-to-kernel", {K::Kernel}},
      {K::Gotcha, "/applies/accelerators/*", "applies-to-accelerator", {K::Accelerator}},
      {K::Gotcha, "/applies/models/*", "applies-to-model", {K::Model}},
      {K::Gotcha, "/evidence/*", "evidence", kAny},
  };
  auto add = [&t](std::vector<ReferenceField> more) { t.insert(t.end(), more.begin(), more.end()); };
  add(selector_fields(K::Kernel, "/runs_on", "runs-on"));
  add(selector_fields(K::Engine, "/runs_on", "runs-on"));
  add(selector_fields(K::Engine, "/kernel_selection/*/when", "selection-target"));
  add(selector_fields(K::Engine, "/maturity/*/when", "maturity-target"));
  add(selector_fields(K::Engine, "/supported_platforms/*/when", "platform-target"));
  add(selector_fields(K::Kernel, "/backends/*/serves", "backend-serves"));
  add(selector_fields(K::Matrix, "/rows/*/match", "row-target"));
  add(selector_fields(K::Matrix, "/uncovered/*/match", "uncovered-target"));
  add(selector_fields(K::Gotcha, "/applies/targets", "applies-to-target"));
  for (K k : {K::Technique, K::Fact, K::Question}) {
    add({{k, "/applies/formats/*", "applies-to-format", {K::Format}},
         {k, "/applies/engines/*", "applies-to-engine", {K::Engine}},
         {k, "/applies/kernels/*", "applies-to-kernel", {K::Kernel}},
         {k, "/applies/accelerators/*", "applies-to-accelerator", {K::Accelerator}},
         {k, "/evidence/*", "evidence", kAny},
         {k, "/related/*", "related", kAny}});
    add(selector_fields(k, "/applies/targets", "applies-to-target"));
  }
  return t;
}

std::vector<std::string> split(const std::string& pattern) {
  std::vector<std::string> parts;
  std::stringstream ss(pattern.substr(1));
  for (std::string p; std::getline(ss, p, '/');) parts.push_back(p);
  return parts;
}

// `ptr` is one buffer for the whole walk: each step appends its token and cuts it off again.
void walk(const json& node, const ReferenceField& f, std::size_t i, std::string& ptr, std::vector<FoundReference>& out) {
  if (i == f.parts.size()) {
    if (node.is_string()) out.push_back({&f, ptr, node.get<std::string>()});
    return;
  }
  const std::size_t length = ptr.size();
  if (f.parts[i] == "*") {
    if (node.is_array()) {
      for (std::size_t k = 0; k < node.size(); ++k) {
        append_token(ptr, std::to_string(k));
        walk(node[k], f, i + 1, ptr, out);
        ptr.resize(length);
      }
    } else if (node.is_object()) {
      for (const auto& [key, v] : node.items()) {
        append_token(ptr, key);
        walk(v, f, i + 1, ptr, out);
        ptr.resize(length);
      }
    }
    return;
  }
  if (!node.is_object()) return;
  auto it = node.find(f.parts[i]);
  if (it == node.end()) return;
  append_token(ptr, f.parts[i]);
  walk(*it, f, i + 1, ptr, out);
  ptr.resize(length);
}

// The fields each kind's records hold, in table order.
const std::vector<std::vector<const ReferenceField*>>& fields_by_kind() {
  static const auto table = [] {
    std::vector<std::vector<const ReferenceField*>> t(all_kinds().size());
    for (const auto& f : reference_fields()) t[static_cast<std::size_t>(f.from)].push_back(&f);
    return t;
  }();
  return table;
}

}  // namespace

const std::vector<ReferenceField>& reference_fields() {
  static const std::vector<ReferenceField> table = [] {
    std::vector<ReferenceField> t = build();
    for (auto& f : t) f.parts = split(f.pattern);
    return t;
  }();
  return table;
}

std::vector<FoundReference> references_of(const Record& r) {
  std::vector<FoundReference> out;
  std::string ptr;
  for (const ReferenceField* f : fields_by_kind()[static_cast<std::size_t>(r.kind)]) walk(r.data, *f, 0, ptr, out);
  return out;
}

}  // namespace qsel
