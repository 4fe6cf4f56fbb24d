#include "qsel/rules/query.h"

#include <algorithm>

namespace qsel {

std::set<std::string> Query::flags() const {
  std::set<std::string> out(extra_flags.begin(), extra_flags.end());
  if (spec_decode != "none") {
    out.insert("spec-decode");
    out.insert("spec-decode=" + spec_decode);
  }
  if (prefix_caching) out.insert("prefix-caching");
  if (kv_cache != "auto") out.insert("kv-cache=" + (kv_cache == "bf16" ? std::string("fp16") : kv_cache));
  if (model && model->moe()) out.insert("moe");
  if (model && model->sliding_window()) out.insert("sliding-window");
  return out;
}

bool Query::knows_flag(const std::string& flag) const {
  for (const auto& f : extra_flags)
    if (f == flag || f.substr(0, f.find('=')) == flag.substr(0, flag.find('='))) return true;
  std::string key = flag.substr(0, flag.find('='));
  if (key == "spec-decode" || key == "prefix-caching") return true;
  if (key == "kv-cache") return kv_cache != "auto";
  if (key == "moe" || key == "sliding-window") return model.has_value();
  return false;
}

int Query::serving_concurrency() const {
  if (concurrency > 0) return concurrency;
  std::string market = accelerator ? accelerator->str("market") : "";
  return std::max(batch, market == "datacenter" || market == "cloud" ? 2 : 1);
}

}  // namespace qsel
