// Engine command lines (include/qsel/graph/engine_cli.h): flags split out of a
// command by words, a program found by its name, and the launch templates listed.
#include "qsel/graph/engine_cli.h"

#include <algorithm>
#include <cctype>

namespace qsel {
using nlohmann::json;
namespace {

std::vector<std::string> words(const std::string& s) {
  std::vector<std::string> out;
  std::string cur;
  for (char ch : s) {
    if (std::isspace(static_cast<unsigned char>(ch))) {
      if (!cur.empty()) out.push_back(cur);
      cur.clear();
    } else {
      cur += ch;
    }
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

bool numeric(const std::string& w) {  // "-1", "-0.5": a value, not a flag
  return w.size() > 1 && (std::isdigit(static_cast<unsigned char>(w[1])) || w[1] == '.');
}

bool starts_with_program(const std::string& command, const std::string& program) {
  if (program.empty() || command.compare(0, program.size(), program) != 0) return false;
  return command.size() == program.size() || std::isspace(static_cast<unsigned char>(command[program.size()]));
}

}  // namespace

std::vector<std::string> command_flags(const std::string& command) {
  std::vector<std::string> out;
  for (auto w : words(command)) {
    if (w.size() < 2 || w[0] != '-' || numeric(w)) continue;
    if (auto eq = w.find('='); eq != std::string::npos) w.resize(eq);
    out.push_back(w);
  }
  return out;
}

const json* cli_program(const Record& engine, const std::string& command) {
  const json* best = nullptr;
  std::size_t best_len = 0;
  if (!engine.data.is_object() || !engine.data.contains("cli") || !engine.data["cli"].is_array()) return nullptr;
  for (const auto& p : engine.data["cli"]) {
    std::string name = p.value("program", "");
    if (starts_with_program(command, name) && name.size() > best_len) {
      best = &p;
      best_len = name.size();
    }
  }
  return best;
}

std::vector<std::string> unknown_flags(const Record& engine, const std::string& command, bool* program_known) {
  const json* p = cli_program(engine, command);
  if (program_known) *program_known = p != nullptr;
  std::string args = p ? command.substr(p->value("program", "").size()) : command;
  std::vector<std::string> out;
  for (const auto& f : command_flags(args)) {
    bool known = false;
    if (p)
      for (const auto& x : p->value("flags", json::array()))
        if (x.is_string() && x.get<std::string>() == f) known = true;
    if (!known && std::find(out.begin(), out.end(), f) == out.end()) out.push_back(f);
  }
  return out;
}

std::vector<LaunchTemplate> launch_templates(const Record& engine) {
  std::vector<LaunchTemplate> out;
  if (!engine.data.is_object()) return out;
  const json launch = engine.data.value("launch", json());
  if (!launch.is_object()) return out;
  std::string program = launch.value("program", "");
  for (const auto& [key, value] : launch.items()) {
    if (key == "program" || key == "note" || key == "source" || key == "prompt_mode_default" || !value.is_string()) continue;
    out.push_back({"/launch/" + key, program + " " + value.get<std::string>()});
  }
  // The converter that makes the file `model` takes: its own program's flags.
  const json convert = launch.value("convert", json());
  if (convert.is_object() && convert.value("program", json()).is_string() && convert.value("line", json()).is_string())
    out.push_back({"/launch/convert/line", convert["program"].get<std::string>() + " " + convert["line"].get<std::string>()});
  const json tp_flags = engine.data.value("tensor_parallel", json::object()).value("flags", json::object());
  for (const auto& [key, value] : tp_flags.items())
    if (value.is_string()) out.push_back({"/tensor_parallel/flags/" + key, program + " " + value.get<std::string>()});
  const json kv = launch.value("kv_cache", json::array());
  for (std::size_t i = 0; kv.is_array() && i < kv.size(); ++i)
    if (kv[i].is_object() && kv[i].contains("flags") && kv[i]["flags"].is_string())
      out.push_back({"/launch/kv_cache/" + std::to_string(i) + "/flags", program + " " + kv[i]["flags"].get<std::string>()});
  return out;
}

}  // namespace qsel
