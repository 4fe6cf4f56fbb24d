// How to build the backend each candidate runs through, for an engine compiled per
// backend (engine `backends`: llama.cpp's CUDA, HIP, Vulkan, SYCL, Metal and CPU builds):
// the configure and build command with the target filled in, and the device name a build
// holding several backends selects it by. Launch commands are not made here (issue 39's
// launch planner owns them). Nothing here is an engine id.
#include <fmt/format.h>

#include "qsel/rules/rules.h"

namespace qsel {
using nlohmann::json;
namespace {

std::string replaced(std::string text, const std::string& key, const std::string& value) {
  for (std::size_t at = text.find(key); at != std::string::npos; at = text.find(key, at + value.size())) text.replace(at, key.size(), value);
  return text;
}

const json* backend_entry(const Record& engine, const std::string& id) {
  if (!engine.data.contains("backends")) return nullptr;
  for (const auto& b : engine.data.at("backends"))  // by reference: the pointer stays valid
    if (b.value("id", std::string()) == id) return &b;
  return nullptr;
}

void plan(const Deliberation& d, Candidate& c) {
  const json* b = backend_entry(*c.engine, c.backend);
  if (!b) return;
  BackendBuild& out = c.backend_build;
  out.name = b->value("name", c.backend);
  out.build = replaced(b->value("build", std::string()), "{target}", d.query.target->id);
  if (b->contains("device")) out.device = (*b)["device"].get<std::string>() + "0";
  out.note = b->value("note", std::string());
  out.off_platform = c.backend != d.query.target->str("platform");
}

}  // namespace

void backend_builds(Deliberation& d) {
  for (auto& c : d.candidates)
    if (c.engine) plan(d, c);
}

}  // namespace qsel
