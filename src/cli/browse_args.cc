#include "browse_args.h"

#include <algorithm>

#include <fmt/format.h>

#include "qsel/core/text.h"

namespace qsel {
namespace {

std::string family_note(const std::string& query, const Resolution& r) {
  std::vector<std::string> others;
  for (const Record* o : r.others) others.push_back(o->id);
  return fmt::format("\"{}\" → {}, the family default; also {}", query, r.record->id, fmt::join(others, ", "));
}

std::string note_of(const std::string& query, const Resolution& r) {
  if (r.how == Resolution::How::Family) return family_note(query, r);
  if (r.how == Resolution::How::Alias) return fmt::format("\"{}\" is an alias of {}", query, r.record->id);
  return "";
}

}  // namespace

GpuArg resolve_gpu(const Graph& g, const std::string& query, bool allow_target) {
  GpuArg arg;
  Resolution part = g.resolve(query, Kind::Accelerator);
  if (part) {
    arg.accelerator = part.record;
    arg.target = g.find(part.record->str("target"));
    if (arg.target && arg.target->kind != Kind::Target) arg.target = nullptr;
    arg.note = note_of(query, part);
    return arg;
  }
  Resolution target = g.resolve(query, Kind::Target);
  if (target && allow_target) {
    arg.target = target.record;
    arg.note = note_of(query, target);
    return arg;
  }
  if (target) {
    std::vector<std::string> parts;
    for (const Record* a : g.of_kind(Kind::Accelerator))
      if (a->str("target") == target.record->id) parts.push_back(a->id);
    throw UsageError(fmt::format("\"{}\" is a target, not a GPU; name a part{}", query,
                                 parts.empty() ? "" : fmt::format(" ({})", fmt::join(parts, ", "))));
  }
  throw_unknown("GPU", query, part);
}

const Record& resolve_engine(const Graph& g, const std::string& query) {
  Resolution r = g.resolve(query, Kind::Engine);
  if (!r) throw_unknown("engine", query, r);
  return *r.record;
}

std::vector<const Record*> matrices_of(const Graph& g, const Record& engine) {
  std::vector<const Record*> out;
  if (const Record* m = g.find(engine.str("matrix")); m && m->kind == Kind::Matrix) out.push_back(m);
  for (const Record* m : g.of_kind(Kind::Matrix))
    if (m->str("engine") == engine.id && std::find(out.begin(), out.end(), m) == out.end()) out.push_back(m);
  return out;
}

std::vector<std::string> schema_enum(Context& ctx, const std::string& kind, const std::string& pointer) {
  const auto& schemas = ctx.schemas();
  auto it = schemas.find(kind);
  nlohmann::json::json_pointer p(pointer);
  if (it == schemas.end() || !it->second.contains(p)) return {};
  return it->second.at(p).get<std::vector<std::string>>();
}

void require_one_of(const std::string& value, const std::vector<std::string>& allowed, const std::string& what) {
  if (allowed.empty() || std::find(allowed.begin(), allowed.end(), value) != allowed.end()) return;
  auto near = nearest(to_lower(value), allowed, 1);
  throw UsageError(fmt::format("unknown {} \"{}\"; {}", what, value,
                               near.empty() ? fmt::format("use one of {}", fmt::join(allowed, ", "))
                                            : fmt::format("did you mean \"{}\"?", near[0])));
}

}  // namespace qsel
